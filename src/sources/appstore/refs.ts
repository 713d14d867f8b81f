/** What a caller may name an App Store app by: its numeric id, `id123…`, a bundle id or an apps.apple.com address. */
import { QuarryError } from '../../errors.js';

export type AppRef = { id: string } | { bundleId: string };

const BUNDLE = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9_-]+)+$/;

export function appRefOf(input: string, field = 'app'): AppRef {
  const s = input.trim();
  const id = /^(?:id)?(\d{1,15})$/i.exec(s);
  if (id) return { id: id[1] };
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    if (/(?:^|\.)(?:apps|itunes)\.apple\.com$/i.test(url.hostname)) {
      const m = /\/id(\d{1,15})(?:[/?#]|$)/.exec(url.pathname) ?? /^(\d{1,15})$/.exec(url.searchParams.get('id') ?? '');
      if (m) return { id: m[1] };
    }
    throw new QuarryError('invalidRequest', `${field}: not an App Store app address`, { retryable: false });
  }
  if (BUNDLE.test(s) && s.length <= 255) return { bundleId: s };
  throw new QuarryError('invalidRequest', `${field}: give an app id, a bundle id or an apps.apple.com address`, { retryable: false });
}
