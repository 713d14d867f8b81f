/**
 * How both logs (the call log `calls` and the request log `request_log`) are listed on the embedded database: the
 * account and window, the filters they share (endpoint, key, tag) and their own, then one page newest first with
 * the count of all that match.
 */
import type { Database } from 'better-sqlite3';

export class LogFilter {
  private readonly args: unknown[];
  private readonly where: string[];

  /** `alias` names `table` in every condition (`c`, `r`). */
  constructor(
    private readonly table: string,
    private readonly alias: string,
    accountId: string,
    sinceMs: number,
  ) {
    this.args = [accountId, sinceMs];
    this.where = [`${alias}.account_id = ?`, `${alias}.created_at >= ?`];
  }

  /** A condition, with the values of its `?` in order. */
  and(condition: string, ...values: unknown[]): this {
    this.where.push(condition);
    this.args.push(...values);
    return this;
  }

  /** The filters both logs take. */
  shared(q: { endpoint?: string; keyId?: string; tag?: string }): this {
    const a = this.alias;
    if (q.endpoint) this.and(`${a}.endpoint = ?`, q.endpoint);
    if (q.keyId) this.and(`${a}.key_id = ?`, q.keyId);
    if (q.tag) this.and(`EXISTS (SELECT 1 FROM json_each(${a}.tags) WHERE value = ?)`, q.tag);
    return this;
  }

  /** Page `page` (from 0) of `pageSize` rows, newest first, and how many rows match in all. */
  page<R>(db: Database, page: number, pageSize: number): { rows: R[]; total: number } {
    const { table, alias: a, args } = this;
    const cond = this.where.join(' AND ');
    const total = (db.prepare(`SELECT count(*) AS n FROM ${table} ${a} WHERE ${cond}`).get(...args) as { n: number }).n;
    const rows = db
      .prepare(`SELECT ${a}.* FROM ${table} ${a} WHERE ${cond} ORDER BY ${a}.created_at DESC, ${a}.id DESC LIMIT ? OFFSET ?`)
      .all(...args, pageSize, page * pageSize) as R[];
    return { rows, total };
  }
}
