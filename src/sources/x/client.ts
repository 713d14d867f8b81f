/**
 * X's web GraphQL API, in two modes (notes §4):
 * - anonymous: a guest token (POST api.x.com/1.1/guest/activate.json with the web app's public bearer), then
 *   `TweetResultByRestId` on api.x.com: one post, no replies;
 * - an operator's logged-in session (settings AUTH_TOKEN + CT0, the `auth_token` and `ct0` cookies of an X account):
 *   `TweetDetail` (the post, its replies and a cursor) and `SearchTimeline` on x.com/i/api/graphql.
 * Query ids rotate with X's web releases: each is a setting with a default, as is the feature-flag set (FEATURES,
 * a JSON object merged over the defaults). Without a session, replies and search answer `sourceUnavailable`.
 */
import { createHash } from 'node:crypto';
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import type { SourceContext } from '../types.js';

/**
 * The bearer of X's own web app, published in its JavaScript and sent by every browser on x.com; not an account
 * credential. A setting (BEARER_TOKEN), for the day X rotates it.
 */
const WEB_BEARER =
  'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA';

/** Query ids as X's web app sent them at the time of writing (twscrape, the-convocation/twitter-scraper). */
export const DEFAULT_QUERY_IDS = {
  TweetDetail: 'GtcBtFhtQymrpxAs5MALVA',
  SearchTimeline: 'jiR2G5DAUAraqAYpcg9O-g',
  TweetResultByRestId: 'zAz9764BcLZOJ0JU2wrd1A',
} as const;
type Operation = keyof typeof DEFAULT_QUERY_IDS;
const QUERY_ID_SETTING: Record<Operation, string> = {
  TweetDetail: 'TWEET_DETAIL_QUERY_ID',
  SearchTimeline: 'SEARCH_QUERY_ID',
  TweetResultByRestId: 'TWEET_RESULT_QUERY_ID',
};

/** The feature flags X's web app sends with these queries; X answers 400 naming any it requires and misses. */
export const DEFAULT_FEATURES: Readonly<Record<string, boolean>> = {
  articles_preview_enabled: false,
  c9s_tweet_anatomy_moderator_badge_enabled: true,
  communities_web_enable_tweet_community_results_fetch: true,
  creator_subscriptions_quote_tweet_preview_enabled: false,
  creator_subscriptions_tweet_preview_api_enabled: true,
  freedom_of_speech_not_reach_fetch_enabled: true,
  graphql_is_translatable_rweb_tweet_is_translatable_enabled: true,
  longform_notetweets_consumption_enabled: true,
  longform_notetweets_inline_media_enabled: true,
  longform_notetweets_rich_text_read_enabled: true,
  premium_content_api_read_enabled: false,
  profile_label_improvements_pcf_label_in_post_enabled: false,
  responsive_web_edit_tweet_api_enabled: true,
  responsive_web_enhance_cards_enabled: false,
  responsive_web_graphql_exclude_directive_enabled: true,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  responsive_web_graphql_timeline_navigation_enabled: true,
  responsive_web_grok_analyze_button_fetch_trends_enabled: false,
  responsive_web_grok_analyze_post_followups_enabled: false,
  responsive_web_grok_share_attachment_enabled: false,
  responsive_web_media_download_video_enabled: false,
  responsive_web_twitter_article_tweet_consumption_enabled: true,
  rweb_tipjar_consumption_enabled: true,
  rweb_video_timestamps_enabled: true,
  standardized_nudges_misinfo: true,
  tweet_awards_web_tipping_enabled: false,
  tweet_with_visibility_results_prefer_gql_limited_actions_policy_enabled: true,
  tweet_with_visibility_results_prefer_gql_media_interstitial_enabled: false,
  tweetypie_unmention_optimization_enabled: true,
  verified_phone_label_enabled: false,
  view_counts_everywhere_api_enabled: true,
};

const GUEST_ACTIVATE = 'https://api.x.com/1.1/guest/activate.json';
const GUEST_GRAPHQL = 'https://api.x.com/graphql';
const SESSION_GRAPHQL = 'https://x.com/i/api/graphql';
/** Guest tokens live a few hours; renew well before. */
const GUEST_TOKEN_TTL_MS = 60 * 60 * 1000;

const notConfigured = (what: string) =>
  new QuarryError(
    'sourceUnavailable',
    `x: ${what} need an X session on this server: the operator sets QUARRY_X_AUTH_TOKEN and QUARRY_X_CT0 (the auth_token and ct0 cookies of an X account)`,
    { retryable: false },
  );

export interface Session {
  authToken: string;
  ct0: string;
}

/** The operator's X session, when both cookies are configured. */
export function sessionOf(ctx: SourceContext): Session | undefined {
  const authToken = ctx.settings.AUTH_TOKEN?.trim();
  const ct0 = ctx.settings.CT0?.trim();
  return authToken && ct0 ? { authToken, ct0 } : undefined;
}

/** The session, or `sourceUnavailable` naming the settings that give one. */
export function needSession(ctx: SourceContext, what: string): Session {
  const session = sessionOf(ctx);
  if (!session) throw notConfigured(what);
  return session;
}

const TWEET_ID = /^[0-9]{1,20}$/;
const X_HOST = /(^|\.)(x|twitter)\.com$/i;

/** A post id from `1790000000000000000` or any x.com / twitter.com address of it (`/{user}/status/{id}`, `/i/web/status/{id}`). */
export function postId(input: string): string {
  const bare = input.trim();
  if (TWEET_ID.test(bare)) return bare;
  const bad = () => new QuarryError('invalidRequest', 'post: not an X post id or address', { retryable: false });
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(bare) ? bare : `https://${bare}`;
  if (!URL.canParse(withScheme)) throw bad();
  const url = new URL(withScheme);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !X_HOST.test(url.hostname)) throw bad();
  const parts = url.pathname.split('/').filter(Boolean);
  const at = parts.findIndex((p) => p === 'status' || p === 'statuses');
  const id = at >= 0 ? parts[at + 1] : undefined;
  if (!id || !TWEET_ID.test(id)) throw bad();
  return id;
}

/** Our cursor is X's own continuation token; an optional `<digits>~` prefix (SPEC's form) carries nothing here. */
export const upstreamCursor = (cursor: string): string => cursor.replace(/^[0-9]*~/, '');

function features(ctx: SourceContext): Record<string, boolean> {
  const raw = ctx.settings.FEATURES;
  if (!raw) return { ...DEFAULT_FEATURES };
  let extra: unknown;
  try {
    extra = JSON.parse(raw);
  } catch {
    extra = undefined;
  }
  if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
    throw new QuarryError('sourceUnavailable', 'x: QUARRY_X_FEATURES is not a JSON object of feature flags', { retryable: false });
  }
  return { ...DEFAULT_FEATURES, ...(extra as Record<string, boolean>) };
}

const queryId = (ctx: SourceContext, op: Operation): string => ctx.settings[QUERY_ID_SETTING[op]]?.trim() || DEFAULT_QUERY_IDS[op];
const bearer = (ctx: SourceContext): string => ctx.settings.BEARER_TOKEN?.trim() || WEB_BEARER;

function graphqlUrl(base: string, ctx: SourceContext, op: Operation, variables: Record<string, unknown>): string {
  const query = new URLSearchParams({ variables: JSON.stringify(variables), features: JSON.stringify(features(ctx)) });
  return `${base}/${encodeURIComponent(queryId(ctx, op))}/${op}?${query}`;
}

/** Statuses X uses for "this session/token is not good" and "unknown query id", read here rather than mapped generically. */
const PASS = [400, 401, 404];

/** A GraphQL answer's body, or the error its status means. */
function graphqlAnswer(res: UpstreamResponse, op: Operation, who: 'session' | 'guest'): unknown {
  if (res.status === 401) {
    throw new QuarryError('sourceRefused', who === 'session' ? 'x: the configured X session was refused (logged out or expired)' : 'x: the guest token was refused');
  }
  if (res.status === 404) {
    throw new QuarryError('sourceChanged', `x: X does not know the ${op} query id (rotated?); set QUARRY_X_${QUERY_ID_SETTING[op]}`);
  }
  if (res.status === 400) {
    const text = res.text().slice(0, 300);
    throw new QuarryError('sourceChanged', `x: X refused the ${op} query as malformed (its feature flags or variables changed): ${text}`);
  }
  return res.json();
}

function sessionHeaders(ctx: SourceContext, session: Session): Record<string, string> {
  return {
    accept: '*/*',
    authorization: `Bearer ${bearer(ctx)}`,
    cookie: `auth_token=${session.authToken}; ct0=${session.ct0}`,
    'x-csrf-token': session.ct0,
    'x-twitter-auth-type': 'OAuth2Session',
    'x-twitter-active-user': 'yes',
    'x-twitter-client-language': 'en',
    referer: 'https://x.com/',
  };
}

/** TweetDetail's variables: the post, and the continuation of its replies. */
export function tweetDetailVariables(id: string, cursor?: string): Record<string, unknown> {
  return {
    focalTweetId: id,
    ...(cursor ? { cursor } : {}),
    referrer: 'tweet',
    with_rux_injections: false,
    includePromotedContent: false,
    withCommunity: true,
    withQuickPromoteEligibilityTweetFields: false,
    withBirdwatchNotes: true,
    withVoice: true,
    withV2Timeline: true,
  };
}

/** The post with its replies (session only). */
export async function fetchTweetDetail(id: string, cursor: string | undefined, ctx: SourceContext, session: Session): Promise<unknown> {
  const res = await ctx.http.request(
    { url: graphqlUrl(SESSION_GRAPHQL, ctx, 'TweetDetail', tweetDetailVariables(id, cursor)), headers: sessionHeaders(ctx, session), passStatuses: PASS },
    ctx.signal,
  );
  return graphqlAnswer(res, 'TweetDetail', 'session');
}

/** SearchTimeline's variables: the latest posts, as many as asked (X pages by 20). */
export function searchVariables(query: string, count: number): Record<string, unknown> {
  return { rawQuery: query, count, querySource: 'typed_query', product: 'Latest' };
}

/** The most recent posts matching a query (session only). */
export async function fetchSearch(query: string, count: number, ctx: SourceContext, session: Session): Promise<unknown> {
  const res = await ctx.http.request(
    { url: graphqlUrl(SESSION_GRAPHQL, ctx, 'SearchTimeline', searchVariables(query, count)), headers: sessionHeaders(ctx, session), passStatuses: PASS },
    ctx.signal,
  );
  return graphqlAnswer(res, 'SearchTimeline', 'session');
}

interface GuestToken {
  token: string;
  expiresAt: number;
}

/** Process-wide: calls share one guest token per bearer until it is refused or ages out. */
const guestTokens = new Map<string, Promise<GuestToken>>();

async function guestToken(ctx: SourceContext, stale?: string): Promise<string> {
  const key = createHash('sha256').update(bearer(ctx)).digest('hex');
  const cached = guestTokens.get(key);
  if (cached) {
    const t = await cached.catch(() => undefined);
    if (t && t.token !== stale && t.expiresAt > Date.now()) return t.token;
    if (guestTokens.get(key) === cached) guestTokens.delete(key);
    else return guestToken(ctx, stale);
  }
  const pending = activate(ctx);
  guestTokens.set(key, pending);
  pending.catch(() => {
    if (guestTokens.get(key) === pending) guestTokens.delete(key);
  });
  return (await pending).token;
}

async function activate(ctx: SourceContext): Promise<GuestToken> {
  // No caller signal: the token is shared, one caller going away must not fail the others (the timeout bounds it).
  const res = await ctx.http.request({
    url: GUEST_ACTIVATE,
    method: 'POST',
    idempotent: true,
    headers: { authorization: `Bearer ${bearer(ctx)}`, accept: 'application/json' },
    passStatuses: [401],
  });
  if (res.status === 401) throw new QuarryError('sourceRefused', 'x: X refused to open a guest session (the web bearer changed? set QUARRY_X_BEARER_TOKEN)');
  const body = res.json<Record<string, unknown>>();
  const token = body?.guest_token;
  if (typeof token !== 'string' || !/^[0-9]{1,40}$/.test(token)) throw new QuarryError('sourceChanged', 'x: guest activation answered without a guest_token');
  return { token, expiresAt: Date.now() + GUEST_TOKEN_TTL_MS };
}

/** TweetResultByRestId's variables: the one post. */
export function tweetResultVariables(id: string): Record<string, unknown> {
  return { tweetId: id, withCommunity: false, includePromotedContent: false, withVoice: false };
}

/** One post without a session: a guest token, then TweetResultByRestId (a refused token is replaced once). */
export async function fetchTweetAnonymously(id: string, ctx: SourceContext): Promise<unknown> {
  const url = graphqlUrl(GUEST_GRAPHQL, ctx, 'TweetResultByRestId', tweetResultVariables(id));
  const send = async (token: string) =>
    ctx.http.request(
      { url, headers: { accept: '*/*', authorization: `Bearer ${bearer(ctx)}`, 'x-guest-token': token }, passStatuses: [...PASS, 403] },
      ctx.signal,
    );
  const first = await guestToken(ctx);
  let res = await send(first);
  if (res.status === 401 || res.status === 403) res = await send(await guestToken(ctx, first));
  if (res.status === 403) throw new QuarryError('sourceRefused', 'x: X refused the guest request (HTTP 403)');
  return graphqlAnswer(res, 'TweetResultByRestId', 'guest');
}
