/**
 * Kick's public web JSON (kick.com/api/v2), which its own site reads: a channel, and its clips. It sits behind a bot
 * wall (Cloudflare and Kick's own security policy) that refuses many server addresses: the shared client reads a
 * challenge page or a 403 as sourceRefused, and a proxy (QUARRY_KICK_PROXY) is the operator's remedy. Kick's official
 * API (api.kick.com/public/v1) needs an app token and serves neither clips nor follower counts, so it is not used.
 */
import { QuarryError } from '../../errors.js';
import { isObj, obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const API = 'https://kick.com/api/v2';
const SLUG = /^[A-Za-z0-9_-]{1,25}$/;
/** kick.com paths that are not channels. */
const NOT_CHANNELS = new Set(['categories', 'category', 'browse', 'following', 'search', 'video', 'clips', 'dashboard', 'settings', 'terms-of-service']);

/** A channel's slug from itself or a kick.com address (`/slug`, `/slug/clips`, `/slug/videos/…`). */
export function slugOf(input: string): string {
  const t = input.trim().replace(/^@/, '');
  if (SLUG.test(t)) return t.toLowerCase();
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  const u = URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  const first = u && /^(?:www\.)?kick\.com$/i.test(u.hostname) ? u.pathname.split('/').filter(Boolean)[0] : undefined;
  if (first && SLUG.test(first) && !NOT_CHANNELS.has(first.toLowerCase())) return first.toLowerCase();
  throw new QuarryError('invalidRequest', 'channel: not a Kick channel slug or kick.com channel address', { retryable: false });
}

/** One GET; a 404 is notFound (Kick answers `{"message": …}`), anything not JSON is drift. */
export async function get(ctx: SourceContext, path: string, params: Record<string, string | undefined> = {}): Promise<Obj> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  const res = await ctx.http.request(
    { url: `${API}${path}${q.size ? `?${q}` : ''}`, headers: { accept: 'application/json' }, passStatuses: [404] },
    ctx.signal,
  );
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    throw new QuarryError('sourceChanged', `kick: ${path} answered something other than JSON`);
  }
  if (res.status === 404) {
    const said = str(obj(body)?.message);
    throw new QuarryError('notFound', `channel: not found on Kick${said ? ` (${said.slice(0, 200)})` : ''}`);
  }
  if (!isObj(body)) throw new QuarryError('sourceChanged', `kick: ${path} answered no JSON object`);
  return body;
}
