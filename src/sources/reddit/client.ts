/**
 * Reddit's requests (subforum listing + about + rules, search, a post with its thread), in one of two modes:
 * - OAuth app-only (settings CLIENT_ID + CLIENT_SECRET): token from www.reddit.com, requests to oauth.reddit.com.
 *   The mode that still works from server IPs in 2026 (notes 3.2).
 * - Public JSON on www.reddit.com with `.json` suffixes: no setup, but most datacenter IPs get 403 (→ sourceRefused).
 * Hosts are the platform's own; tests and mirrors redirect them with QUARRY_UPSTREAM_OVERRIDES. The PUBLIC_URL,
 * OAUTH_URL and AUTH_URL settings remain as aliases that replace a base.
 */
import { createHash } from 'node:crypto';
import type { REDDIT } from '../../catalogue/endpoints/reddit.js';
import type { InputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import type { SourceContext } from '../types.js';
import type { UpstreamResponse } from '../../upstream/types.js';

/** The validated input of reddit.subforum; `subforum` is a name, with or without `r/`. */
export type SubforumQuery = InputOf<typeof REDDIT.subforum>;
export type SearchQuery = InputOf<typeof REDDIT.search>;
export type PostQuery = InputOf<typeof REDDIT.post>;

export interface SubforumAnswers {
  listing: unknown;
  /** The `t5` wrapper's `data`. */
  about: unknown;
  rules: unknown;
}

const DEFAULT_AUTH_URL = 'https://www.reddit.com';
const DEFAULT_OAUTH_URL = 'https://oauth.reddit.com';
const DEFAULT_PUBLIC_URL = 'https://www.reddit.com';
/** Reddit's API rules ask OAuth clients for a descriptive agent; browser-like agents get throttled there. */
const OAUTH_USER_AGENT = 'server:quarry:0.1 (self-hosted data API)';
/** Refresh this long before Reddit says the token expires. */
const TOKEN_MARGIN_MS = 60_000;
/** Reddit's "this subreddit is not available to you" reasons. */
const GONE_REASONS = new Set(['banned', 'private', 'quarantined', 'gold_only', 'gated']);

interface CachedToken {
  token: string;
  expiresAt: number;
}

/** Process-wide: every call shares one token per app until it nears expiry. */
const tokens = new Map<string, Promise<CachedToken>>();

const trimSlash = (s: string): string => s.replace(/\/+$/, '');

export function subforumName(input: string): string {
  return input.replace(/^\/?r\//i, '');
}

/** The error for a thing Reddit says is not there (or not visible: banned, private, quarantined). */
type Gone = (reason?: string) => QuarryError;

function notFound(name: string, reason?: string): QuarryError {
  return new QuarryError('notFound', `subforum: no such subforum r/${name}${reason ? ` (${reason})` : ''}`);
}

const noSuchSubforum = (name: string): Gone => (reason) => notFound(name, reason);

export async function fetchSubforum(q: SubforumQuery, ctx: SourceContext): Promise<SubforumAnswers> {
  const name = subforumName(q.subforum);
  const sub = encodeURIComponent(name);
  const sort = q.sort === 'newest' ? 'new' : q.sort;
  const listingQuery = new URLSearchParams({ limit: String(q.limit), raw_json: '1' });
  if (q.cursor) listingQuery.set('after', q.cursor);
  if (sort === 'top' || sort === 'controversial') listingQuery.set('t', q.within);

  const get = requester(ctx);
  // One failure cancels the siblings: their answers would be thrown away anyway.
  const siblings = new AbortController();
  const signal = AbortSignal.any([ctx.signal, siblings.signal]);
  const run = async (path: string, query: URLSearchParams): Promise<unknown> => {
    try {
      return answer(await get(path, query, signal), noSuchSubforum(name));
    } catch (e) {
      siblings.abort();
      throw e;
    }
  };
  const raw = new URLSearchParams({ raw_json: '1' });
  const [listing, about, rules] = await Promise.all([
    run(`/r/${sub}/${sort}`, listingQuery),
    run(`/r/${sub}/about`, raw),
    run(`/r/${sub}/about/rules`, raw),
  ]);
  return { listing: checkListing(listing, name), about: aboutData(about, name), rules };
}

type Get = (path: string, query: URLSearchParams, signal: AbortSignal) => Promise<UpstreamResponse>;

/** Statuses Reddit uses for "no such / not visible" subforums, inspected here instead of mapped generically. */
const PASS = [403, 404];

function requester(ctx: SourceContext): Get {
  const { CLIENT_ID: id, CLIENT_SECRET: secret } = ctx.settings;
  const agent = ctx.settings.USER_AGENT;
  if (!id || !secret) {
    const base = trimSlash(ctx.settings.PUBLIC_URL || DEFAULT_PUBLIC_URL);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (agent) headers['user-agent'] = agent;
    return (path, query, signal) =>
      ctx.http.request({ url: `${base}${path.replace(/\/+$/, '')}.json?${query}`, headers, passStatuses: PASS }, signal);
  }
  const authBase = trimSlash(ctx.settings.AUTH_URL || DEFAULT_AUTH_URL);
  const base = trimSlash(ctx.settings.OAUTH_URL || DEFAULT_OAUTH_URL);
  const userAgent = agent || OAUTH_USER_AGENT;
  return async (path, query, signal) => {
    const send = async (token: string): Promise<UpstreamResponse> =>
      ctx.http.request(
        {
          url: `${base}${path}?${query}`,
          headers: { accept: 'application/json', authorization: `bearer ${token}`, 'user-agent': userAgent },
          passStatuses: [...PASS, 401],
        },
        signal,
      );
    const first = await token(ctx, authBase, id, secret, userAgent);
    const res = await send(first);
    if (res.status !== 401) return res;
    // Revoked or expired early: fetch a new token once, then give up.
    const fresh = await token(ctx, authBase, id, secret, userAgent, first);
    const retried = await send(fresh);
    if (retried.status === 401) {
      throw new QuarryError('sourceRefused', 'reddit: the OAuth token was rejected twice');
    }
    return retried;
  };
}

async function token(
  ctx: SourceContext,
  authBase: string,
  id: string,
  secret: string,
  userAgent: string,
  stale?: string,
): Promise<string> {
  // Keyed by a hash so the secret is never kept as a readable map key.
  const key = createHash('sha256').update(`${authBase}\n${id}\n${secret}`).digest('hex');
  const cached = tokens.get(key);
  if (cached) {
    const t = await cached.catch(() => undefined);
    if (t && t.token !== stale && t.expiresAt > Date.now()) return t.token;
    if (tokens.get(key) === cached) tokens.delete(key);
    else return token(ctx, authBase, id, secret, userAgent, stale);
  }
  // No caller signal: the token is shared, one caller going away must not fail the others (the timeout bounds it).
  const pending = requestToken(ctx, authBase, id, secret, userAgent);
  tokens.set(key, pending);
  pending.catch(() => {
    if (tokens.get(key) === pending) tokens.delete(key);
  });
  return (await pending).token;
}

async function requestToken(
  ctx: SourceContext,
  authBase: string,
  id: string,
  secret: string,
  userAgent: string,
): Promise<CachedToken> {
  const res = await ctx.http.request(
    {
      url: `${authBase}/api/v1/access_token`,
      method: 'POST',
      idempotent: true,
      headers: {
        authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': userAgent,
      },
      body: 'grant_type=client_credentials',
      passStatuses: [400, 401],
    },
  );
  const body = res.json<Record<string, unknown>>();
  // Reddit reports bad credentials as 401, and some grant errors as 200 with an `error` member.
  if (res.status !== 200 || typeof body?.error === 'string' || typeof body?.error === 'number') {
    throw new QuarryError('sourceRefused', 'reddit: the configured OAuth app credentials were refused');
  }
  if (typeof body?.access_token !== 'string') throw new QuarryError('sourceChanged', 'reddit: token answer without access_token');
  const ttlMs = (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
  return { token: body.access_token, expiresAt: Date.now() + Math.max(0, ttlMs - TOKEN_MARGIN_MS) };
}

/** Turns 403/404 answers into notFound or sourceRefused, and redirects to subreddit search into notFound. */
function answer(res: UpstreamResponse, gone: Gone): unknown {
  // Unknown names are redirected to the subreddit search on www.reddit.com.
  if (new URL(res.url).pathname.startsWith('/subreddits/search')) throw gone();
  if (res.status === 404 || res.status === 403) {
    let reason: unknown;
    try {
      reason = (JSON.parse(res.text()) as { reason?: unknown })?.reason;
    } catch {
      reason = undefined;
    }
    if (typeof reason === 'string' && GONE_REASONS.has(reason)) throw gone(reason);
    if (res.status === 404) throw gone();
    throw new QuarryError('sourceRefused', 'reddit: upstream refused the request (HTTP 403)');
  }
  return res.json();
}

/** A Listing of subreddits (t5) instead of posts is Reddit's search answer for a name that does not exist. */
function checkListing(listing: unknown, name: string): unknown {
  const children = (listing as { data?: { children?: unknown } })?.data?.children;
  if (Array.isArray(children) && children.length > 0 && children.every((c) => (c as { kind?: unknown })?.kind === 't5')) {
    throw notFound(name);
  }
  return listing;
}

function aboutData(about: unknown, name: string): unknown {
  const kind = (about as { kind?: unknown })?.kind;
  if (kind === 't5') return (about as { data?: unknown }).data;
  // An unknown name can answer `about` with an (empty) Listing instead of a t5.
  if (kind === 'Listing') throw notFound(name);
  throw new QuarryError('sourceChanged', 'reddit: subreddit about answer is not a t5');
}

/** One GET through the mode's requester, its 403/404 answers mapped by `gone`. */
async function getOne(path: string, query: URLSearchParams, ctx: SourceContext, gone: Gone): Promise<unknown> {
  return answer(await requester(ctx)(path, query, ctx.signal), gone);
}

const SEARCH_TYPES = { posts: 'link', subforums: 'sr', users: 'user' } as const;
const SEARCH_SORTS = { relevance: 'relevance', hot: 'hot', top: 'top', newest: 'new', mostComments: 'comments' } as const;
/** The fullname prefix of each result type: a page's cursor is its last result's fullname (Reddit's `after`). */
export const SEARCH_KINDS = { posts: 't3', subforums: 't5', users: 't2' } as const;

/** GET /search (or /r/{sub}/search restricted to it): a Listing of t3, t5 or t2 children. */
export async function fetchSearch(q: SearchQuery, ctx: SourceContext): Promise<unknown> {
  if (q.subforum && q.type !== 'posts') {
    throw new QuarryError('invalidRequest', 'subforum: a search within a subreddit finds posts only (type posts)', { retryable: false });
  }
  if (q.cursor && !new RegExp(`^${SEARCH_KINDS[q.type]}_[a-z0-9]{1,16}$`).test(q.cursor)) {
    throw new QuarryError('invalidRequest', `cursor: not a cursor of a reddit.search page of ${q.type}`, { retryable: false });
  }
  const query = new URLSearchParams({ q: q.query, type: SEARCH_TYPES[q.type], limit: String(q.limit), raw_json: '1' });
  if (q.type === 'posts') {
    query.set('sort', SEARCH_SORTS[q.sort]);
    query.set('t', q.within);
  }
  if (q.includeNsfw) query.set('include_over_18', 'on');
  if (q.cursor) query.set('after', q.cursor);
  if (!q.subforum) return getOne('/search', query, ctx, () => new QuarryError('sourceChanged', 'reddit: /search answered 404'));
  const name = subforumName(q.subforum);
  query.set('restrict_sr', '1');
  return getOne(`/r/${encodeURIComponent(name)}/search`, query, ctx, noSuchSubforum(name));
}

const THREAD_SORTS = { best: 'confidence', top: 'top', newest: 'new', controversial: 'controversial', oldest: 'old', qa: 'qa' } as const;
const REDDIT_HOST = /(^|\.)reddit\.com$/i;
const POST_ID = /^[a-z0-9]{1,16}$/;

/**
 * The base-36 id of a post from what a caller may paste: `1abcde`, `t3_1abcde`, a reddit.com address of the post
 * (any subdomain, with or without scheme, `/r/{sub}/comments/{id}/…`, `/comments/{id}`, `/user/{u}/comments/{id}`)
 * or a redd.it short link. Share links (`/r/{sub}/s/{code}`) need a redirect Quarry does not follow.
 */
export function postId(input: string): string {
  const bare = input.trim().replace(/^t3_/i, '');
  if (POST_ID.test(bare.toLowerCase())) return bare.toLowerCase();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(bare) ? bare : `https://${bare}`;
  const bad = () => new QuarryError('invalidRequest', 'post: not a Reddit post id or address', { retryable: false });
  if (!URL.canParse(withScheme)) throw bad();
  const url = new URL(withScheme);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw bad();
  const parts = url.pathname.split('/').filter(Boolean);
  if (url.hostname.toLowerCase() === 'redd.it' && parts.length === 1 && POST_ID.test(parts[0].toLowerCase())) {
    return parts[0].toLowerCase();
  }
  if (!REDDIT_HOST.test(url.hostname)) throw bad();
  if (parts[0] === 'r' && parts[2] === 's') {
    throw new QuarryError('invalidRequest', 'post: share links (/s/…) are not read; pass the address the link opens', { retryable: false });
  }
  const at = parts.indexOf('comments');
  const id = at >= 0 ? parts[at + 1]?.toLowerCase() : undefined;
  if (!id || !POST_ID.test(id)) throw bad();
  return id;
}

/** GET /comments/{id}/: `[Listing(t3), Listing(t1 tree with more stubs)]`. */
export async function fetchThread(q: PostQuery, ctx: SourceContext): Promise<unknown> {
  const id = postId(q.post);
  const query = new URLSearchParams({ sort: THREAD_SORTS[q.sort], limit: String(q.limit), raw_json: '1' });
  if (q.depth !== undefined) query.set('depth', String(q.depth));
  const gone: Gone = (reason) => new QuarryError('notFound', `post: no such post ${id}${reason ? ` (${reason})` : ''}`);
  return getOne(`/comments/${id}/`, query, ctx, gone);
}
