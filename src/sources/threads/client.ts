/**
 * The official Threads API (graph.threads.net, documented at developers.facebook.com/docs/threads): profile discovery
 * (`/profile_lookup`, `/profile_posts`, permission `threads_profile_discovery`), a media object (`/{id}`) and keyword
 * search (`/keyword_search`, permission `threads_keyword_search`). Every call needs the operator's access token
 * (QUARRY_THREADS_ACCESS_TOKEN), sent in the Authorization header and never in an address. Threads' public pages are
 * not read: no recording or documentation of their data exists.
 */
import { QuarryError } from '../../errors.js';
import { obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const API = 'https://graph.threads.net';
export const TOKEN_SETTING = 'QUARRY_THREADS_ACCESS_TOKEN';
const DEFAULT_VERSION = 'v1.0';

/** The media fields a post read asks for: the documented fields of a user's posts (`owner` is only for the token's own). */
export const POST_FIELDS = [
  'id', 'media_product_type', 'media_type', 'media_url', 'permalink', 'username', 'text', 'timestamp', 'shortcode',
  'thumbnail_url', 'children{id,media_type,media_url,thumbnail_url,alt_text}', 'is_quote_post', 'quoted_post',
  'reposted_post', 'alt_text', 'link_attachment_url', 'gif_url', 'topic_tag', 'is_verified', 'profile_picture_url',
].join(',');
/** Keyword search documents two more: whether a post is a reply, and whether it has replies. */
export const SEARCH_FIELDS = `${POST_FIELDS},has_replies,is_reply`;

const RATE_LIMITS = new Set([4, 17, 32, 613]);
const TOKEN_CODES = new Set([102, 190, 463, 467]);

function mapError(body: Obj | undefined, status: number, what: string, permission: string): QuarryError {
  const error = obj(body?.error);
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const subcode = typeof error?.error_subcode === 'number' ? error.error_subcode : undefined;
  const said = str(error?.message) ?? `HTTP ${status}`;
  if (code === undefined) {
    if (status === 404) return new QuarryError('notFound', `threads: ${what}`);
    return new QuarryError('sourceUnavailable', `threads: the Threads API answered HTTP ${status} without an error`);
  }
  if (TOKEN_CODES.has(code)) return new QuarryError('sourceUnavailable', `threads: Meta refused ${TOKEN_SETTING} (expired or invalid): ${said}`, { retryable: false });
  if (code === 10 || (code >= 200 && code < 300)) {
    return new QuarryError('sourceUnavailable', `threads: the app of ${TOKEN_SETTING} lacks the ${permission} permission: ${said}`, { retryable: false });
  }
  if (RATE_LIMITS.has(code)) return new QuarryError('sourceRefused', `threads: Meta is throttling us: ${said}`);
  if (code === 803 || (code === 100 && (subcode === 33 || /does not exist|cannot be loaded|not found/i.test(said)))) return new QuarryError('notFound', `threads: ${what}`);
  if (code === 1 || code === 2) return new QuarryError('sourceUnavailable', `threads: Meta answered a temporary error: ${said}`);
  return new QuarryError('sourceUnavailable', `threads: the Threads API answered error ${code}: ${said}`);
}

/** One Threads API GET; `missing` names what a "does not exist" answer means. */
export async function threadsGet(path: string, params: Record<string, string>, ctx: SourceContext, what: string, permission = 'threads_basic'): Promise<Obj> {
  const token = ctx.settings.ACCESS_TOKEN;
  if (!token) throw new QuarryError('sourceUnavailable', `threads: the Threads API needs an access token; the operator has not set ${TOKEN_SETTING}`, { retryable: false });
  const version = ctx.settings.API_VERSION || DEFAULT_VERSION;
  if (!/^v[0-9]{1,2}\.[0-9]{1,2}$/.test(version)) throw new QuarryError('sourceUnavailable', 'threads: QUARRY_THREADS_API_VERSION is not a version such as v1.0', { retryable: false });
  const res = await ctx.http.request(
    { url: `${API}/${version}${path}?${new URLSearchParams(params)}`, headers: { accept: 'application/json', authorization: `Bearer ${token}` }, passStatuses: [400, 401, 403, 404] },
    ctx.signal,
  );
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    throw new QuarryError('sourceChanged', 'threads: the Threads API did not answer JSON');
  }
  const b = obj(body);
  if (res.status !== 200 || obj(b?.error)) throw mapError(b, res.status, what, permission);
  if (!b) throw new QuarryError('sourceChanged', 'threads: the Threads API answered something other than an object');
  return b;
}
