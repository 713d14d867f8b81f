/**
 * A minimal cookie jar for Yahoo's consent and crumb flow: names, values and domains only (the session lives minutes
 * to hours, so expiry and paths do not matter). The upstream client joins repeated Set-Cookie headers with ", ",
 * so they are split again where a new `name=` starts (a date's comma is followed by a day number, never by `name=`).
 */
const MAX_COOKIES = 50;
const MAX_COOKIE_LENGTH = 4096;

interface Cookie {
  value: string;
  /** Domain without its leading dot; a host-only cookie has the host that set it. */
  domain: string;
}

export function splitSetCookie(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(/,\s*(?=[!#$%&'*+.^`|~\w-]+=)/).map((s) => s.trim()).filter(Boolean);
}

export class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  /** Stores the cookies of a Set-Cookie header (as the upstream client hands it over) answered by `url`. */
  add(setCookie: string | undefined, url: string): void {
    const host = new URL(url).hostname.toLowerCase();
    for (const line of splitSetCookie(setCookie)) {
      if (line.length > MAX_COOKIE_LENGTH) continue;
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let domain: string | undefined = host;
      for (const attribute of attributes) {
        const [key, v] = attribute.split('=');
        if (key?.trim().toLowerCase() !== 'domain' || !v) continue;
        const given = v.trim().replace(/^\./, '').toLowerCase();
        // A server may only set cookies for its own domain or a parent of it; any other is ignored (RFC 6265 5.3).
        domain = host === given || host.endsWith(`.${given}`) ? given : undefined;
      }
      if (!domain) continue;
      if (!this.cookies.has(name) && this.cookies.size >= MAX_COOKIES) continue;
      this.cookies.set(name, { value, domain });
    }
  }

  /** The Cookie header for a request to `url`, or undefined when no cookie applies. */
  header(url: string): string | undefined {
    const host = new URL(url).hostname.toLowerCase();
    const pairs = [...this.cookies]
      .filter(([, c]) => host === c.domain || host.endsWith(`.${c.domain}`))
      .map(([name, c]) => `${name}=${c.value}`);
    return pairs.length ? pairs.join('; ') : undefined;
  }

  get size(): number {
    return this.cookies.size;
  }
}
