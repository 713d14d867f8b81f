/** What callers name Threads things by: an account (`meta`, `@meta`, its address) and a post (its id or address). */
import { QuarryError } from '../../errors.js';

const USERNAME = /^[A-Za-z0-9._]{1,30}$/;
const invalid = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`);

function pathOf(value: string): string[] | undefined {
  if (!/^(?:https?:\/\/)?(?:www\.)?threads\.(?:net|com)\//i.test(value)) return undefined;
  return new URL(/^https?:/i.test(value) ? value : `https://${value}`).pathname.split('/').filter(Boolean);
}

export function usernameOf(input: string, field = 'profile'): string {
  const value = input.trim();
  const path = pathOf(value);
  const name = path ? (path[0] ?? '').replace(/^@/, '') : value.replace(/^@/, '');
  if (!USERNAME.test(name)) throw invalid(field, 'a Threads username (letters, digits, . and _), @handle or profile address');
  return name;
}

/** A post: its API id, or its author and shortcode from a /@user/post/CODE address. */
export function postOf(input: string): { id: string } | { username: string; shortcode: string } {
  const value = input.trim();
  if (/^[0-9]{1,25}$/.test(value)) return { id: value };
  const path = pathOf(value);
  if (path && path.length >= 3 && path[0].startsWith('@') && path[1] === 'post' && /^[A-Za-z0-9_-]{5,40}$/.test(path[2])) {
    return { username: usernameOf(path[0], 'post'), shortcode: path[2] };
  }
  throw invalid('post', 'a Threads post id or address (…/@user/post/CODE)');
}
