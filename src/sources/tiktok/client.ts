/**
 * TikTok, as its web app asks for it:
 * - profile and video pages (`www.tiktok.com/@user`, `/@user/video/{id}`) carry their data in the
 *   `__UNIVERSAL_DATA_FOR_REHYDRATION__` script: keyless. A walled video page falls back to the keyless oEmbed.
 * - the lists (`/api/post/item_list/`, `/api/comment/list/`, `/api/search/item/full/`, `/api/recommend/item_list/`)
 *   and the ad library (`library.tiktok.com/api/v1/search`) answer signed requests only (./signer.ts); unsigned, they
 *   answer an empty body, which is a refusal, never an empty list.
 */
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { scriptJsonById } from '../kit/embedded.js';
import { obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';
import { sign, type Unsigned } from './signer.js';

const WEB = 'https://www.tiktok.com';
const LIBRARY = 'https://library.tiktok.com';

/** The web app's own client parameters, sent with every API call. */
const WEB_PARAMS = {
  aid: '1988',
  app_name: 'tiktok_web',
  app_language: 'en',
  browser_language: 'en-US',
  channel: 'tiktok_web',
  device_platform: 'web_pc',
} as const;

const refused = (message: string) => new QuarryError('sourceRefused', `tiktok: ${message}`);

async function page(url: string, ctx: SourceContext): Promise<UpstreamResponse> {
  return ctx.http.request({ url, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' }, passStatuses: [404] }, ctx.signal);
}

/** One scope of the page's rehydration data, with its `statusCode`; a page without the data is a wall or drift. */
function scope(res: UpstreamResponse, name: string, missing: string): Obj {
  if (res.status === 404) throw new QuarryError('notFound', `tiktok: ${missing}`);
  const html = res.text();
  const data = obj(scriptJsonById(html, '__UNIVERSAL_DATA_FOR_REHYDRATION__'));
  if (!data) {
    if (/captcha|verify|tiktok-verify-page|_wafchallengeid/i.test(html.slice(0, 200_000))) throw refused('TikTok answered its verification page');
    throw new QuarryError('sourceChanged', 'tiktok: the page carries no __UNIVERSAL_DATA_FOR_REHYDRATION__');
  }
  const s = obj(obj(data.__DEFAULT_SCOPE__)?.[name]);
  if (!s) throw new QuarryError('sourceChanged', `tiktok: the page carries no ${name}`);
  return s;
}

/** `userInfo` of an account's page. */
export async function fetchProfilePage(username: string, ctx: SourceContext): Promise<Obj> {
  const missing = `no such account @${username}`;
  const s = scope(await page(`${WEB}/@${encodeURIComponent(username)}`, ctx), 'webapp.user-detail', missing);
  const info = obj(s.userInfo);
  if (!info || !obj(info.user) || Object.keys(obj(info.user)!).length === 0) {
    throw new QuarryError('notFound', `tiktok: ${missing} (TikTok status ${String(s.statusCode ?? '?')}${str(s.statusMsg) ? `: ${str(s.statusMsg)}` : ''})`);
  }
  return info;
}

/** `itemInfo.itemStruct` of a video's page. */
export async function fetchVideoPage(username: string, id: string, ctx: SourceContext): Promise<Obj> {
  const missing = `no such video ${id}`;
  const s = scope(await page(`${WEB}/@${encodeURIComponent(username)}/video/${id}`, ctx), 'webapp.video-detail', missing);
  const item = obj(obj(s.itemInfo)?.itemStruct);
  if (!item) throw new QuarryError('notFound', `tiktok: ${missing} (TikTok status ${String(s.statusCode ?? '?')}${str(s.statusMsg) ? `: ${str(s.statusMsg)}` : ''})`);
  return item;
}

/** TikTok's keyless oEmbed answer for a video address. */
export async function fetchOembed(videoUrl: string, ctx: SourceContext): Promise<Obj> {
  const res = await ctx.http.request({ url: `${WEB}/oembed?url=${encodeURIComponent(videoUrl)}&format=json`, headers: { accept: 'application/json' }, passStatuses: [400, 404] }, ctx.signal);
  if (res.status !== 200) throw new QuarryError('notFound', `tiktok: no such video ${videoUrl}`);
  const body = obj(res.json());
  if (!body) throw new QuarryError('sourceChanged', 'tiktok: oEmbed answer is not an object');
  return body;
}

/** Where a short link (vm.tiktok.com/…) leads. */
export async function resolveShortLink(url: string, ctx: SourceContext): Promise<string> {
  const res = await ctx.http.request({ url, headers: { accept: 'text/html' }, passStatuses: [404] }, ctx.signal);
  if (res.status === 404) throw new QuarryError('notFound', `tiktok: the short link ${url} leads nowhere`);
  return res.url;
}

/** A signed web-API call; an empty body is TikTok refusing the signature, a non-zero status_code its own error. */
async function signedJson(req: Unsigned, ctx: SourceContext, what: string): Promise<Obj> {
  const signed = await sign(req, ctx, what);
  const res = await ctx.http.request(
    { url: signed.url, method: signed.method, headers: signed.headers, body: signed.body, idempotent: true, passStatuses: [401, 403, 404] },
    ctx.signal,
  );
  if (res.status === 401 || res.status === 403) throw refused(`TikTok refused the signed request (HTTP ${res.status})`);
  if (res.status === 404) throw new QuarryError('notFound', `tiktok: nothing at ${new URL(signed.url).pathname}`);
  if (res.body.length === 0 || res.text().trim() === '') throw refused('TikTok answered an empty body (the signature or msToken was not accepted)');
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    if ((res.headers['content-type'] ?? '').includes('html')) throw refused('TikTok answered a web page instead of data (a verification wall)');
    throw new QuarryError('sourceChanged', `tiktok: ${what} answer is not JSON`);
  }
  const b = obj(body);
  if (!b) throw new QuarryError('sourceChanged', `tiktok: ${what} answer is not an object`);
  return b;
}

function apiRequest(path: string, params: Record<string, string>): Unsigned {
  const q = new URLSearchParams({ ...WEB_PARAMS, ...params });
  return { url: `${WEB}${path}?${q}`, method: 'GET', headers: { accept: 'application/json', referer: `${WEB}/` } };
}

/** TikTok's own status for an API answer: 0 is success. */
function checkStatus(b: Obj, what: string, missing: string): Obj {
  const code = b.statusCode ?? b.status_code;
  if (code === undefined || code === 0 || code === '0') return b;
  const message = str(b.statusMsg) ?? str(b.status_msg) ?? '';
  if (/not exist|not found|unavailable/i.test(message)) throw new QuarryError('notFound', `tiktok: ${missing}`);
  throw refused(`TikTok answered ${what} with status ${String(code)}${message ? ` (${message})` : ''}`);
}

export async function fetchPostList(secUid: string, count: number, cursor: string, ctx: SourceContext): Promise<Obj> {
  const b = await signedJson(apiRequest('/api/post/item_list/', { secUid, count: String(count), cursor }), ctx, "an account's videos");
  return checkStatus(b, "an account's videos", 'no such account');
}

export async function fetchComments(videoId: string, count: number, cursor: string, ctx: SourceContext): Promise<Obj> {
  const b = await signedJson(apiRequest('/api/comment/list/', { aweme_id: videoId, count: String(count), cursor }), ctx, 'comments');
  return checkStatus(b, 'comments', `no such video ${videoId}`);
}

export async function fetchSearch(keyword: string, count: number, cursor: string, ctx: SourceContext): Promise<Obj> {
  const b = await signedJson(apiRequest('/api/search/item/full/', { keyword, count: String(count), cursor }), ctx, 'search');
  return checkStatus(b, 'search', 'nothing');
}

export async function fetchTrending(region: string, count: number, ctx: SourceContext): Promise<Obj> {
  const b = await signedJson(apiRequest('/api/recommend/item_list/', { count: String(count), from_page: 'fyp', region }), ctx, 'the For You feed');
  return checkStatus(b, 'the For You feed', 'nothing');
}

export interface AdQuery {
  query?: string;
  region: string;
  from: number;
  to: number;
  cursor?: string;
}

/** One page of the ad library's search (12 ads; `search_id` pages, `offset` and `limit` are ignored by the library). */
export async function fetchAds(q: AdQuery, ctx: SourceContext): Promise<Obj> {
  const url = `${LIBRARY}/api/v1/search?region=${q.region}&type=1&start_time=${q.from}&end_time=${q.to}`;
  const body = JSON.stringify({
    query: q.query ?? '',
    query_type: '',
    adv_biz_ids: '',
    order: 'create_time,desc',
    offset: 0,
    search_id: q.cursor ?? '',
    limit: 12,
  });
  const signed = await sign({ url, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', referer: `${LIBRARY}/ads` }, body }, ctx, 'the ad library');
  const res = await ctx.http.request(
    { url: signed.url, method: 'POST', headers: signed.headers, body: signed.body, idempotent: true, passStatuses: [403, 421] },
    ctx.signal,
  );
  // 421 is the library's answer to a request without a valid x-ccl-str token.
  if (res.status === 421 || res.status === 403) throw refused(`the ad library refused the request (HTTP ${res.status}; the signer's token was not accepted)`);
  let b: unknown;
  try {
    b = JSON.parse(res.text());
  } catch {
    throw refused('the ad library did not answer JSON (a wall, or a region it does not serve)');
  }
  const o = obj(b);
  if (!o) throw new QuarryError('sourceChanged', 'tiktok: ad library answer is not an object');
  if (o.code !== undefined && o.code !== 0) throw refused(`the ad library answered code ${String(o.code)}${str(o.msg) ? ` (${str(o.msg)})` : ''}`);
  return o;
}
