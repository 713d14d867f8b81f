/** A Snapchat account as callers name it: `nasa`, `@nasa`, or its address (www.snapchat.com/@nasa, /add/nasa). */
import { QuarryError } from '../../errors.js';

// Looser than the rule for new sign-ups: older accounts predate it, and Snapchat's own routes accept these.
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;

export function usernameOf(input: string): string {
  const value = input.trim();
  let name = value.replace(/^@/, '');
  if (/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*snapchat\.com\//i.test(value)) {
    const path = new URL(/^https?:/i.test(value) ? value : `https://${value}`).pathname;
    name = /^\/(?:@|add\/)([^/]+)/.exec(path)?.[1] ?? '';
  }
  if (!USERNAME.test(name)) throw new QuarryError('invalidRequest', 'profile: a Snapchat username, @handle or profile address (…/@username)');
  return name.toLowerCase();
}
