/**
 * Idempotency-Key claims on the embedded database. A claim is `running` under a lease its holder renews; a claim
 * whose lease ran out (its process died) is taken over by the next attempt with the same request.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { IdempotencyClaim, IdempotencyRequest, IdempotencyStore, StoredResponse } from '../types.js';
import type { WriteBatch } from './write-batch.js';

export class SqliteIdempotency implements IdempotencyStore {
  private readonly s: Record<string, Statement>;

  constructor(
    db: Database,
    private readonly batch: WriteBatch,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      idempotency: p('SELECT fingerprint, state, response, lease_until FROM idempotency WHERE scope = ? AND key = ?'),
      claimIdempotency: p(
        "INSERT INTO idempotency (scope, key, fingerprint, state, lease_until, expires_at) VALUES (?, ?, ?, 'running', ?, ?)",
      ),
      takeOverIdempotency: p(
        "UPDATE idempotency SET fingerprint = ?, state = 'running', response = NULL, lease_until = ?, expires_at = ? WHERE scope = ? AND key = ?",
      ),
      finishIdempotency: p("UPDATE idempotency SET state = 'done', response = ? WHERE scope = ? AND key = ? AND state = 'running'"),
      forgetIdempotency: p("DELETE FROM idempotency WHERE scope = ? AND key = ? AND state = 'running'"),
      renewIdempotency: p("UPDATE idempotency SET lease_until = ? WHERE scope = ? AND key = ? AND state = 'running'"),
      releaseClaims: p("DELETE FROM idempotency WHERE state = 'running' AND (? OR lease_until <= ?)"),
      pruneIdempotency: p('DELETE FROM idempotency WHERE expires_at <= ?'),
    };
  }

  claimIdempotency(r: IdempotencyRequest): Promise<IdempotencyClaim> {
    return this.batch.submit((): IdempotencyClaim => {
      const row = this.s.idempotency.get(r.scope, r.key) as
        | { fingerprint: string; state: string; response: string | null; lease_until: number }
        | undefined;
      if (!row) {
        this.s.claimIdempotency.run(r.scope, r.key, r.fingerprint, r.leaseUntil, r.expiresAt);
        return { state: 'claimed' };
      }
      if (row.fingerprint !== r.fingerprint) return { state: 'mismatch' };
      if (row.state === 'done') return { state: 'done', response: JSON.parse(row.response!) as StoredResponse };
      if (row.lease_until > r.nowMs) return { state: 'running' };
      // The first attempt's process died mid-call: this one takes over.
      this.s.takeOverIdempotency.run(r.fingerprint, r.leaseUntil, r.expiresAt, r.scope, r.key);
      return { state: 'claimed' };
    });
  }

  async finishIdempotency(scope: string, key: string, response: StoredResponse | null): Promise<void> {
    await this.batch.submit(() => {
      if (response) this.s.finishIdempotency.run(JSON.stringify(response), scope, key);
      else this.s.forgetIdempotency.run(scope, key);
    });
  }

  renewIdempotency(scope: string, key: string, leaseUntil: number): Promise<boolean> {
    return this.batch.submit(() => this.s.renewIdempotency.run(leaseUntil, scope, key).changes > 0);
  }

  /** Drops running claims whose lease ran out, or all with `all` (inside the write batch's transaction). */
  releaseRunningNow(nowMs: number, all: boolean): void {
    this.s.releaseClaims.run(all ? 1 : 0, nowMs);
  }

  /** Drops entries past their expiry (inside the write batch's transaction). */
  pruneNow(nowMs: number): void {
    this.s.pruneIdempotency.run(nowMs);
  }
}
