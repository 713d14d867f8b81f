/**
 * Bot walls in place of a page: PerimeterX ("Press & Hold", px-captcha), DataDome (captcha-delivery.com), Cloudflare
 * challenges ("Just a moment...", /cdn-cgi/challenge-platform), Akamai's "Access Denied" reference page and AWS WAF's
 * challenge. A platform source that reads pages (or JSON behind them) asks `wallOf` before it reads the data, so a
 * wall is `sourceRefused` and never an empty success. The upstream client already refuses the walls it recognises
 * in an error status's first 32 KB; these markers also cover a 200 page, any status handed back with
 * `passStatuses`, JSON refusals and headers. Only markers that appear on walls, not on ordinary pages, are used.
 */
import { QuarryError } from '../../../errors.js';

export type Wall = 'PerimeterX' | 'DataDome' | 'Cloudflare' | 'Akamai' | 'AWS WAF';

/** Where to look: the start of a page (walls are small pages; a real page's scripts come later). */
const PEEK = 64 * 1024;

// Ordinary pages carry the same vendors' sensor scripts (Zillow's pages set `window._pxAppId`; Cloudflare injects
// /cdn-cgi/challenge-platform/scripts/jsd/ into pages it lets through), so only the walls' own markup counts.
const BODY_MARKERS: [Wall, RegExp][] = [
  ['PerimeterX', /px-captcha|"blockScript"\s*:|captcha\.px-cdn\.net|press (?:&amp;|&) hold to confirm|<title>\s*access to this page has been denied/i],
  ['DataDome', /captcha-delivery\.com|var dd=\{['"]rt['"]/i],
  ['Cloudflare', /\/cdn-cgi\/challenge-platform\/h\/|cf-chl-|_cf_chl_opt|<title>\s*just a moment\.\.\.\s*<\/title>/i],
  ['Akamai', /<title>\s*access denied\s*<\/title>[\s\S]{0,2000}reference\s*&?#|errors\.edgesuite\.net/i],
  ['AWS WAF', /window\.gokuProps|awsWafCookieDomainList/i],
];

/** The wall a response is, by its headers and the start of its body; undefined for an ordinary answer. */
export function wallOf(headers: Record<string, string>, body: string | Buffer): Wall | undefined {
  if ((headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return 'Cloudflare';
  // DataDome tags every answer it proxies with x-datadome: only its captcha body (below) is a wall.
  const peek = (typeof body === 'string' ? body.slice(0, PEEK) : body.subarray(0, PEEK).toString('utf8'));
  for (const [wall, marker] of BODY_MARKERS) if (marker.test(peek)) return wall;
  return undefined;
}

/** Throws `sourceRefused` naming the wall when the response is one. */
export function refuseWalls(source: string, headers: Record<string, string>, body: string | Buffer): void {
  const wall = wallOf(headers, body);
  if (wall) throw new QuarryError('sourceRefused', `${source}: the platform answered ${/^[AEIOU]/.test(wall) ? 'an' : 'a'} ${wall} bot wall instead of the page`);
}
