/**
 * The replay double: serves real recorded upstream answers from ../shared/upstream/<folder>/ on loopback, so a source
 * runs its real client against them through QUARRY_UPSTREAM_OVERRIDES (every recorded host → this server).
 *
 * Each recording `NAME.<ext>` with a sidecar `NAME.request.json` answers the request the sidecar records, matched by
 * method, host (X-Forwarded-Host, which the upstream client sets on overridden requests), path, and the fields that
 * identify the request: the recorded query parameters and top-level JSON body fields, minus those a folder says do
 * not matter (a client context, a cache buster). Extra fields in the live request are allowed: a request matches the
 * recording whose recorded fields it all carries, the most specific first. Requests nothing answers get 404 and are
 * listed in `misses`, so a test can assert the source asked exactly what was recorded.
 *
 * `routes` add answers for requests no sidecar records (recordings without one, the platform's documented error
 * shapes); `mutate` rewrites a recording on its way out (a drifted upstream).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { isDeepStrictEqual } from 'node:util';

export const UPSTREAM_DIR = fileURLToPath(new URL('../../../shared/upstream/', import.meta.url));

export const haveRecordings = (folder: string): boolean => existsSync(path.join(UPSTREAM_DIR, folder));
/** Appended to a describe's title when its recordings are absent, so the skip says why. */
export const skipReason = (folder: string): string =>
  haveRecordings(folder) ? '' : ` [skipped: recordings not found at ${path.join(UPSTREAM_DIR, folder)}]`;

/** A recording's body as text (gzip files unpacked). */
export function readRecording(file: string): string {
  return bodyOf(path.join(UPSTREAM_DIR, file)).toString('utf8');
}

export const readRecordingJson = (file: string): any => JSON.parse(readRecording(file));

export interface Recording {
  /** Path under ../shared/upstream, e.g. `video/search-videos.page1.json`. */
  name: string;
  method: string;
  host: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  status: number;
  contentType: string;
  file: string;
  /** Where the recording came from (sidecar `source` or `origin`): repository, commit, path, licence. */
  origin: Record<string, unknown>;
}

export interface ReplayRoute {
  method?: string;
  host?: string;
  path: string | RegExp;
  /** Query parameters the request must carry with these values. */
  query?: Record<string, string>;
  /** Top-level JSON body fields the request must carry with these values. */
  body?: Record<string, unknown>;
  /** A recording to answer with (path under ../shared/upstream), or a literal answer. */
  file?: string;
  status?: number;
  text?: string;
  headers?: Record<string, string>;
  /** What `served()` and sample provenance call this answer (default: `file`, else the route's path). */
  name?: string;
  /** A further test on the request (a GraphQL query's JSON `variables`, which no exact value can match). */
  match?: (request: Seen) => boolean;
}

export interface ReplayOptions {
  /** Folders under ../shared/upstream whose sidecar-described recordings are served (subfolders included). */
  folders: string[];
  ignoreQuery?: string[];
  ignoreBody?: string[];
  routes?: ReplayRoute[];
  /** Rewrites a recording's body before it is sent (name is the recording's path under ../shared/upstream). */
  mutate?: (name: string, body: string) => string;
}

export interface Seen {
  method: string;
  host: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  /** The request's headers as the double received them (an API key header, a content type). */
  headers: http.IncomingHttpHeaders;
  /** The recording or route that answered, or undefined for a miss. */
  answeredBy?: string;
}

export interface Replay {
  url: string;
  /** Every host the recordings were made against. */
  hosts: string[];
  /** QUARRY_UPSTREAM_OVERRIDES sending each of `hosts` (and any extra ones) to this server. */
  overrides(extraHosts?: string[]): string;
  recordings: Recording[];
  seen: Seen[];
  misses(): Seen[];
  /** Names of the recordings served, in order (provenance of what a call was built from). */
  served(): string[];
  /** Mutable: swap the drift rewrite between tests. */
  mutate?: (name: string, body: string) => string;
  close(): Promise<void>;
}

const DEFAULT_IGNORE_QUERY = ['prettyPrint', 'key', 'alt'];
const DEFAULT_IGNORE_BODY = ['context'];

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

function bodyOf(file: string): Buffer {
  const raw = readFileSync(file);
  return file.endsWith('.gz') ? gunzipSync(raw) : raw;
}

function typeOf(file: string): string {
  const f = file.replace(/\.gz$/, '');
  if (f.endsWith('.json')) return 'application/json; charset=utf-8';
  if (f.endsWith('.html')) return 'text/html; charset=utf-8';
  if (f.endsWith('.xml') || f.endsWith('.rss') || f.endsWith('.atom')) return 'application/xml; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

/** The recordings of a folder that carry a sidecar with a concrete URL. */
export function loadRecordings(folder: string): Recording[] {
  const dir = path.join(UPSTREAM_DIR, folder);
  if (!existsSync(dir)) return [];
  const files = walk(dir);
  const out: Recording[] = [];
  for (const sidecar of files.filter((f) => f.endsWith('.request.json'))) {
    const meta = JSON.parse(readFileSync(sidecar, 'utf8'));
    const req = meta.request ?? {};
    if (typeof req.url !== 'string' || !URL.canParse(req.url)) continue;
    const stem = sidecar.slice(0, -'.request.json'.length);
    const file = files.find((f) => f !== sidecar && f.startsWith(`${stem}.`) && !f.endsWith('.request.json'));
    if (!file) continue;
    const url = new URL(req.url);
    let body: unknown = req.body ?? undefined;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // a form or text body: compared whole
      }
    }
    out.push({
      name: path.relative(UPSTREAM_DIR, file),
      method: String(req.method ?? 'GET').toUpperCase(),
      host: url.host,
      path: url.pathname,
      query: url.searchParams,
      body,
      status: Number(meta.response?.status ?? 200) || 200,
      contentType: meta.response?.contentType ?? typeOf(file),
      file,
      origin: meta.source ?? meta.origin ?? {},
    });
  }
  return out;
}

function parseBody(raw: string, type: string | undefined): unknown {
  if (!raw) return undefined;
  if ((type ?? '').includes('json') || /^[[{]/.test(raw.trim())) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

export async function startReplay(options: ReplayOptions): Promise<Replay> {
  const recordings = options.folders.flatMap(loadRecordings);
  const ignoreQuery = new Set([...DEFAULT_IGNORE_QUERY, ...(options.ignoreQuery ?? [])]);
  const ignoreBody = new Set([...DEFAULT_IGNORE_BODY, ...(options.ignoreBody ?? [])]);
  const routes = options.routes ?? [];
  const seen: Seen[] = [];

  /** How many identifying fields of `r` the request carries, or -1 when one differs. */
  function score(r: Recording, s: Seen): number {
    if (r.method !== s.method || r.path !== s.path || (s.host && r.host !== s.host)) return -1;
    let n = 0;
    for (const [k, v] of r.query) {
      if (ignoreQuery.has(k)) continue;
      if (s.query.get(k) !== v) return -1;
      n++;
    }
    if (r.body !== undefined && r.body !== null) {
      if (typeof r.body === 'object' && !Array.isArray(r.body)) {
        const got = (typeof s.body === 'object' && s.body !== null ? s.body : {}) as Record<string, unknown>;
        for (const [k, v] of Object.entries(r.body as Record<string, unknown>)) {
          if (ignoreBody.has(k)) continue;
          if (!isDeepStrictEqual(got[k], v)) return -1;
          n++;
        }
      } else if (!isDeepStrictEqual(s.body, r.body)) return -1;
    }
    return n;
  }

  function routeFor(s: Seen): ReplayRoute | undefined {
    return routes.find((r) => {
      if (r.method && r.method.toUpperCase() !== s.method) return false;
      if (r.host && r.host !== s.host) return false;
      if (typeof r.path === 'string' ? r.path !== s.path : !r.path.test(s.path)) return false;
      for (const [k, v] of Object.entries(r.query ?? {})) if (s.query.get(k) !== v) return false;
      const body = (typeof s.body === 'object' && s.body !== null ? s.body : {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(r.body ?? {})) if (!isDeepStrictEqual(body[k], v)) return false;
      return r.match ? r.match(s) : true;
    });
  }

  const replay: Replay = {
    url: '',
    hosts: [...new Set(recordings.map((r) => r.host))],
    overrides(extraHosts = []) {
      return [...new Set([...this.hosts, ...extraHosts, ...routes.flatMap((r) => (r.host ? [r.host] : []))])]
        .map((h) => `${h}=${this.url}`)
        .join(',');
    },
    recordings,
    seen,
    misses: () => seen.filter((s) => !s.answeredBy),
    served: () => seen.flatMap((s) => (s.answeredBy ? [s.answeredBy] : [])),
    mutate: options.mutate,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const send = (res: http.ServerResponse, status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(body);
  };
  const outgoing = (name: string, body: Buffer): string | Buffer => (replay.mutate ? replay.mutate(name, body.toString('utf8')) : body);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://replay.invalid');
      const s: Seen = {
        method: (req.method ?? 'GET').toUpperCase(),
        host: String(req.headers['x-forwarded-host'] ?? ''),
        path: url.pathname,
        query: url.searchParams,
        body: parseBody(Buffer.concat(chunks).toString('utf8'), req.headers['content-type']),
        headers: req.headers,
      };
      seen.push(s);
      const route = routeFor(s);
      if (route) {
        s.answeredBy = route.name ?? route.file ?? `route ${String(route.path)}`;
        if (route.file) {
          const file = path.join(UPSTREAM_DIR, route.file);
          return send(res, route.status ?? 200, route.headers?.['content-type'] ?? typeOf(file), outgoing(route.file, bodyOf(file)), route.headers);
        }
        return send(res, route.status ?? 200, route.headers?.['content-type'] ?? 'text/plain', route.text ?? '', route.headers);
      }
      let best: Recording | undefined;
      let bestScore = -1;
      for (const r of recordings) {
        const n = score(r, s);
        if (n > bestScore) [best, bestScore] = [r, n];
      }
      if (!best) {
        return send(res, 404, 'application/json', JSON.stringify({ replay: 'no recording answers this request', method: s.method, host: s.host, path: s.path, query: url.search }));
      }
      s.answeredBy = best.name;
      send(res, best.status, best.contentType, outgoing(best.name, bodyOf(best.file)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  replay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return replay;
}
