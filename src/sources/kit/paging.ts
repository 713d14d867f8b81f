/**
 * Paging over an upstream's own continuation tokens when `limit` does not fall on a page boundary. The cursor a
 * caller gets back is the upstream's token; when `limit` cut a page, the rest of that page is still owed, so the
 * cursor is `N~token`: skip the first N items of the page `token` asks (`N~` alone: the first page). Nothing is
 * skipped or repeated, and a source needs no state of its own. Upstreams whose pages start where the token says
 * (not at an offset that depends on the page size) page correctly this way.
 */
import { QuarryError } from '../../errors.js';

export interface SkipCursor {
  /** Items of the page `token` asks that were already answered. */
  skip: number;
  /** The upstream's token; absent for the first page. */
  token?: string;
}

export interface Page<T> {
  items: T[];
  /** The upstream's token for the next page, when there is one. */
  token?: string;
}

const SKIP = /^(\d{1,4})~(.*)$/s;

/**
 * Reads a cursor this endpoint gave: `N~token`, `N~` or a bare token. `token` is the upstream token's own shape, so
 * a tampered cursor is the caller's 400 rather than an upstream error.
 */
export function readSkipCursor(cursor: string | undefined, token: RegExp, field = 'cursor'): SkipCursor {
  if (cursor === undefined) return { skip: 0 };
  const m = SKIP.exec(cursor);
  const t = m ? m[2] : cursor;
  if (t !== '' && !token.test(t)) throw new QuarryError('invalidRequest', `${field}: not a cursor this endpoint gave`, { retryable: false });
  return { skip: m ? Number(m[1]) : 0, token: t || undefined };
}

export const writeSkipCursor = (c: SkipCursor): string | undefined => (c.skip ? `${c.skip}~${c.token ?? ''}` : c.token);

/**
 * Collects `limit` items from the cursor on, page after page (at most `maxPages` upstream requests), and answers the
 * cursor of what comes next. `fetchPage(token, want)` asks the page `token` names (undefined: the first), `want`
 * being how many of it this call could use (skipped ones included), for upstreams that take a page size.
 */
export async function collectPages<T>(
  from: SkipCursor,
  limit: number,
  fetchPage: (token: string | undefined, want: number) => Promise<Page<T>>,
  maxPages = 8,
): Promise<{ items: T[]; cursor?: string }> {
  const items: T[] = [];
  let asked = from.token;
  let skip = from.skip;
  for (let n = 0; n < maxPages; n++) {
    const page = await fetchPage(asked, skip + limit - items.length);
    const fresh = page.items.slice(skip);
    const room = limit - items.length;
    if (fresh.length > room) {
      items.push(...fresh.slice(0, room));
      return { items, cursor: writeSkipCursor({ skip: skip + room, token: asked }) };
    }
    items.push(...fresh);
    // An upstream answering its own token again would loop: that is the end of the list too.
    if (!page.token || page.token === asked) return { items };
    if (items.length >= limit) return { items, cursor: page.token };
    asked = page.token;
    skip = 0;
  }
  return { items, cursor: asked };
}
