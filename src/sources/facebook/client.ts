/**
 * Meta's Ad Library API (`GET graph.facebook.com/{version}/ads_archive`, documented at
 * https://developers.facebook.com/docs/graph-api/reference/ads_archive/), with the operator's token
 * (QUARRY_FACEBOOK_ACCESS_TOKEN, an identity-confirmed developer's). The token travels in the Authorization header,
 * never in an address, so no URL Meta answers (`paging.next`, snapshot links) carries it. Graph errors are read
 * from their documented envelope (https://developers.facebook.com/docs/graph-api/guides/error-handling).
 */
import type { FACEBOOK } from '../../catalogue/endpoints/facebook.js';
import type { InputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { isObj, obj, str } from '../kit/read.js';
import type { SourceContext } from '../types.js';

export type AdsQuery = Omit<InputOf<typeof FACEBOOK.adsSearch>, 'query'> & { query?: string };

const GRAPH = 'https://graph.facebook.com';
/** The Graph API version asked when QUARRY_FACEBOOK_API_VERSION is not set. */
export const DEFAULT_API_VERSION = 'v24.0';
const TOKEN_SETTING = 'QUARRY_FACEBOOK_ACCESS_TOKEN';
const ANSWER_MAX_BYTES = 8 * 1024 * 1024;
/** Ads asked per Graph page. */
export const GRAPH_PAGE = 100;

/** Every documented field of an archived ad that the record reads (`ad_snapshot_url` left out: it carries a token). */
export const AD_FIELD_LIST = [
  'id', 'ad_creation_time', 'ad_creative_bodies', 'ad_creative_link_captions', 'ad_creative_link_descriptions',
  'ad_creative_link_titles', 'ad_delivery_start_time', 'ad_delivery_stop_time', 'age_country_gender_reach_breakdown',
  'beneficiary_payers', 'bylines', 'currency', 'delivery_by_region', 'demographic_distribution', 'estimated_audience_size',
  'eu_total_reach', 'impressions', 'languages', 'page_id', 'page_name', 'publisher_platforms', 'spend', 'target_ages',
  'target_gender', 'target_locations',
].join(',');

const STATUS = { active: 'ACTIVE', inactive: 'INACTIVE', all: 'ALL' } as const;
const AD_TYPE = { all: 'ALL', politicalAndIssue: 'POLITICAL_AND_ISSUE_ADS' } as const;
const MEDIA = { all: 'ALL', image: 'IMAGE', video: 'VIDEO', meme: 'MEME', none: 'NONE' } as const;
const PLATFORM = { facebook: 'FACEBOOK', instagram: 'INSTAGRAM', messenger: 'MESSENGER', audienceNetwork: 'AUDIENCE_NETWORK' } as const;

/** Graph's list parameters as Meta's own examples write them: `['US']`. */
const graphList = (values: readonly string[]): string => `[${values.map((v) => `'${v}'`).join(',')}]`;

function settingsOf(ctx: SourceContext): { token: string; version: string } {
  const token = ctx.settings.ACCESS_TOKEN;
  if (!token) {
    throw new QuarryError('sourceUnavailable', `facebook: the ad library needs an access token; the operator has not set ${TOKEN_SETTING}`, {
      retryable: false,
    });
  }
  const version = ctx.settings.API_VERSION || DEFAULT_API_VERSION;
  if (!/^v\d{1,3}\.\d{1,2}$/.test(version)) {
    throw new QuarryError('sourceUnavailable', 'facebook: QUARRY_FACEBOOK_API_VERSION is not a Graph API version such as v24.0', { retryable: false });
  }
  return { token, version };
}

/** The `ads_archive` query of one page of a search (`search_terms`) or of a page's ads (`pageId`). */
export function archiveParams(q: AdsQuery, pageId: string | undefined, limit: number, after?: string): URLSearchParams {
  const p = new URLSearchParams();
  if (q.query) p.set('search_terms', q.query);
  if (pageId) p.set('search_page_ids', graphList([pageId]));
  p.set('ad_reached_countries', graphList([q.country.toUpperCase()]));
  p.set('ad_active_status', STATUS[q.status]);
  p.set('ad_type', AD_TYPE[q.adType]);
  if (q.mediaType !== 'all') p.set('media_type', MEDIA[q.mediaType]);
  if (q.platforms.length) p.set('publisher_platforms', graphList(q.platforms.map((x) => PLATFORM[x])));
  if (q.from) p.set('ad_delivery_date_min', q.from);
  if (q.to) p.set('ad_delivery_date_max', q.to);
  // Graph takes ISO 639-1 codes: the tag's primary subtag.
  if (q.language) p.set('languages', graphList([q.language.split(/[-_]/)[0].toLowerCase()]));
  p.set('fields', AD_FIELD_LIST);
  p.set('limit', String(limit));
  if (after) p.set('after', after);
  return p;
}

async function graphGet(ctx: SourceContext, path: string, params: URLSearchParams, what: string): Promise<unknown> {
  const { token, version } = settingsOf(ctx);
  const res = await ctx.http.request(
    {
      url: `${GRAPH}/${version}/${path}?${params}`,
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
      maxBytes: ANSWER_MAX_BYTES,
      passStatuses: [400, 401, 403, 404],
    },
    ctx.signal,
  );
  const body = parse(res);
  const error = obj(obj(body)?.error);
  if (error || res.status !== 200) throw graphError(error, res.status, what);
  return body;
}

function parse(res: UpstreamResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return undefined;
  }
}

const RATE_LIMITS = new Set([4, 17, 32, 613]);
const TOKEN_CODES = new Set([102, 190, 463, 467]);

/** A Graph error envelope as the failure CONTRACT.md names; Meta's message is passed on (bounded), never the token. */
export function graphError(error: Record<string, unknown> | undefined, status: number, what: string): QuarryError {
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const subcode = typeof error?.error_subcode === 'number' ? error.error_subcode : undefined;
  const said = (str(error?.message) ?? `HTTP ${status}`).slice(0, 300);
  if (code === undefined) return new QuarryError('sourceUnavailable', `facebook: the Graph API answered HTTP ${status} without an error`);
  if (TOKEN_CODES.has(code)) {
    return new QuarryError('sourceUnavailable', `facebook: Meta refused ${TOKEN_SETTING} (expired or invalid): ${said}`, { retryable: false });
  }
  if (code === 10 || (code >= 200 && code < 300)) {
    return new QuarryError('sourceUnavailable', `facebook: the app of ${TOKEN_SETTING} lacks Ad Library API access: ${said}`, { retryable: false });
  }
  if (RATE_LIMITS.has(code) || (code >= 80000 && code < 80100)) return new QuarryError('sourceRefused', `facebook: Meta is throttling us: ${said}`);
  if (code === 803 || (code === 100 && subcode === 33)) return new QuarryError('notFound', `${what}: not found in Meta's Graph API`);
  if (code === 100) return new QuarryError('invalidRequest', `${what}: Meta's Ad Library refused the search: ${said}`, { retryable: false });
  if (code === 1 || code === 2) return new QuarryError('sourceUnavailable', `facebook: Meta answered a temporary error: ${said}`);
  return new QuarryError('sourceUnavailable', `facebook: the Graph API answered error ${code}: ${said}`);
}

/** One page of `ads_archive`. */
export async function archivePage(q: AdsQuery, pageId: string | undefined, limit: number, after: string | undefined, ctx: SourceContext): Promise<unknown> {
  return graphGet(ctx, 'ads_archive', archiveParams(q, pageId, limit, after), q.query ? 'query' : 'page');
}

/** A page's numeric id from its username (`nike`): the Graph Page node read by its alias. */
export async function pageIdOf(username: string, ctx: SourceContext): Promise<string> {
  const body = await graphGet(ctx, encodeURIComponent(username), new URLSearchParams({ fields: 'id,name' }), 'page');
  const id = isObj(body) ? str(body.id) : undefined;
  if (!id || !/^\d{1,25}$/.test(id)) throw new QuarryError('sourceChanged', 'facebook: the page look-up answered without a numeric id');
  return id;
}

/**
 * One archived ad read as a Graph object by its Library ID (`GET /{version}/{id}?fields=…`, the Archived Ad node of
 * https://developers.facebook.com/docs/graph-api/reference/archived-ad/). Meta does not serve every ad this way: for
 * one it does not, Graph answers its "Unsupported get request" (code 100, subcode 33), which is `notFound` here.
 */
export async function archivedAd(id: string, ctx: SourceContext): Promise<Record<string, unknown>> {
  const body = await graphGet(ctx, id, new URLSearchParams({ fields: AD_FIELD_LIST }), 'ad');
  if (!isObj(body)) throw new QuarryError('sourceChanged', 'facebook: the archived ad answer is not an object');
  return body;
}
