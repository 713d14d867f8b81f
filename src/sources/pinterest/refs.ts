/** What callers name Pinterest things by: a pin (id or address), a profile, a board (address or username/board). */
import { QuarryError } from '../../errors.js';

const invalid = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`);
const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The path of a pinterest.* address (any country's host, pin.it excluded), or undefined when it is not one. */
function pathOf(value: string): string[] | undefined {
  if (!/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*pinterest\.[a-z.]{2,6}\//i.test(value)) return undefined;
  return new URL(/^https?:/i.test(value) ? value : `https://${value}`).pathname.split('/').filter(Boolean).map(decodeURIComponent);
}

export function pinOf(input: string): string {
  const value = input.trim();
  if (/^[0-9]{5,25}$/.test(value)) return value;
  const path = pathOf(value);
  // /pin/123/ and the SEO form /pin/some-title--123/
  const m = path && path[0] === 'pin' ? /(?:^|--)([0-9]{5,25})$/.exec(path[1] ?? '') : null;
  if (!m) throw invalid('pin', 'a Pinterest pin id or address (…/pin/ID/)');
  return m[1];
}

export function usernameOf(input: string): string {
  const value = input.trim().replace(/^@/, '');
  const path = pathOf(value);
  const name = path ? (path[0] ?? '') : value;
  if (!NAME.test(name) || name === 'pin') throw invalid('profile', 'a Pinterest username or profile address');
  return name;
}

export function boardOf(input: string): { username: string; slug: string } {
  const value = input.trim();
  const parts = pathOf(value) ?? value.split('/').filter(Boolean);
  const [username, slug] = parts;
  if (parts.length !== 2 || !NAME.test(username ?? '') || !NAME.test(slug ?? '') || username === 'pin') {
    throw invalid('board', 'a Pinterest board address (…/username/board/) or username/board');
  }
  return { username, slug };
}
