/**
 * A loopback server that answers like the forum platform, from the real recordings in ../shared/upstream/forum/:
 * it checks each request's path and query as the real host would, issues app-only OAuth tokens, and answers the
 * known error shapes for unreadable subforums. Used by the source tests, the gateway tests and the bench.
 */
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

export const FORUM_DIR = fileURLToPath(new URL('../../../shared/upstream/forum/', import.meta.url));
export const HAVE_FORUM_RECORDINGS = existsSync(FORUM_DIR);
export const FORUM_SKIP_REASON = HAVE_FORUM_RECORDINGS ? '' : ` [skipped: recordings not found at ${FORUM_DIR}]`;

export const rawRecording = (name: string): string => readFileSync(FORUM_DIR + name, 'utf8');
export const recording = (name: string): any => JSON.parse(rawRecording(name));

export interface Seen {
  method: string;
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
    seen.push({ method: req.method ?? '', path: url.pathname, query: url.search, auth: req.headers.authorization, agent: req.headers['user-agent'] });
    if (upstream.failWith) return send(res, upstream.failWith, '<html><body>upstream connect error</body></html>', 'text/html');
    if (url.pathname === '/api/v1/access_token') return tokenEndpoint(req, res, reqBody);
    if (url.pathname === '/subreddits/search.json') {
      const t5 = recording('subreddit-about-golang.json');
      return send(res, 200, JSON.stringify({ kind: 'Listing', data: { after: null, dist: 1, children: [t5] } }));
    }
    // The public host wants `.json`; the OAuth host wants a valid bearer token instead.
    let path = url.pathname;
    if (path.endsWith('.json')) path = path.slice(0, -'.json'.length);
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
