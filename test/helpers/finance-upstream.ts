/**
 * The Yahoo Finance recordings (shared/upstream/finance/yahoo) are recorder cassettes with no sidecar:
 * `{request: {url, method}, response: {status, headers, bodyJson | bodyText}}`. This turns each into a replay route
 * answering its body, status, Location and Set-Cookie, matched by host, path and the query fields that identify it
 * (not the client's own extras such as `lang` or `useYfid`). The consent steps shared/upstream does not hold come
 * from test/fixtures/documented/finance/consent-flow.json, written from documentation and so named.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayRoute } from './replay.js';

export const YAHOO_FOLDER = 'finance/yahoo';
export const HAVE_YAHOO = existsSync(path.join(UPSTREAM_DIR, YAHOO_FOLDER));
export const YAHOO_SKIP = HAVE_YAHOO ? '' : ` [skipped: recordings not found at ${path.join(UPSTREAM_DIR, YAHOO_FOLDER)}]`;

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/finance/', import.meta.url));
/** Query fields that say what was asked; the rest are client extras the recordings' client happened to send. */
const IDENTIFYING = ['symbols', 'crumb', 'modules', 'q', 'scrIds', 'period1', 'period2', 'interval', 'range', 'guccounter'];
const ORIGIN = 'gadicc/node-yahoo-finance2 @ c9dbcb6f7dea4c52ceef67472ad2af357eaa156b, MIT';

export interface Cassette {
  name: string;
  method: string;
  url: URL;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function readCassette(file: string): Cassette {
  const raw = JSON.parse(readFileSync(path.join(UPSTREAM_DIR, YAHOO_FOLDER, file), 'utf8'));
  const res = raw.response;
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers ?? {})) {
    if (['content-type', 'location', 'set-cookie'].includes(k)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  const body = res.bodyJson !== undefined ? JSON.stringify(res.bodyJson) : String(res.bodyText ?? '');
  return { name: `${YAHOO_FOLDER}/${file}`, method: raw.request.method ?? 'GET', url: new URL(raw.request.url), status: res.status, headers, body };
}

export const cassetteFiles = (): string[] => readdirSync(path.join(UPSTREAM_DIR, YAHOO_FOLDER)).filter((f) => f.endsWith('.json')).sort();

/** A route answering what the cassette recorded; `rewrite` changes its body (a drifted upstream). */
export function cassetteRoute(file: string, options: { match?: string[]; rewrite?: (body: string) => string; query?: Record<string, string> } = {}): ReplayRoute {
  const c = readCassette(file);
  const keys = options.match ?? IDENTIFYING;
  const query = options.query ?? Object.fromEntries([...c.url.searchParams].filter(([k]) => keys.includes(k)));
  return {
    method: c.method,
    host: c.url.host,
    path: decodeURIComponent(c.url.pathname),
    query,
    status: c.status,
    text: options.rewrite ? options.rewrite(c.body) : c.body,
    headers: c.headers,
    name: `shared/upstream/${c.name} (${ORIGIN})`,
  };
}

interface DocumentedStep {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The consent steps between the recorded guce redirect and the recorded getcrumb call (documented, not recorded). */
export function consentRoutes(): ReplayRoute[] {
  const doc = JSON.parse(readFileSync(path.join(DOCUMENTED, 'consent-flow.json'), 'utf8')) as { steps: DocumentedStep[] };
  return doc.steps.map((s) => {
    const url = new URL(s.url);
    return {
      method: s.method,
      host: url.host,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      status: s.status,
      text: s.body,
      headers: s.headers,
      name: `test/fixtures/documented/finance/consent-flow.json ${s.method} ${url.host}${url.pathname} (documented, not recorded)`,
    };
  });
}

/** A documented Yahoo error answer (test/fixtures/documented/finance/errors.json) as a route. */
export function errorRoute(kind: 'invalidCrumb' | 'chartNotFound' | 'quoteSummaryNotFound' | 'chartBadRange', route: Omit<ReplayRoute, 'text' | 'status'>): ReplayRoute {
  const doc = JSON.parse(readFileSync(path.join(DOCUMENTED, 'errors.json'), 'utf8'));
  const e = doc[kind];
  return { ...route, status: e.status, text: JSON.stringify(e.body), headers: { 'content-type': 'application/json;charset=utf-8' }, name: `documented ${kind}` };
}

/**
 * Every cassette as a route, plus the documented consent steps (first: the quote page's `guccounter=1` return must
 * not match the recorded 307 of the first visit). The guce consent redirect is matched by path alone: it was recorded
 * on another day than the first visit, so its `gcrumb` differs.
 */
export function yahooRoutes(extra: ReplayRoute[] = []): ReplayRoute[] {
  const recorded = cassetteFiles().map((f) => cassetteRoute(f, f === 'getCrumb-quote-AAPL-consent.html.json' ? { query: {} } : {}));
  return [...extra, ...consentRoutes(), ...recorded];
}
