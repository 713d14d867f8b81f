/**
 * The request log (issue 38.3): every call an account's keys made, failed ones included, with its status, error
 * code, real duration, key, tags and request id. It sits beside `calls` (the paid calls `GET /v1/logs` lists, as
 * SPEC.md requires) and never replaces it. Two implementations, SQLite (./sqlite/request-log.ts) and PostgreSQL
 * (./postgres/request-log.ts), each in the database of the main store with its own tables and migrations; the
 * main store opens the one on its database (`requestLog()`) and `requestLogFor(store)` asks it, as `accountSideFor`
 * does.
 *
 * Writes are batched off the request path: the server queues entries (src/server/request-log.ts) and hands them
 * over once per event-loop turn, one transaction (SQLite) or one multi-row INSERT (PostgreSQL) for all of them.
 */
import type { CacheOutcome, Store } from './types.js';

export interface RequestLogEntry {
  /** The request id (X-Request-ID): a paid call's entry in `calls` has the same id. */
  id: string;
  accountId: string;
  keyId: string;
  keyName: string;
  /** Made with a test-mode key: answered from samples, nothing spent. */
  test: boolean;
  method: string;
  /** The path asked, without its query (a key in an MCP path is redacted). */
  path: string;
  /** The endpoint id (`reddit.subforum`), the legacy path's name, or null when the request named none. */
  endpoint: string | null;
  channel: 'rest' | 'mcp' | 'legacy';
  status: number;
  /** The error code of a failed call (`invalidRequest`, `sourceTimeout`…); null when it succeeded. */
  errorCode: string | null;
  errorMessage: string | null;
  /** From the request's arrival to its answer being handed to the socket. */
  durationMs: number;
  /** Credits the call used (the reported price of a test-mode call); 0 for a failure. */
  credits: number;
  cache: CacheOutcome | null;
  tags: string[];
  createdAt: number;
}

export interface RequestLogQuery {
  sinceMs: number;
  page: number;
  pageSize: number;
  endpoint?: string;
  keyId?: string;
  tag?: string;
  /** `ok`: status below 400; `failed`: 400 and above. */
  outcome?: 'ok' | 'failed';
  /** `live` or `test` keys only. */
  mode?: 'live' | 'test';
}

export interface RequestLogStore {
  /** Writes entries handed over together (one transaction or statement); an id already logged is kept as it was. */
  append(entries: readonly RequestLogEntry[]): Promise<void>;
  list(accountId: string, q: RequestLogQuery): Promise<{ rows: RequestLogEntry[]; total: number }>;
  get(accountId: string, id: string): Promise<RequestLogEntry | null>;
  /** Durations of the account's requests with these ids (the `durationMs` of GET /v1/logs). */
  durations(accountId: string, ids: readonly string[]): Promise<Map<string, number>>;
  /** Drops entries older than `beforeMs`; returns how many went. */
  prune(beforeMs: number): Promise<number>;
}

/** A store whose database holds the request log too (both of ours): it opens it, once. */
interface RequestLogHost {
  requestLog(): RequestLogStore;
}

export function requestLogFor(store: Store): RequestLogStore {
  const host = store as Store & Partial<RequestLogHost>;
  if (typeof host.requestLog !== 'function') throw new Error('the request log needs the SQLite or the PostgreSQL store');
  return host.requestLog();
}

/** A row as both databases return it (booleans and tags differ in storage only). */
export interface RequestLogRow {
  id: string;
  account_id: string;
  key_id: string;
  key_name: string;
  test: boolean | number;
  method: string;
  path: string;
  endpoint: string | null;
  channel: 'rest' | 'mcp' | 'legacy';
  status: number;
  error_code: string | null;
  error_message: string | null;
  duration_ms: number;
  credits: number;
  cache: CacheOutcome | null;
  tags: string[] | string;
  created_at: number;
}

export function entryFromRow(r: RequestLogRow): RequestLogEntry {
  return {
    id: r.id,
    accountId: r.account_id,
    keyId: r.key_id,
    keyName: r.key_name,
    test: r.test === true || r.test === 1,
    method: r.method,
    path: r.path,
    endpoint: r.endpoint,
    channel: r.channel,
    status: r.status,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    durationMs: r.duration_ms,
    credits: r.credits,
    cache: r.cache,
    tags: typeof r.tags === 'string' ? (JSON.parse(r.tags) as string[]) : r.tags,
    createdAt: r.created_at,
  };
}
