/**
 * A loopback server that answers like the forum platform, from the real recordings in ../shared/upstream/forum/:
 * it checks each request's path and query as the real host would, issues app-only OAuth tokens, and answers the
 * known error shapes for unreadable subforums. Used by the source tests, the gateway tests and the bench.
 *
 * Reached through QUARRY_UPSTREAM_OVERRIDES (`overrides(url)`), it answers by the forwarded host as Reddit's two
 * hosts do: www.reddit.com serves the public `.json` paths and the token endpoint, oauth.reddit.com the bearer API.
 * Reached directly (the per-source *_URL aliases), it answers both kinds on one address.
 *
 * `redditReplay()` is the replay double's setup for reddit.search and reddit.post (recordings plus documented routes).
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ReplayOptions } from './replay.js';

export const FORUM_DIR = fileURLToPath(new URL('../../../shared/upstream/forum/', import.meta.url));
export const HAVE_FORUM_RECORDINGS = existsSync(FORUM_DIR);
export const FORUM_SKIP_REASON = HAVE_FORUM_RECORDINGS ? '' : ` [skipped: recordings not found at ${FORUM_DIR}]`;

export const rawRecording = (name: string): string => readFileSync(FORUM_DIR + name, 'utf8');
export const recording = (name: string): any => JSON.parse(rawRecording(name));

export interface Seen {
  method: string;
  /** The upstream host the request was for (X-Forwarded-Host), when it came through an override. */
  host?: string;
  path: string;
  query: string;
  auth?: string;
  agent?: string;
}

export interface RedditUpstream {
  url: string;
  seen: Seen[];
  validTokens: Set<string>;
  tokensIssued(): number;
  /** Delay before every answer, e.g. to keep calls in flight. */
  delayMs: number;
  /** When set, every request is answered with this status (an outage on demand). */
  failWith: number | undefined;
  /** When set, recorded bodies pass through it before being sent (a changed upstream format). */
  mutate: ((recordingName: string, body: any) => unknown) | undefined;
  close(): Promise<void>;
}

const CREDS: Record<string, string> = { app1: 'secret1', app2: 'secret2', app3: 'secret3' };
const LISTING_PARAMS = new Set(['limit', 'raw_json', 'after', 't']);
const SORTS = new Set(['hot', 'new', 'top', 'rising', 'controversial']);
const WINDOWS = new Set(['hour', 'day', 'week', 'month', 'year', 'all']);

/** QUARRY_UPSTREAM_OVERRIDES sending both of Reddit's hosts to a double at `url`. */
export const overrides = (url: string): string => `www.reddit.com=${url},oauth.reddit.com=${url}`;

function send(res: http.ServerResponse, status: number, body: string, type = 'application/json; charset=UTF-8'): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}

/** Answers for subforums that cannot be read (no recording exists; shapes as the platform sends them). */
function unavailable(sub: string, res: http.ServerResponse): boolean {
  if (sub === 'bannedsub') return send(res, 404, '{"reason": "banned", "message": "Not Found", "error": 404}'), true;
  if (sub === 'nosuchsub') return send(res, 404, '{"message": "Not Found", "error": 404}'), true;
  if (sub === 'privatesub') return send(res, 403, '{"reason": "private", "message": "Forbidden", "error": 403}'), true;
  if (sub === 'blockedsub') return send(res, 403, '<html><body>You have been blocked by network security.</body></html>', 'text/html'), true;
  if (sub === 'downsub') return send(res, 503, '<html><body>upstream connect error</body></html>', 'text/html'), true;
  if (sub === 'renamedsub') {
    res.writeHead(302, { location: `/subreddits/search.json?q=${sub}` });
    return res.end(), true;
  }
  return false;
}

export async function startRedditUpstream(): Promise<RedditUpstream> {
  const seen: Seen[] = [];
  const validTokens = new Set<string>();
  let tokensIssued = 0;

  function tokenEndpoint(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const [id, secret] = Buffer.from(encoded ?? '', 'base64').toString().split(':');
    const form = new URLSearchParams(body);
    if (req.method !== 'POST' || scheme !== 'Basic' || !id || CREDS[id] !== secret) {
      return send(res, 401, '{"message": "Unauthorized", "error": 401}');
    }
    if (form.get('grant_type') !== 'client_credentials' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      return send(res, 200, '{"error": "unsupported_grant_type"}');
    }
    const token = `tok-${++tokensIssued}`;
    validTokens.add(token);
    send(res, 200, JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 86400, scope: '*' }));
  }

  /** A recorded body, through `mutate` when a test changes the upstream's format. */
  const body = (name: string): string => (upstream.mutate ? JSON.stringify(upstream.mutate(name, recording(name))) : rawRecording(name));

  function handle(req: http.IncomingMessage, res: http.ServerResponse, reqBody: string): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const host = req.headers['x-forwarded-host'] as string | undefined;
    seen.push({ method: req.method ?? '', host, path: url.pathname, query: url.search, auth: req.headers.authorization, agent: req.headers['user-agent'] });
    if (upstream.failWith) return send(res, upstream.failWith, '<html><body>upstream connect error</body></html>', 'text/html');
    // Through an override each host answers only its own paths, as the real ones do.
    const publicHost = host === undefined || host === 'www.reddit.com';
    const apiHost = host === undefined || host === 'oauth.reddit.com';
    if (url.pathname === '/api/v1/access_token') {
      return publicHost ? tokenEndpoint(req, res, reqBody) : send(res, 404, '{"message": "Not Found", "error": 404}');
    }
    if (url.pathname === '/subreddits/search.json') {
      const t5 = recording('subreddit-about-golang.json');
      return send(res, 200, JSON.stringify({ kind: 'Listing', data: { after: null, dist: 1, children: [t5] } }));
    }
    // The public host wants `.json`; the OAuth host wants a valid bearer token instead.
    let path = url.pathname;
    if (path.endsWith('.json') && publicHost) path = path.slice(0, -'.json'.length);
    else if (!apiHost) return send(res, 404, '{"message": "Not Found", "error": 404}');
    else if (!validTokens.has((req.headers.authorization ?? '').replace(/^bearer /, ''))) {
      return send(res, 401, '{"message": "Unauthorized", "error": 401}');
    }
    if (url.searchParams.get('raw_json') !== '1') return send(res, 400, '{"message": "raw_json missing (test server)"}');
    const m = /^\/r\/([A-Za-z0-9_]+)\/(about\/rules|about|[a-z]+)$/.exec(path);
    if (!m) return send(res, 404, '{"message": "Not Found", "error": 404}');
    const [, sub, what] = m;
    if (unavailable(sub, res)) return;
    if (what === 'about') return send(res, 200, body('subreddit-about-golang.json'));
    if (what === 'about/rules') return send(res, 200, body('subreddit-rules-fitness.json'));
    if (!SORTS.has(what)) return send(res, 404, '{"message": "Not Found", "error": 404}');
    const q = url.searchParams;
    const limit = Number(q.get('limit'));
    const bad =
      [...q.keys()].some((k) => !LISTING_PARAMS.has(k)) ||
      !(limit >= 1 && limit <= 100) ||
      (q.has('t') && (!WINDOWS.has(q.get('t')!) || (what !== 'top' && what !== 'controversial'))) ||
      (q.has('after') && !/^t3_[a-z0-9]+$/.test(q.get('after')!));
    if (bad) return send(res, 400, '{"message": "bad listing query (test server)"}');
    if (sub === 'brokensub') return send(res, 200, '{"kind": "Listing", "data": {"after": null}}');
    // One recorded listing answers every sort: tests check the query, the recording supplies the body.
    send(res, 200, body('listing-popular-hot.json'));
  }

  const upstream: RedditUpstream = {
    url: '',
    seen,
    validTokens,
    tokensIssued: () => tokensIssued,
    delayMs: 0,
    failWith: undefined,
    mutate: undefined,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (upstream.delayMs > 0) setTimeout(() => handle(req, res, body), upstream.delayMs);
      else handle(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return upstream;
}

/** Reddit's answer to an app-only token request (its documented shape: access_token, token_type, expires_in, scope). */
const TOKEN_ANSWER = JSON.stringify({ access_token: 'replay-token', token_type: 'bearer', expires_in: 86400, scope: '*' });
const JSON_TYPE = { 'content-type': 'application/json; charset=UTF-8' };
export const DOCUMENTED_DIR = fileURLToPath(new URL('../fixtures/documented/reddit/', import.meta.url));

/**
 * The replay double's setup for reddit.search and reddit.post:
 * - the oauth.reddit.com post recordings (their sidecars), matched whatever `limit` and `depth` asked;
 * - the recorded search answer (its sidecar records only a pattern), for a search of "test";
 * - a subreddit search: the two recorded subreddit `about` answers (t5) in Reddit's Listing envelope;
 * - a user search: a Listing of t2 written from the documented interface (no user was recorded), in
 *   test/fixtures/documented/reddit/;
 * - the app-only token, and the public host's `.json` paths for the same answers.
 */
export function redditReplay(extra: Partial<ReplayOptions> = {}): ReplayOptions {
  const t5 = (name: string) => recording(name);
  const subforums = JSON.stringify({
    kind: 'Listing',
    data: { after: null, dist: 2, children: [t5('subreddit-about-golang.json'), t5('subreddit-about-testsub.json')], before: null },
  });
  const users = readFileSync(`${DOCUMENTED_DIR}users-search.json`, 'utf8');
  const both = (path: string | RegExp, rest: Omit<NonNullable<ReplayOptions['routes']>[number], 'path' | 'host'>) => [
    { host: 'oauth.reddit.com', path, ...rest },
    { host: 'www.reddit.com', path: typeof path === 'string' ? `${path}.json` : new RegExp(path.source.replace(/\$$/, '\\.json$')), ...rest },
  ];
  return {
    folders: ['forum'],
    ignoreQuery: ['limit', 'depth'],
    ...extra,
    routes: [
      ...(extra.routes ?? []),
      { method: 'POST', host: 'www.reddit.com', path: '/api/v1/access_token', text: TOKEN_ANSWER, headers: JSON_TYPE },
      ...both('/search', { query: { q: 'test', type: 'link' }, file: 'forum/subreddit-search-posts.json' }),
      ...both(/^\/r\/[A-Za-z0-9_]+\/search$/, { query: { q: 'test', restrict_sr: '1' }, file: 'forum/subreddit-search-posts.json' }),
      ...both('/search', { query: { type: 'sr' }, text: subforums, headers: JSON_TYPE }),
      ...both('/search', { query: { type: 'user' }, text: users, headers: JSON_TYPE }),
      // The public host's thread paths (the recordings' sidecars are for oauth.reddit.com).
      { host: 'www.reddit.com', path: '/comments/g9zfex.json', file: 'forum/post-poll.json' },
    ],
  };
}
