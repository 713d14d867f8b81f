/**
 * What callers send: a job (its key or an Indeed address) and the search cursor. The cursor has SPEC's form
 * `digits.digits.base64`: the results answered before it, the results of the page at Indeed's cursor already
 * answered (a page cut by `limit`), and Indeed's own cursor in base64 (any cursor Indeed gives fits that alphabet;
 * `=` alone stands for the first page, which has no Indeed cursor).
 */
import { QuarryError } from '../../errors.js';
import { INDEED_COUNTRIES } from '../../catalogue/endpoints/indeed.js';
import { webHost } from './client.js';

const bad = (field: string, what: string) => new QuarryError('invalidRequest', `${field}: ${what}`, { retryable: false });

const KEY = /^[0-9a-f]{16}$/i;

/** A job key and the Indeed host to read it on: the address's own host, else the country's (default us). */
export function jobRef(ref: string, country: string | undefined): { key: string; host: string } {
  const raw = ref.trim();
  const host = webHost(country ?? 'us');
  if (KEY.test(raw)) return { key: raw.toLowerCase(), host };
  const withScheme = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  const m = url && /^(?:([a-z]{2,3})\.)?indeed\.com$/i.exec(url.hostname);
  if (!url || !m) throw bad('job', 'give an Indeed job key (16 hex digits) or an indeed.com job address');
  const key = url.searchParams.get('jk') ?? url.searchParams.get('vjk') ?? /\/viewjob\/([0-9a-f]{16})/i.exec(url.pathname)?.[1];
  if (!key || !KEY.test(key)) throw bad('job', 'no job key (jk) in that address');
  const sub = m[1]?.toLowerCase();
  const known = !sub || sub === 'www' || sub === 'uk' || (INDEED_COUNTRIES as readonly string[]).includes(sub);
  return { key: key.toLowerCase(), host: known ? url.hostname.toLowerCase() : host };
}

export interface Cursor {
  /** Results answered before this point of the walk. */
  offset: number;
  /** Results of the page at `token` already answered. */
  skip: number;
  /** Indeed's cursor of the page to read; absent for the first page. */
  token?: string;
}

export function encodeCursor(c: Cursor): string {
  const token = c.token ? Buffer.from(c.token, 'utf8').toString('base64') : '=';
  return `${c.offset}.${c.skip}.${token}`;
}

export function decodeCursor(cursor: string | undefined): Cursor {
  if (!cursor) return { offset: 0, skip: 0 };
  const m = /^(\d{1,9})\.(\d{1,9})\.([A-Za-z0-9+/=]+)$/.exec(cursor);
  if (!m) throw bad('cursor', 'not a cursor this endpoint gave');
  if (m[3] === '=') return { offset: Number(m[1]), skip: Number(m[2]) };
  const token = Buffer.from(m[3], 'base64').toString('utf8');
  if (!token || Buffer.from(token, 'utf8').toString('base64') !== m[3]) throw bad('cursor', 'not a cursor this endpoint gave');
  return { offset: Number(m[1]), skip: Number(m[2]), token };
}
