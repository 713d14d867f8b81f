/**
 * How both logs (the call log `calls` and the request log `request_log`) are listed on PostgreSQL: the account and
 * window, the filters they share (endpoint, key, tag) and their own, then one page newest first with the count of
 * all that match.
 */
import type pg from 'pg';
import type { Query } from './connection.js';

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
    this.where = [`${alias}.account_id = $1`, `${alias}.created_at >= $2`];
  }

  /** `v` as the next parameter, for a condition that names it. */
  arg(v: unknown): string {
    this.args.push(v);
    return `$${this.args.length}`;
  }

  and(condition: string): this {
    this.where.push(condition);
    return this;
  }

  /** The filters both logs take. */
  shared(q: { endpoint?: string; keyId?: string; tag?: string }): this {
    const a = this.alias;
    if (q.endpoint) this.and(`${a}.endpoint = ${this.arg(q.endpoint)}`);
    if (q.keyId) this.and(`${a}.key_id = ${this.arg(q.keyId)}`);
    if (q.tag) this.and(`${a}.tags @> ARRAY[${this.arg(q.tag)}]::text[]`);
    return this;
  }

  /** Page `page` (from 0) of `pageSize` rows, newest first, and how many rows match in all. */
  async page<R extends pg.QueryResultRow>(query: Query, page: number, pageSize: number): Promise<{ rows: R[]; total: number }> {
    const { table, alias: a } = this;
    const cond = this.where.join(' AND ');
    const total = (await query<{ n: number }>(`SELECT count(*) AS n FROM ${table} ${a} WHERE ${cond}`, this.args)).rows[0]!.n;
    const limit = this.arg(pageSize);
    const offset = this.arg(page * pageSize);
    const sql = `SELECT ${a}.* FROM ${table} ${a} WHERE ${cond} ORDER BY ${a}.created_at DESC, ${a}.id COLLATE "C" DESC LIMIT ${limit} OFFSET ${offset}`;
    return { rows: (await query<R>(sql, this.args)).rows, total };
  }
}
