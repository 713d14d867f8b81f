/**
 * What callers send: an advertiser page (an id, a username or an address) and the paging cursor. The cursor has
 * SPEC's form `[N]~token` or `token`: `token` is Graph's `after` cursor, base64url-encoded so any cursor Meta gives
 * fits the URL-safe alphabet, and `N` (0-9999) counts the ads of that page already answered (a page cut by `limit`).
 */
import { QuarryError } from '../../errors.js';

const bad = (field: string, what: string) => new QuarryError('invalidRequest', `${field}: ${what}`, { retryable: false });

/** A page as the caller named it: its numeric id, or a username the Graph API can resolve. */
export type PageRef = { id: string } | { username: string };

const USERNAME = /^[A-Za-z0-9.\-_]{1,100}$/;
/** Facebook paths that are not pages. */
const NOT_PAGES = new Set(['ads', 'profile.php', 'groups', 'events', 'watch', 'marketplace', 'pages', 'pg', 'people', 'hashtag', 'story.php', 'permalink.php', 'photo', 'photo.php', 'login', 'share']);

export function pageRef(ref: string): PageRef {
  const raw = ref.trim();
  if (/^\d{1,25}$/.test(raw)) return { id: raw };
  if (USERNAME.test(raw) && !/^\.+$/.test(raw)) return { username: raw };
  const withScheme = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  if (!url || !/(?:^|\.)(?:facebook|fb)\.com$/i.test(url.hostname)) throw bad('page', 'give a Facebook page id, username or facebook.com address');
  for (const key of ['view_all_page_id', 'id']) {
    const v = url.searchParams.get(key);
    if (v && /^\d{1,25}$/.test(v) && (key === 'view_all_page_id' || url.pathname === '/profile.php')) return { id: v };
  }
  const parts = url.pathname.split('/').filter(Boolean);
  // /people/Some-Name/100064123456789/ and /pg/name/ and /pages/Name/123/
  const trailingId = parts.find((p, i) => i > 0 && /^\d{5,25}$/.test(p));
  if ((parts[0] === 'people' || parts[0] === 'pages') && trailingId) return { id: trailingId };
  const first = parts[0] === 'pg' ? parts[1] : parts[0];
  if (first && !NOT_PAGES.has(first.toLowerCase()) && USERNAME.test(first)) return /^\d{1,25}$/.test(first) ? { id: first } : { username: first };
  throw bad('page', 'no page in that address');
}

export interface Cursor {
  /** Graph's `after` token; absent for the first page. */
  after?: string;
  /** Ads of that page already answered. */
  skip: number;
}

export function encodeCursor(c: Cursor): string | undefined {
  const token = c.after ? Buffer.from(c.after, 'utf8').toString('base64url') : '';
  if (token.length > 500) return undefined;
  if (!token) return `${c.skip}~`;
  return c.skip ? `${c.skip}~${token}` : token;
}

export function decodeCursor(cursor: string | undefined): Cursor {
  if (!cursor) return { skip: 0 };
  const m = /^(?:(\d{0,4})~)?([A-Za-z0-9_-]*)$/.exec(cursor);
  if (!m) throw bad('cursor', 'not a cursor this endpoint gave');
  const after = m[2] ? Buffer.from(m[2], 'base64url').toString('utf8') : undefined;
  if (after !== undefined && (!after || Buffer.from(after, 'utf8').toString('base64url') !== m[2])) throw bad('cursor', 'not a cursor this endpoint gave');
  return { after, skip: Number(m[1] || 0) };
}

/**
 * An archived ad as the caller names it: its Library ID, or an address carrying it as `id` (the Ad Library's
 * `/ads/library/?id=…`, the API's `/ads/archive/render_ad/?id=…`). A `view_all_page_id` (or `page_id`) in the address
 * names the page whose archive holds it.
 */
export function adRef(ref: string): { id: string; pageId?: string } {
  const raw = ref.trim();
  if (/^\d{1,25}$/.test(raw)) return { id: raw };
  const withScheme = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  const id = url?.searchParams.get('id');
  if (!url || !/(?:^|\.)facebook\.com$/i.test(url.hostname) || !/^\/ads\/(?:library|archive\/render_ad)\/?$/.test(url.pathname) || !id || !/^\d{1,25}$/.test(id)) {
    throw bad('ad', 'give an Ad Library ID (digits) or a facebook.com/ads/library/?id=… address');
  }
  const page = url.searchParams.get('view_all_page_id') ?? url.searchParams.get('page_id');
  return page && /^\d{1,25}$/.test(page) ? { id, pageId: page } : { id };
}
