/**
 * The request log on PostgreSQL: its own table in the store's schema, created by its own versioned migrations
 * (tracked in `request_log_migrations`, apart from the store's and the account side's lists) under an advisory
 * lock. A batch of entries is one INSERT of many rows (unnest of arrays), so a burst of calls costs one round trip.
 */
import type pg from 'pg';
import { entryFromRow, type RequestLogEntry, type RequestLogQuery, type RequestLogRow, type RequestLogStore } from '../request-log.js';
import { onceUntilDone, runMigrations, type Migration } from './migrate.js';
import { orUnavailable, type StoreDatabase } from './connection.js';
import { LogFilter } from './log-page.js';

const MIGRATION_LOCK = 0x5175_6174; // "Quat"

export const REQUEST_LOG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'request log',
    sql: `
CREATE TABLE request_log (
  account_id text NOT NULL,
  id text NOT NULL,
  key_id text NOT NULL,
  key_name text NOT NULL,
  test boolean NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  endpoint text,
  channel text NOT NULL,
  status integer NOT NULL,
  error_code text,
  error_message text,
  duration_ms integer NOT NULL,
  credits bigint NOT NULL,
  cache text,
  tags text[] NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX request_log_time ON request_log(account_id, created_at DESC, id DESC);
CREATE INDEX request_log_age ON request_log(created_at);
`,
  },
];

export class PostgresRequestLog implements RequestLogStore {
  constructor(private readonly store: StoreDatabase) {}

  /** The store's migrations first (the schema must exist), then ours, once per process. */
  private readonly migrate = onceUntilDone(async () => {
    await this.store.migrate();
    await runMigrations(this.store.pool, { lock: MIGRATION_LOCK, table: 'request_log_migrations', migrations: REQUEST_LOG_MIGRATIONS });
  });

  private q<R extends pg.QueryResultRow>(sql: string, args: unknown[] = []): Promise<pg.QueryResult<R>> {
    return orUnavailable(async () => {
      await this.migrate();
      return this.store.pool.query<R>(sql, args);
    });
  }

  async append(entries: readonly RequestLogEntry[]): Promise<void> {
    if (!entries.length) return;
    const col = <T>(f: (e: RequestLogEntry) => T) => entries.map(f);
    // Tags travel as JSON text per row (a text[][] parameter would need equal lengths).
    await this.q(
      `INSERT INTO request_log (account_id, id, key_id, key_name, test, method, path, endpoint, channel, status, error_code,
         error_message, duration_ms, credits, cache, tags, created_at)
       SELECT a, i, k, kn, t, m, p, e, ch, s, ec, em, d, c, ca,
              ARRAY(SELECT jsonb_array_elements_text(tg::jsonb)), ts
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::text[], $7::text[], $8::text[], $9::text[],
                   $10::integer[], $11::text[], $12::text[], $13::integer[], $14::bigint[], $15::text[], $16::text[], $17::bigint[])
         AS x(a, i, k, kn, t, m, p, e, ch, s, ec, em, d, c, ca, tg, ts)
       ON CONFLICT DO NOTHING`,
      [
        col((e) => e.accountId),
        col((e) => e.id),
        col((e) => e.keyId),
        col((e) => e.keyName),
        col((e) => e.test),
        col((e) => e.method),
        col((e) => e.path),
        col((e) => e.endpoint),
        col((e) => e.channel),
        col((e) => e.status),
        col((e) => e.errorCode),
        col((e) => e.errorMessage),
        col((e) => e.durationMs),
        col((e) => e.credits),
        col((e) => e.cache),
        col((e) => JSON.stringify(e.tags)),
        col((e) => e.createdAt),
      ],
    );
  }

  async list(accountId: string, q: RequestLogQuery): Promise<{ rows: RequestLogEntry[]; total: number }> {
    const f = new LogFilter('request_log', 'r', accountId, q.sinceMs).shared(q);
    if (q.outcome) f.and(q.outcome === 'ok' ? 'r.status < 400' : 'r.status >= 400');
    if (q.mode) f.and(q.mode === 'test' ? 'r.test' : 'NOT r.test');
    const { rows, total } = await f.page<RequestLogRow>((sql, args) => this.q(sql, args), q.page, q.pageSize);
    return { rows: rows.map(entryFromRow), total };
  }

  async get(accountId: string, id: string): Promise<RequestLogEntry | null> {
    const r = (await this.q<RequestLogRow>('SELECT * FROM request_log WHERE account_id = $1 AND id = $2', [accountId, id])).rows[0];
    return r ? entryFromRow(r) : null;
  }

  async durations(accountId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!ids.length) return out;
    const rows = (
      await this.q<{ id: string; duration_ms: number }>('SELECT id, duration_ms FROM request_log WHERE account_id = $1 AND id = ANY($2::text[])', [
        accountId,
        ids,
      ])
    ).rows;
    for (const r of rows) out.set(r.id, r.duration_ms);
    return out;
  }

  async prune(beforeMs: number): Promise<number> {
    return (await this.q('DELETE FROM request_log WHERE created_at < $1', [beforeMs])).rowCount ?? 0;
  }
}
