/**
 * pdf.js leaves promises of its own unhandled on some damaged files: looking up a page, it fetches the page tree's
 * other kids ahead and drops them when one fails (a misplaced object). Under Node's default that ends the process,
 * though the conversion itself went on and answered. While a PDF is being read in this thread (and one turn after,
 * when the last rejections surface), those pdf.js errors are dropped; any other unhandled rejection is raised as
 * Node raises it by default, unless the host listens for them itself.
 */

/** The exception classes pdf.js throws (its `BaseException` subclasses set `name`). */
const PDFJS_ERRORS = new Set([
  'AbortException',
  // Ours (`decode-budget.ts`): thrown inside pdf.js by a decoder past the document's budget.
  'DecodeBudgetError',
  'DNLMarkerError',
  'EOIMarkerError',
  'FormatError',
  'InvalidPDFException',
  'JpegError',
  'JpxError',
  'MissingDataException',
  'ParserEOFException',
  'PasswordException',
  'RenderingCancelledException',
  'ResponseException',
  'UnknownErrorException',
  'XRefEntryException',
  'XRefParseException',
]);

let active = 0;

function dropPdfJsErrors(reason: unknown): void {
  if (PDFJS_ERRORS.has((reason as { name?: string } | null)?.name ?? '')) return;
  // Ours is the only listener: do what Node does without one.
  if (process.listenerCount('unhandledRejection') === 1) throw reason;
}

/** Runs `read` (one PDF's reading) with pdf.js's stray rejections dropped. */
export async function withStrayRejectionsDropped<T>(read: () => Promise<T>): Promise<T> {
  if (active++ === 0) process.on('unhandledRejection', dropPdfJsErrors);
  try {
    return await read();
  } finally {
    setImmediate(() => {
      if (--active === 0) process.off('unhandledRejection', dropPdfJsErrors);
    });
  }
}
