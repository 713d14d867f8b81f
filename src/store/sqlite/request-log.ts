/**
 * The request log on the embedded database: its own table in the same SQLite file, with its own migration list
 * (tracked in `request_log_version`, so it grows apart from the store's `user_version` list). Entries arrive in
 * batches (one per event-loop turn) and each batch is one transaction.
 */
import type { Database, Statement } from 'better-sqlite3';
import { entryFromRow, type RequestLogEntry, type RequestLogQuery, type RequestLogRow, type RequestLogStore } from '../request-log.js';
import { LogFilter } from './log-page.js';

/** Applied once each, in order; never edit one that shipped: append. */
export const REQUEST_LOG_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
-- Clustered by account, then by the time-ordered request id: inserts append, listings read one range.
CREATE TABLE IF NOT EXISTS request_log (
  account_id TEXT NOT NULL,
  id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_name TEXT NOT NULL,
  test INTEGER NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  endpoint TEXT,
  channel TEXT NOT NULL,
  status INTEGER NOT NULL,
  error_code TEXT,
  error_message TEXT,
  duration_ms INTEGER NOT NULL,
  credits INTEGER NOT NULL,
  cache TEXT,
  tags TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS request_log_time ON request_log(account_id, created_at);
CREATE INDEX IF NOT EXISTS request_log_age ON request_log(created_at);
`,
  },
];

function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS request_log_version (one INTEGER PRIMARY KEY CHECK (one = 1), version INTEGER NOT NULL)');
  const row = db.prepare('SELECT version FROM request_log_version').get() as { version: number } | undefined;
  const current = row?.version ?? 0;
  for (const m of REQUEST_LOG_MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO request_log_version (one, version) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET version = excluded.version').run(m.version);
    })();
  }
}

export class SqliteRequestLog implements RequestLogStore {
  private readonly s: Record<string, Statement>;
  private readonly insertMany: (entries: readonly RequestLogEntry[]) => void;

  /**
   * `groupCommit`: the store's own group commit (`write-batch.ts`), so a turn's entries share the transaction of the
   * turn's paid calls instead of committing apart; without it, each batch is its own transaction.
   */
  constructor(
    private readonly db: Database,
    private readonly groupCommit?: (run: () => void) => Promise<void>,
  ) {
    migrate(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insert: p(
        `INSERT INTO request_log (account_id, id, key_id, key_name, test, method, path, endpoint, channel, status, error_code,
           error_message, duration_ms, credits, cache, tags, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ),
      get: p('SELECT * FROM request_log WHERE account_id = ? AND id = ?'),
      prune: p('DELETE FROM request_log WHERE created_at < ?'),
    };
    this.insertMany = db.transaction((entries: readonly RequestLogEntry[]) => {
      for (const e of entries) {
        this.s.insert.run(
          e.accountId,
          e.id,
          e.keyId,
          e.keyName,
          e.test ? 1 : 0,
          e.method,
          e.path,
          e.endpoint,
          e.channel,
          e.status,
          e.errorCode,
          e.errorMessage,
          e.durationMs,
          e.credits,
          e.cache,
          JSON.stringify(e.tags),
          e.createdAt,
        );
      }
    });
  }

  async append(entries: readonly RequestLogEntry[]): Promise<void> {
    if (!entries.length) return;
    if (this.groupCommit) await this.groupCommit(() => this.insertMany(entries));
    else this.insertMany(entries);
  }

  async list(accountId: string, q: RequestLogQuery): Promise<{ rows: RequestLogEntry[]; total: number }> {
    const f = new LogFilter('request_log', 'r', accountId, q.sinceMs).shared(q);
    if (q.outcome) f.and(q.outcome === 'ok' ? 'r.status < 400' : 'r.status >= 400');
    if (q.mode) f.and(q.mode === 'test' ? 'r.test = 1' : 'r.test = 0');
    const { rows, total } = f.page<RequestLogRow>(this.db, q.page, q.pageSize);
    return { rows: rows.map(entryFromRow), total };
  }

  async get(accountId: string, id: string): Promise<RequestLogEntry | null> {
    const r = this.s.get.get(accountId, id) as RequestLogRow | undefined;
    return r ? entryFromRow(r) : null;
  }

  async durations(accountId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!ids.length) return out;
    const rows = this.db
      .prepare(`SELECT id, duration_ms FROM request_log WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))`)
      .all(accountId, JSON.stringify(ids)) as { id: string; duration_ms: number }[];
    for (const r of rows) out.set(r.id, r.duration_ms);
    return out;
  }

  async prune(beforeMs: number): Promise<number> {
    return this.s.prune.run(beforeMs).changes;
  }
}
