/**
 * The result archive on the embedded database: each answer's body once per day (`result_bodies`), found again
 * through the call that answered it.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { ArchiveStore, CallRecord } from '../types.js';
import { toCall, type CallRow } from './calls.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class SqliteArchive implements ArchiveStore {
  private readonly s: Record<string, Statement>;
  /** Archived answers this process wrote (hash → day): the cache hits of one result skip re-writing its body. */
  private readonly bodiesWritten = new Map<string, string>();

  constructor(db: Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertBody: p('INSERT OR IGNORE INTO result_bodies (day, hash, data) VALUES (?, ?, ?)'),
      archived: p(
        `SELECT c.*, b.data AS data FROM calls c JOIN result_bodies b ON b.hash = c.result_hash
           AND b.day = strftime('%Y-%m-%d', c.created_at / 1000, 'unixepoch')
         WHERE c.account_id = ? AND c.id = ? AND c.created_at >= ?`,
      ),
      pruneBodies: p('DELETE FROM result_bodies WHERE day < ?'),
    };
  }

  /** Keeps a call's answer (inside the write batch's transaction), unless this process wrote it already today. */
  keepNow(call: CallRecord): void {
    if (!call.result) return;
    const d = day(call.createdAt);
    if (this.bodiesWritten.get(call.result.hash) === d) return;
    this.s.insertBody.run(d, call.result.hash, call.result.json);
    if (this.bodiesWritten.size >= 10_000) this.bodiesWritten.clear();
    this.bodiesWritten.set(call.result.hash, d);
  }

  /** A write batch rolled back: the bodies it wrote may be gone. */
  forgetWritten(): void {
    this.bodiesWritten.clear();
  }

  async archivedCall(accountId: string, requestId: string, sinceMs: number): Promise<{ call: CallRecord; dataJson: string } | null> {
    const r = this.s.archived.get(accountId, requestId, sinceMs) as (CallRow & { data: string }) | undefined;
    return r ? { call: toCall(r), dataJson: r.data } : null;
  }

  /** Drops the days before `beforeMs` (inside the write batch's transaction). */
  pruneNow(beforeMs: number): void {
    this.s.pruneBodies.run(day(beforeMs));
  }
}
