/** The site source's addresses: the caller's `url` as the address to start from, and what counts as the same site. */
import { QuarryError } from '../../errors.js';

const HOST = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$/;

/**
 * The address to start from: a bare domain (optionally with a path) → `https://domain/path`; a full http(s)
 * address is kept. `field` names the request field in errors.
 */
export function siteAddress(value: string, field = 'url'): URL {
  const raw = value.trim();
  const bad = (rule: string) => new QuarryError('invalidRequest', `${field}: ${rule}`, { retryable: false });
  let url: URL;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) && !/^[^/:]+:\d+(?:[/?#]|$)/.test(raw)) {
    if (!URL.canParse(raw)) throw bad('not a valid address');
    url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('only http and https addresses are allowed');
  } else {
    if (!URL.canParse(`https://${raw}`)) throw bad('not a domain or an address');
    url = new URL(`https://${raw}`);
  }
  if (url.username || url.password) throw bad('must not contain credentials');
  const host = url.hostname.replace(/\.$/, '');
  if (!HOST.test(host) && !/^\[[0-9a-f:.]+\]$/.test(host) && !/^\d+\.\d+\.\d+\.\d+$/.test(host)) throw bad('not a domain name');
  url.hash = '';
  return url;
}

/** Same site: the same host, `www.` or not. */
export function sameSite(a: URL, b: URL): boolean {
  const bare = (h: string) => h.toLowerCase().replace(/^www\./, '');
  return bare(a.hostname) === bare(b.hostname);
}
