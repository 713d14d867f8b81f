/**
 * OpenStreetMap's two public APIs, or an operator's own instances of them:
 * - Nominatim (`/search`, `/reverse`): its usage policy asks for an identifying User-Agent, at most one request a
 *   second, caching, and no bulk use. Quarry names the operator's contact (QUARRY_MAPS_CONTACT) in the User-Agent,
 *   spaces its requests (QUARRY_MAPS_NOMINATIM_INTERVAL_MS, default 1000 ms on the public instance) and caches a day
 *   to a week (the endpoints' cacheTtlSeconds).
 * - Overpass (`/interpreter`, `/status`): places of a kind around a point, an element's tags. A 429 means no query
 *   slot is free for this address; `/status` says when one will be, which becomes `retryAfterSeconds`.
 * Without a contact, the public instances are not used at all: the source answers sourceUnavailable naming the
 * settings (an operator running its own instances needs none).
 */
import { QuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';

export const PUBLIC_NOMINATIM = 'https://nominatim.openstreetmap.org';
export const PUBLIC_OVERPASS = 'https://overpass-api.de/api';
const JSON_MAX_BYTES = 4 * 1024 * 1024;
const OVERPASS_TIMEOUT_S = 25;

const trimSlash = (s: string): string => s.replace(/\/+$/, '');

export interface MapsConfig {
  nominatim: string;
  overpass: string;
  userAgent: string;
  intervalMs: number;
}

/** The instances and agent this call uses, or sourceUnavailable when the public instances would be used anonymously. */
export function mapsConfig(settings: SourceContext['settings']): MapsConfig {
  const nominatim = trimSlash(settings.NOMINATIM_URL || PUBLIC_NOMINATIM);
  const overpass = trimSlash(settings.OVERPASS_URL || PUBLIC_OVERPASS);
  const contact = settings.CONTACT?.trim();
  const usesPublic = nominatim === PUBLIC_NOMINATIM || overpass === PUBLIC_OVERPASS;
  if (usesPublic && !contact) {
    throw new QuarryError(
      'sourceUnavailable',
      'maps: OpenStreetMap’s public instances require an identifying User-Agent: set QUARRY_MAPS_CONTACT (an e-mail address or URL ' +
        'where the operator can be reached), or point QUARRY_MAPS_NOMINATIM_URL and QUARRY_MAPS_OVERPASS_URL at your own instances',
      { retryable: false },
    );
  }
  const interval = Number(settings.NOMINATIM_INTERVAL_MS);
  return {
    nominatim,
    overpass,
    userAgent: `quarry/0.1${contact ? ` (+${contact.replace(/[\r\n()]/g, '')})` : ''}`,
    intervalMs: Number.isFinite(interval) && interval >= 0 ? interval : nominatim === PUBLIC_NOMINATIM ? 1000 : 0,
  };
}

/** Next free start time per Nominatim instance: requests leave one interval apart, whatever the number of callers. */
const nextSlot = new Map<string, number>();

async function spaced(config: MapsConfig, signal: AbortSignal): Promise<void> {
  if (config.intervalMs <= 0) return;
  const now = Date.now();
  const at = Math.max(now, nextSlot.get(config.nominatim) ?? 0);
  nextSlot.set(config.nominatim, at + config.intervalMs);
  if (at > now) {
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, at - now);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

export async function nominatim(ctx: SourceContext, config: MapsConfig, path: '/search' | '/reverse', query: URLSearchParams): Promise<unknown> {
  await spaced(config, ctx.signal);
  const res = await ctx.http.request(
    {
      url: `${config.nominatim}${path}?${query}`,
      headers: { accept: 'application/json', 'user-agent': config.userAgent },
      maxBytes: JSON_MAX_BYTES,
    },
    ctx.signal,
  );
  return res.json();
}

/** Runs an Overpass QL query (its `[out:json]` header added here); a 429 becomes sourceRefused with the wait. */
export async function overpass(ctx: SourceContext, config: MapsConfig, statements: string): Promise<unknown> {
  const res = await ctx.http.request(
    {
      url: `${config.overpass}/interpreter`,
      method: 'POST',
      // A read-only query: safe to retry.
      idempotent: true,
      headers: { accept: 'application/json', 'user-agent': config.userAgent, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ data: `[out:json][timeout:${OVERPASS_TIMEOUT_S}];${statements}` }).toString(),
      timeoutMs: (OVERPASS_TIMEOUT_S + 5) * 1000,
      maxBytes: JSON_MAX_BYTES,
      passStatuses: [429],
    },
    ctx.signal,
  );
  if (res.status === 429) {
    const wait = await slotWait(ctx, config);
    throw new QuarryError('sourceRefused', 'maps: Overpass has no query slot free for this server right now (HTTP 429)', wait === undefined ? {} : { retryAfterSeconds: wait });
  }
  return res.json();
}

/** Seconds until Overpass frees a slot for us, from its `/status` page; undefined when it cannot say. */
export async function slotWait(ctx: SourceContext, config: MapsConfig): Promise<number | undefined> {
  try {
    const res = await ctx.http.request({ url: `${config.overpass}/status`, headers: { 'user-agent': config.userAgent }, maxBytes: 64 * 1024, timeoutMs: 5000 }, ctx.signal);
    return parseSlotWait(res.text());
  } catch {
    return undefined;
  }
}

/** `/status`: "N slots available now." → 0; "Slot available after: …, in 11 seconds." lines → the soonest. */
export function parseSlotWait(status: string): number | undefined {
  const now = /^(\d+) slots? available now/m.exec(status);
  if (now && Number(now[1]) > 0) return 0;
  const waits = [...status.matchAll(/^Slot available after: [^,\n]+, in (\d+) seconds?\./gm)].map((m) => Number(m[1]));
  return waits.length ? Math.min(...waits) : undefined;
}
