/**
 * An inert `FontFace` for the conversion worker, so pdf.js skips glyph outlines.
 *
 * With `disableFontFace` (pdf.js's default on Node, where there is no font loading API) pdf.js compiles every glyph
 * a page shows into path commands and ships them with the page's operator list, so that a canvas could draw text
 * without a font face; it does so on every `getOperatorList` call (read here for table rules and right-to-left
 * ligatures), and it is the largest single cost on pages set in large embedded TrueType or CID fonts. Text
 * extraction never draws. With font faces enabled and a document whose font set accepts any face, pdf.js hands each
 * font to this class, which "loads" at once and holds nothing, and compiles no outlines. Measured on the corpus,
 * pinned to one core: about 30% less time per file, identical markdown. Installed only inside the worker
 * (`worker.ts`); elsewhere (`fontFaceOptions()` sees no inert class) pdf.js keeps its default.
 */
export class InertFontFace {
  readonly loaded: Promise<InertFontFace> = Promise.resolve(this);
  constructor(readonly family: string) {}
}

/** The `ownerDocument` pdf.js's font loader adds faces to (`document.fonts`), reduced to what it calls. */
const inertDocument = { fonts: { add() {}, delete() {} } };

/** Makes this thread's `FontFace` the inert one (call once, in the conversion worker, before pdf.js runs). */
export function installInertFontFace(): void {
  (globalThis as { FontFace?: unknown }).FontFace = InertFontFace;
}

/** pdf.js document options: font faces through the inert class when it is installed, else pdf.js's default. */
export function fontFaceOptions(): { disableFontFace: boolean; ownerDocument?: unknown } {
  return (globalThis as { FontFace?: unknown }).FontFace === InertFontFace ? { disableFontFace: false, ownerDocument: inertDocument } : { disableFontFace: true };
}
