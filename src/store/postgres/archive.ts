/**
 * The result archive on PostgreSQL: each answer's body once per day (`result_bodies`), written by the ledger's
 * statements with the call, found again through the call that answered it.
 */
import type { ArchiveStore, CallRecord } from '../types.js';
import { toCall, type CallRow } from './calls.js';
import type { Query } from './connection.js';

export class PostgresArchive implements ArchiveStore {
  constructor(private readonly q: Query) {}

  async archivedCall(accountId: string, requestId: string, sinceMs: number): Promise<{ call: CallRecord; dataJson: string } | null> {
    const r = await this.q<CallRow & { data: string }>(
      `SELECT c.*, b.data FROM calls c JOIN result_bodies b ON b.hash = c.result_hash AND b.day = to_timestamp(c.created_at / 1000.0)::date
       WHERE c.account_id = $1 AND c.id = $2 AND c.created_at >= $3`,
      [accountId, requestId, sinceMs],
    );
    const row = r.rows[0];
    return row ? { call: toCall(row), dataJson: row.data } : null;
  }

  /** Drops the days before `beforeMs`. */
  async prune(beforeMs: number): Promise<void> {
    await this.q('DELETE FROM result_bodies WHERE day < to_timestamp($1 / 1000.0)::date', [beforeMs]);
  }
}
