/**
 * Instagram's answers, as its own web client asks for them:
 * - `i.instagram.com/api/v1/users/web_profile_info/` (profile and first posts) and `www.instagram.com/graphql/query/`
 *   (tagged posts, comments, hashtags, later pages of posts), with the web app's public `x-ig-app-id` header. No
 *   login is needed, but Instagram walls anonymous callers it distrusts: a session cookie (SESSION_COOKIE) gets past
 *   that, and is sent whenever the operator set one.
 * - `i.instagram.com/api/v1/media/{id}/info/` (one post) and `/api/v1/clips/user/` (reels) answer logged-in callers
 *   only: without SESSION_COOKIE they are `sourceUnavailable` naming the setting.
 * GraphQL query hashes rotate, so each is a setting with the last known value as its default.
 */
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { isObj, obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const API = 'https://i.instagram.com/api/v1';
const WEB = 'https://www.instagram.com';
/** The web app's own application id, public in every instagram.com page. */
const DEFAULT_APP_ID = '936619743392459';

/** GraphQL query hashes: the setting that overrides each, and its default (the hash the recordings answer, or the one a maintained client uses now). */
export const QUERY_HASHES = {
  timeline: { setting: 'POSTS_QUERY_HASH', value: '003056d32c2554def87228bc3fd9668a' },
  tagged: { setting: 'TAGGED_QUERY_HASH', value: 'be13233562af2d229b008d2976b998b5' },
  comments: { setting: 'COMMENTS_QUERY_HASH', value: '33ba35852cb50da46f5b5e889df7d159' },
  hashtag: { setting: 'HASHTAG_QUERY_HASH', value: '174a5243287c5f3a7de741089750ab3b' },
} as const;

const SESSION_SETTING = 'QUARRY_INSTAGRAM_SESSION_COOKIE';

function headers(ctx: SourceContext): Record<string, string> {
  const h: Record<string, string> = {
    accept: 'application/json',
    'x-ig-app-id': ctx.settings.APP_ID || DEFAULT_APP_ID,
    'x-requested-with': 'XMLHttpRequest',
    referer: `${WEB}/`,
  };
  const cookie = ctx.settings.SESSION_COOKIE;
  if (cookie) {
    h.cookie = cookie;
    const csrf = /(?:^|;\s*)csrftoken=([^;]+)/.exec(cookie)?.[1];
    if (csrf) h['x-csrftoken'] = csrf;
  }
  return h;
}

/** The reads that answer logged-in callers only. */
function requireSession(ctx: SourceContext, what: string): void {
  if (!ctx.settings.SESSION_COOKIE) {
    throw new QuarryError('sourceUnavailable', `instagram: ${what} needs a logged-in session; the operator has not set ${SESSION_SETTING}`, {
      retryable: false,
    });
  }
}

const wall = (ctx: SourceContext, what: string): QuarryError =>
  new QuarryError(
    'sourceRefused',
    `instagram: ${what}${ctx.settings.SESSION_COOKIE ? ' (the configured session was not accepted)' : `; a logged-in session (${SESSION_SETTING}) gets past it`}`,
  );

/** Instagram's answer as JSON, its walls and refusals mapped to source* errors. */
function answer(res: UpstreamResponse, ctx: SourceContext, missing: string): Obj {
  const path = new URL(res.url).pathname;
  if (/^\/(?:accounts\/login|challenge|accounts\/suspended)/.test(path)) throw wall(ctx, 'Instagram sent us to its login page');
  if (res.status === 404) throw new QuarryError('notFound', `instagram: ${missing}`);
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    body = undefined;
  }
  const b = obj(body);
  if (b?.require_login === true || res.status === 401) throw wall(ctx, 'Instagram asked for a login');
  if (res.status === 403 || res.status === 400) {
    throw wall(ctx, `Instagram refused the request (HTTP ${res.status}${str(b?.message) ? `: ${str(b?.message)}` : ''})`);
  }
  if (!b) {
    if ((res.headers['content-type'] ?? '').includes('html')) throw wall(ctx, 'Instagram answered a web page instead of data (a login or bot wall)');
    throw new QuarryError('sourceChanged', 'instagram: the answer is not JSON');
  }
  if (b.status === 'fail') throw wall(ctx, `Instagram refused the request${str(b.message) ? ` (${str(b.message)})` : ''}`);
  return b;
}

const PASS = [400, 401, 403, 404];

async function getJson(url: string, ctx: SourceContext, missing: string): Promise<Obj> {
  const res = await ctx.http.request({ url, headers: headers(ctx), passStatuses: PASS }, ctx.signal);
  return answer(res, ctx, missing);
}

/** `data.user` of web_profile_info: the profile and its first timeline page. */
export async function fetchProfile(username: string, ctx: SourceContext): Promise<Obj> {
  const body = await getJson(`${API}/users/web_profile_info/?username=${encodeURIComponent(username)}`, ctx, `no such account @${username}`);
  const data = obj(body.data);
  if (data && data.user === null) throw new QuarryError('notFound', `instagram: no such account @${username}`);
  const user = obj(data?.user);
  if (!user) throw new QuarryError('sourceChanged', 'instagram: web_profile_info without data.user');
  return user;
}

export type QueryName = keyof typeof QUERY_HASHES;

/** `data` of a web GraphQL query. */
export async function graphQuery(name: QueryName, variables: Record<string, unknown>, ctx: SourceContext, missing: string): Promise<Obj> {
  const q = QUERY_HASHES[name];
  const hash = ctx.settings[q.setting] || q.value;
  const url = `${WEB}/graphql/query/?query_hash=${encodeURIComponent(hash)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;
  const body = await getJson(url, ctx, missing);
  const data = obj(body.data);
  if (!data) throw new QuarryError('sourceChanged', `instagram: GraphQL ${name} answer without data`);
  return data;
}

/** The app API's media info of one item (`items[0]`). */
export async function fetchMedia(mediaId: string, ctx: SourceContext): Promise<unknown> {
  requireSession(ctx, 'reading one post');
  const body = await getJson(`${API}/media/${mediaId}/info/`, ctx, `no such post ${mediaId}`);
  const items = body.items;
  if (!Array.isArray(items)) throw new QuarryError('sourceChanged', 'instagram: media info without items');
  if (items.length === 0) throw new QuarryError('notFound', `instagram: no such post ${mediaId}`);
  return items[0];
}

/** A page of an account's reels (`items[].media`, `paging_info`). */
export async function fetchReels(userId: string, pageSize: number, maxId: string | undefined, ctx: SourceContext): Promise<Obj> {
  requireSession(ctx, 'reading reels');
  const form = new URLSearchParams({ target_user_id: userId, page_size: String(pageSize), include_feed_video: 'true' });
  if (maxId) form.set('max_id', maxId);
  const res = await ctx.http.request(
    {
      url: `${API}/clips/user/?hl=en`,
      method: 'POST',
      idempotent: true,
      headers: { ...headers(ctx), 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      passStatuses: PASS,
    },
    ctx.signal,
  );
  return answer(res, ctx, `no such account ${userId}`);
}

/** The search box's suggestions. */
export async function fetchSearch(query: string, ctx: SourceContext): Promise<Obj> {
  const q = new URLSearchParams({ context: 'blended', query, include_reel: 'false', search_surface: 'web_top_search' });
  const body = await getJson(`${WEB}/api/v1/web/search/topsearch/?${q}`, ctx, 'nothing');
  if (!isObj(body)) throw new QuarryError('sourceChanged', 'instagram: search answer is not an object');
  return body;
}
