/** What a caller may name a Google Play app by: its package name or a play.google.com address. */
import { QuarryError } from '../../errors.js';

const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+$/;

export function packageOf(input: string, field = 'app'): string {
  const s = input.trim();
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const id = url.searchParams.get('id') ?? '';
    if (/(?:^|\.)play\.google\.com$/i.test(url.hostname) && /\/store\/apps\/details/.test(url.pathname) && PACKAGE.test(id)) return id;
    throw new QuarryError('invalidRequest', `${field}: not a Google Play app address`, { retryable: false });
  }
  if (PACKAGE.test(s) && s.length <= 255) return s;
  throw new QuarryError('invalidRequest', `${field}: give a package name (com.example.app) or a play.google.com address`, { retryable: false });
}

/** Google's `hl`: a language, with its region as Google writes it (pt-br → pt_BR). */
export function hlOf(language: string): string {
  const [lang, region] = language.split(/[-_]/);
  return region ? `${lang.toLowerCase()}_${region.toUpperCase()}` : lang.toLowerCase();
}
