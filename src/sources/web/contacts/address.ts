/**
 * Addresses for the contacts crawl: the start address from the caller's `url`, what counts as the same site, and
 * which links are worth fetching at all.
 */
import { QuarryError } from '../../../errors.js';

const HOST = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const bad = (rule: string): QuarryError => new QuarryError('invalidRequest', `url: ${rule}`, { retryable: false });

/**
 * A bare domain (optionally with a path) is asked over https; a full address keeps its scheme, port and path.
 * Only http and https; no credentials.
 */
export function startAddress(input: string): URL {
  const raw = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `https://${raw}`;
  if (!URL.canParse(withScheme)) throw bad('not a valid address or domain');
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('only http and https addresses are allowed');
  if (url.username || url.password) throw bad('must not contain credentials');
  const host = url.hostname.replace(/\.$/, '');
  const ip = /^\[[0-9a-f:.]+\]$/i.test(host) || /^\d+\.\d+\.\d+\.\d+$/.test(host);
  if (!ip && !HOST.test(host)) throw bad('not a valid address or domain');
  if (!ip && !host.includes('.')) throw bad('give a domain with its suffix, e.g. example.com');
  url.hash = '';
  return url;
}

/**
 * The key two hosts share when they are the same site: the host without a trailing dot and without a leading
 * `www.`. Without a public-suffix list the registrable domain cannot be told from a subdomain, so subdomains of the
 * key count as the site too (see sameSite) but a parent domain does not: the crawl can never leave the owner's name.
 */
export function siteKey(host: string): string {
  return host.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

export function sameSite(url: URL, key: string): boolean {
  const k = siteKey(url.hostname);
  return k === key || k.endsWith(`.${key}`);
}

/** Files a contacts crawl never reads: documents, media, archives, feeds. */
const NOT_A_PAGE = /\.(?:pdf|docx?|xlsx?|pptx?|odt|ods|rtf|csv|zip|gz|tgz|rar|7z|dmg|exe|msi|apk|jpe?g|png|gif|webp|svg|ico|bmp|tiff?|avif|mp[34]|m4a|mov|avi|webm|wav|ogg|woff2?|ttf|otf|eot|css|js|json|xml|rss|atom|txt|ics|vcf)$/i;
/** Pages behind a login or a basket never carry public contacts and may have side effects. */
const PRIVATE_AREA = /\/(?:log-?in|log-?out|sign-?in|sign-?up|sign-?out|register|cart|basket|checkout|account|my-account|wp-admin|wp-login\.php|admin|search)(?:\/|$|\?|\.)/i;

/** A same-site http(s) link to a page, without its fragment; undefined for anything else. */
export function crawlable(href: string, base: URL, key: string): URL | undefined {
  const h = href.trim();
  if (!h || /^(?:mailto|tel|sms|javascript|data|callto|whatsapp|fax):/i.test(h) || h.startsWith('#')) return undefined;
  if (!URL.canParse(h, base)) return undefined;
  const url = new URL(h, base);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || !sameSite(url, key)) return undefined;
  if (NOT_A_PAGE.test(url.pathname) || PRIVATE_AREA.test(url.pathname)) return undefined;
  url.hash = '';
  return url;
}

/** Identity of a page across www/bare host, http/https and a trailing slash. */
export function pageKey(url: URL): string {
  const path = url.pathname.replace(/\/+$/, '') || '/';
  return `${siteKey(url.hostname)}${url.port ? `:${url.port}` : ''}${path}${url.search}`;
}
