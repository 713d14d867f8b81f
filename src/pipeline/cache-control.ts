/**
 * The request's `Cache-Control` directives Quarry honours (RFC 9111 §5.2.1, RFC 5861): `only-if-cached` answers from
 * the cache or fails without calling the source; `stale-if-error=N` answers a result up to N seconds old when the
 * live fetch fails with a source* error. Other directives are ignored, as a cache ignores what it does not implement.
 */
import { QuarryError } from '../errors.js';

export interface CacheDirectives {
  onlyIfCached: boolean;
  /** Seconds of staleness acceptable when the source fails; undefined when not asked for. */
  staleIfError?: number;
}

const NONE: CacheDirectives = { onlyIfCached: false };

export function parseCacheControl(header: string | string[] | undefined): CacheDirectives {
  if (header === undefined) return NONE;
  const raw = Array.isArray(header) ? header.join(',') : header;
  const out: CacheDirectives = { onlyIfCached: false };
  for (const part of raw.split(',')) {
    const [nameRaw, ...rest] = part.split('=');
    const name = nameRaw!.trim().toLowerCase();
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (name === 'only-if-cached') out.onlyIfCached = true;
    else if (name === 'stale-if-error') {
      if (!/^\d{1,10}$/.test(value)) {
        throw new QuarryError('invalidRequest', 'Cache-Control: stale-if-error must be a whole number of seconds, e.g. stale-if-error=3600.');
      }
      out.staleIfError = Number(value);
    }
  }
  return out.onlyIfCached || out.staleIfError !== undefined ? out : NONE;
}

/** Only the source's own failures are worth hiding behind a stale result; the caller's own mistakes are not. */
export function isSourceFailure(e: unknown): e is QuarryError {
  return e instanceof QuarryError && e.code.startsWith('source');
}
