/**
 * Document structure the engine gives besides the text: outline (bookmark) titles and the tagged-PDF structure
 * tree's headings and tables. (Running headers and footers, found by repetition across pages: `running.ts`.)
 */

/** Outline titles (normalised) → heading level (depth + 1). */
export type Outline = Map<string, number>;

interface OutlineNode {
  title?: string;
  items?: OutlineNode[];
}

/** Text as compared across outline, tags and pages: NFKC, lower case, spaces collapsed. */
export const key = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** Flattens the outline tree (at most 2,000 entries, depth 8); titles shorter than 3 characters are skipped. */
export function outlineTitles(nodes: OutlineNode[] | null | undefined): Outline {
  const out: Outline = new Map();
  const stack: [OutlineNode, number][] = (nodes ?? []).map((n) => [n, 1] as [OutlineNode, number]).reverse();
  let seen = 0;
  while (stack.length && seen++ < 2000) {
    const [n, depth] = stack.pop()!;
    const t = key(n.title ?? '');
    if (t.length >= 3 && !out.has(t)) out.set(t, depth);
    if (depth < 8) for (const c of [...(n.items ?? [])].reverse()) stack.push([c, depth + 1]);
  }
  return out;
}

export interface StructNode {
  role?: string;
  type?: string;
  id?: string;
  /** A figure's alternate text (`/Alt`). */
  alt?: string;
  children?: StructNode[];
}

/** A table cell of the structure tree: the page's table (in tree order), its row and its cell within the row. */
export interface TagCell {
  table: number;
  row: number;
  col: number;
  /** A `TH` cell. */
  head: boolean;
}

/** What the structure tree says about one marked-content id. */
export interface Tag {
  /** Level of the `H`/`H1`-`H6` element around it (`H` counts as 1). */
  heading?: number;
  /** The `TD`/`TH` element around it; a table inside a cell belongs to the outer cell. */
  cell?: TagCell;
  /** The innermost `LI` element around it (numbered in tree order), and whether it is inside that item's `Lbl`. */
  item?: number;
  label?: boolean;
  /** The alternate text of the `Figure` element this marked content draws (its first content only). */
  alt?: string;
}

type Walk = { level: number; table?: { id: number; rows: number }; row?: { index: number; cols: number }; cell?: TagCell; item?: number; label?: boolean; alt?: { text: string; used: boolean } };

/**
 * Marked-content ids → their heading level, table cell, list item and figure alternate text, from a page's
 * structure tree (Word, LibreOffice and browsers write one in tagged PDFs). Rows are `TR` elements in tree order (inside `THead`/`TBody`/`TFoot` too),
 * cells the `TD`/`TH` elements of a row; pdf.js gives no span attributes, so a spanning cell counts once. At most
 * 100,000 nodes are read.
 */
export function structureTags(root: StructNode | null | undefined): Map<string, Tag> {
  const out = new Map<string, Tag>();
  if (!root) return out;
  let tables = 0;
  let items = 0;
  const stack: [StructNode, Walk][] = [[root, { level: 0 }]];
  let seen = 0;
  while (stack.length && seen++ < 100_000) {
    const [n, from] = stack.pop()!;
    const role = n.role ?? '';
    let here = from;
    const h = /^H([1-6])?$/.exec(role);
    if (h) here = { ...here, level: Number(h[1] ?? 1) };
    else if (role === 'LI') here = { ...here, item: items++, label: false };
    else if (role === 'Lbl') here = { ...here, label: true };
    else if (role === 'Figure') {
      const alt = usefulAlt(n.alt);
      if (alt) here = { ...here, alt: { text: alt, used: false } };
    }
    else if (!here.cell) {
      if (role === 'Table') here = { ...here, table: { id: tables++, rows: 0 }, row: undefined };
      else if (role === 'TR' && here.table) here = { ...here, row: { index: here.table.rows++, cols: 0 } };
      else if ((role === 'TD' || role === 'TH') && here.table && here.row) {
        here = { ...here, cell: { table: here.table.id, row: here.row.index, col: here.row.cols++, head: role === 'TH' } };
      }
    }
    const alt = n.type === 'content' && here.alt && !here.alt.used ? here.alt.text : undefined;
    if (alt) here.alt!.used = true;
    if (n.type === 'content' && n.id && (here.level || here.cell || here.item !== undefined || alt)) {
      out.set(n.id, { heading: here.level || undefined, cell: here.cell, item: here.item, label: here.item !== undefined ? here.label : undefined, alt });
    }
    // Children are pushed last first, so that they are visited (and rows and cells counted) in tree order.
    const kids = n.children ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], here]);
  }
  return out;
}

/**
 * A figure's alternate text worth writing: control characters dropped, at most 500 characters, and not a bare
 * generic word ("Figure", "Image 3": what a converter writes when the author gave none).
 */
function usefulAlt(alt: string | undefined): string | undefined {
  const t = (alt ?? '').replace(/[\u0000-\u001F\u007F-\u009F]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 500);
  return t && !/^(figure|image|picture|graphic|photo|img|untitled)\s*\d*$/i.test(t) ? t : undefined;
}
