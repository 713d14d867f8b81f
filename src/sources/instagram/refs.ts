/**
 * What callers name Instagram things by: an account (`nasa`, `@nasa`, its address), a post (its code, its numeric
 * id, its /p/ or /reel/ address), and the cursors of this source. Bad input is the caller's 400, naming the field.
 */
import { QuarryError } from '../../errors.js';

const invalid = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`);

const USERNAME = /^[A-Za-z0-9._]{1,30}$/;
/** Instagram's shortcode alphabet: a post's code is its numeric id written in base 64 with it. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function pathOf(value: string): string | undefined {
  if (!/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*instagram\.com\//i.test(value)) return undefined;
  return new URL(/^https?:/i.test(value) ? value : `https://${value}`).pathname;
}

export function usernameOf(input: string, field = 'profile'): string {
  const value = input.trim();
  const path = pathOf(value);
  const name = path !== undefined ? path.split('/').filter(Boolean)[0] ?? '' : value.replace(/^@/, '');
  if (!USERNAME.test(name)) throw invalid(field, 'an Instagram username (1-30 letters, digits, . or _), @handle or profile address');
  return name;
}

export function hashtagOf(input: string): string {
  const tag = input.trim().replace(/^#/, '');
  if (!/^[\p{L}\p{N}_]{1,100}$/u.test(tag)) throw invalid('hashtag', 'a hashtag of letters, digits and _');
  return tag;
}

export function codeToId(code: string): string {
  let id = 0n;
  for (const c of code) id = id * 64n + BigInt(ALPHABET.indexOf(c));
  return id.toString();
}

export function idToCode(id: string): string {
  let n = BigInt(id);
  let code = '';
  while (n > 0n) {
    code = ALPHABET[Number(n % 64n)] + code;
    n /= 64n;
  }
  return code || 'A';
}

/** A post as its code and numeric id, from either or from its address. */
export function postOf(input: string): { code: string; id: string } {
  const value = input.trim();
  const path = pathOf(value);
  if (path !== undefined) {
    const m = /^\/(?:[A-Za-z0-9._]+\/)?(?:p|reels?|tv)\/([A-Za-z0-9_-]{5,40})\/?$/.exec(path);
    if (!m) throw invalid('post', 'an Instagram post address (…/p/CODE/ or …/reel/CODE/)');
    return { code: m[1], id: codeToId(m[1]) };
  }
  if (/^[0-9]{5,25}$/.test(value)) return { code: idToCode(value), id: value };
  if (/^[A-Za-z0-9_-]{5,40}$/.test(value)) return { code: value, id: codeToId(value) };
  throw invalid('post', 'an Instagram post code, numeric id or address');
}

/** A profile list's cursor: the account id it belongs to and Instagram's own token. */
export function listCursor(cursor: string): { userId: string; token: string } {
  const m = /^([0-9]{1,20}):(.+)$/.exec(cursor);
  if (!m) throw invalid('cursor', 'not a cursor this endpoint answered (an account id, a colon and a page token)');
  return { userId: m[1], token: m[2] };
}
