/** The paid (and test-mode) calls on PostgreSQL: recorded by the ledger's statements, listed and summed here. */
import type pg from 'pg';
import { callFromRow, type CallRowBase } from '../call-rows.js';
import type { CallRecord, CallStore, LogQuery, UsageQuery, UsageTotals } from '../types.js';
import type { Query } from './connection.js';
import { LogFilter } from './log-page.js';

export interface CallRow extends CallRowBase {
  test: boolean;
  tags: string[];
}

export const toCall = (r: CallRow): CallRecord => callFromRow(r, r.test, r.tags);

/**
 * A call's values in the order every statement recording it numbers them: $1 account, $2 credits, $3 id (the
 * ledger ref), $4 endpoint (the ledger note), $5 created_at, $6 key id, $7 key name, $8 cache, $9 test, $10 tags,
 * $11 channel, $12 archived result hash, $13 its JSON.
 */
export const callArgs = (call: CallRecord): unknown[] => [
  call.accountId,
  call.credits,
  call.id,
  call.endpoint,
  call.createdAt,
  call.keyId,
  call.keyName,
  call.cache,
  call.test,
  call.tags,
  call.channel,
  call.result?.hash ?? null,
  call.result?.json ?? null,
];

export class PostgresCalls implements CallStore {
  constructor(private readonly q: Query) {}

  /** Records a call and archives its answer, in one statement (on `client` inside a transaction). */
  async record(call: CallRecord, client?: pg.PoolClient): Promise<void> {
    const sql = `WITH b AS (INSERT INTO result_bodies (day, hash, data)
                   SELECT to_timestamp($5 / 1000.0)::date, $12, $13 WHERE $12::text IS NOT NULL ON CONFLICT DO NOTHING)
                 INSERT INTO calls (account_id, id, key_id, key_name, endpoint, credits, cache, test, tags, channel, created_at, result_hash)
                 VALUES ($1, $3, $6, $7, $4, $2, $8, $9, $10, $11, $5, $12)`;
    if (client) await client.query(sql, callArgs(call));
    else await this.q(sql, callArgs(call));
  }

  async listCalls(accountId: string, q: LogQuery): Promise<{ rows: CallRecord[]; total: number }> {
    const f = new LogFilter('calls', 'c', accountId, q.sinceMs).shared(q);
    if (q.endpointPrefix) {
      const p = q.endpointPrefix.replace(/[\\%_]/g, (m) => `\\${m}`);
      f.and(`(c.endpoint = ${f.arg(q.endpointPrefix)} OR c.endpoint LIKE ${f.arg(`${p}.%`)} ESCAPE '\\')`);
    }
    const { rows, total } = await f.page<CallRow>(this.q, q.page, q.pageSize);
    return { rows: rows.map(toCall), total };
  }

  async usage(accountId: string, q: UsageQuery): Promise<UsageTotals> {
    const args: unknown[] = q.tag ? [accountId, q.sinceMs, q.tag] : [accountId, q.sinceMs];
    const mode = q.mode ? ` AND ${q.mode === 'test' ? '' : 'NOT '}c.test` : '';
    const cond = `c.account_id = $1 AND c.created_at >= $2${mode}${q.tag ? ' AND c.tags @> ARRAY[$3]::text[]' : ''}`;
    const [totals, byEndpoint, byDay, byTag] = await Promise.all([
      this.q<{ calls: number; credits: number }>(
        `SELECT count(*) AS calls, coalesce(sum(c.credits), 0) AS credits FROM calls c WHERE ${cond}`,
        args,
      ),
      this.q<{ endpoint: string; calls: number; credits: number }>(
        `SELECT c.endpoint AS endpoint, count(*) AS calls, sum(c.credits) AS credits FROM calls c WHERE ${cond}
         GROUP BY c.endpoint ORDER BY credits DESC, endpoint COLLATE "C"`,
        args,
      ),
      this.q<{ day: string; calls: number; credits: number }>(
        `SELECT to_char(to_timestamp(c.created_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS calls,
                sum(c.credits) AS credits FROM calls c WHERE ${cond} GROUP BY day ORDER BY day`,
        args,
      ),
      this.q<{ tag: string; calls: number; credits: number }>(
        `SELECT t.tag AS tag, count(*) AS calls, sum(c.credits) AS credits FROM calls c, unnest(c.tags) AS t(tag)
         WHERE ${cond}${q.tag ? ' AND t.tag = $3' : ''} GROUP BY t.tag ORDER BY credits DESC, tag COLLATE "C"`,
        args,
      ),
    ]);
    return {
      calls: totals.rows[0]!.calls,
      credits: totals.rows[0]!.credits,
      byEndpoint: byEndpoint.rows,
      byDay: byDay.rows,
      byTag: byTag.rows,
    };
  }
}
