/** The paid (and test-mode) calls on the embedded database: recorded by the ledger, listed and summed here. */
import type { Database, Statement } from 'better-sqlite3';
import { callFromRow, type CallRowBase } from '../call-rows.js';
import type { CallRecord, CallStore, LogQuery, UsageQuery, UsageTotals } from '../types.js';
import { LogFilter } from './log-page.js';

export interface CallRow extends CallRowBase {
  test: number;
  tags: string;
}

export const toCall = (r: CallRow): CallRecord => callFromRow(r, r.test === 1, JSON.parse(r.tags) as string[]);

export class SqliteCalls implements CallStore {
  private readonly insert: Statement;

  constructor(
    private readonly db: Database,
    /** Archives a recorded call's answer (the archive's `keepNow`). */
    private readonly archive: (call: CallRecord) => void,
  ) {
    this.insert = db.prepare(
      'INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** Records a call and archives its answer, inside the write batch's transaction. */
  recordNow(call: CallRecord): void {
    this.insert.run(
      call.accountId,
      call.id,
      call.keyId,
      call.keyName,
      call.endpoint,
      call.credits,
      call.cache,
      call.test ? 1 : 0,
      JSON.stringify(call.tags),
      call.channel,
      call.createdAt,
      call.result?.hash ?? null,
    );
    this.archive(call);
  }

  async listCalls(accountId: string, q: LogQuery): Promise<{ rows: CallRecord[]; total: number }> {
    const f = new LogFilter('calls', 'c', accountId, q.sinceMs).shared(q);
    if (q.endpointPrefix) {
      const p = q.endpointPrefix.replace(/[\\%_]/g, (m) => `\\${m}`);
      f.and("(c.endpoint = ? OR c.endpoint LIKE ? ESCAPE '\\')", q.endpointPrefix, `${p}.%`);
    }
    const { rows, total } = f.page<CallRow>(this.db, q.page, q.pageSize);
    return { rows: rows.map(toCall), total };
  }

  async usage(accountId: string, q: UsageQuery): Promise<UsageTotals> {
    const mode = q.mode ? ` AND c.test = ${q.mode === 'test' ? 1 : 0}` : '';
    const cond = `c.account_id = ? AND c.created_at >= ?${mode}${q.tag ? ' AND EXISTS (SELECT 1 FROM json_each(c.tags) WHERE value = ?)' : ''}`;
    const args: unknown[] = q.tag ? [accountId, q.sinceMs, q.tag] : [accountId, q.sinceMs];
    const all = <T>(sql: string) => this.db.prepare(sql).all(...args) as T[];
    const totals = this.db
      .prepare(`SELECT count(*) AS calls, coalesce(sum(c.credits), 0) AS credits FROM calls c WHERE ${cond}`)
      .get(...args) as { calls: number; credits: number };
    const byEndpoint = all<{ endpoint: string; calls: number; credits: number }>(
      `SELECT c.endpoint AS endpoint, count(*) AS calls, sum(c.credits) AS credits FROM calls c WHERE ${cond} GROUP BY c.endpoint ORDER BY credits DESC, endpoint`,
    );
    const byDay = all<{ day: string; calls: number; credits: number }>(
      `SELECT strftime('%Y-%m-%d', c.created_at / 1000, 'unixepoch') AS day, count(*) AS calls, sum(c.credits) AS credits FROM calls c WHERE ${cond} GROUP BY day ORDER BY day`,
    );
    const byTag = this.db
      .prepare(
        `SELECT t.value AS tag, count(*) AS calls, sum(c.credits) AS credits FROM calls c, json_each(c.tags) t WHERE ${cond}${q.tag ? ' AND t.value = ?' : ''} GROUP BY t.value ORDER BY credits DESC, tag`,
      )
      .all(...args, ...(q.tag ? [q.tag] : [])) as { tag: string; calls: number; credits: number }[];
    return { calls: totals.calls, credits: totals.credits, byEndpoint, byDay, byTag };
  }
}
