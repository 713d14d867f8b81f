/** Table-of-contents entries: a tab marked while the entry is read, then its page number split off. */
import { PAGE_LABEL } from '../page-label.js';

/** Marks a tab inside a table-of-contents entry until its page number is split off (a private-use character). */
export const TOC_TAB = '\uE000';

const TOC_PAGE = new RegExp(`^${PAGE_LABEL}$`, 'i');

/** A table-of-contents entry: its text up to the last tab, and what follows when that is a page number. */
export function tocEntry(text: string): { title: string; page?: string } {
  const at = text.lastIndexOf(TOC_TAB);
  const page = at < 0 ? '' : text.slice(at + 1).trim();
  const numbered = at >= 0 && TOC_PAGE.test(page);
  return { title: (numbered ? text.slice(0, at) : text).replaceAll(TOC_TAB, ' ').trim(), page: numbered ? page : undefined };
}
