/**
 * Idempotency-Key claims on PostgreSQL, shared by every instance: a claim is `running` under a lease its holder
 * renews; a claim whose lease ran out (its instance died) is taken over by the next attempt with the same request.
 */
import type { IdempotencyClaim, IdempotencyRequest, IdempotencyStore, StoredResponse } from '../types.js';
import type { Query } from './connection.js';

export class PostgresIdempotency implements IdempotencyStore {
  constructor(private readonly q: Query) {}

  async claimIdempotency(r: IdempotencyRequest): Promise<IdempotencyClaim> {
    // Insert, or take over an entry whose holder's lease ran out; either way the row comes back with `claimed`.
    const res = await this.q<{ fingerprint: string; state: string; response: string | null; claimed: boolean }>(
      `WITH ins AS (
         INSERT INTO idempotency (scope, key, fingerprint, state, lease_until, expires_at) VALUES ($1, $2, $3, 'running', $4, $5)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'running', response = NULL,
           lease_until = excluded.lease_until, expires_at = excluded.expires_at
         WHERE idempotency.state = 'running' AND idempotency.lease_until <= $6 AND idempotency.fingerprint = excluded.fingerprint
         RETURNING fingerprint, state, response, true AS claimed)
       SELECT * FROM ins
       UNION ALL
       SELECT fingerprint, state, response, false AS claimed FROM idempotency
       WHERE scope = $1 AND key = $2 AND NOT EXISTS (SELECT 1 FROM ins)`,
      [r.scope, r.key, r.fingerprint, r.leaseUntil, r.expiresAt, r.nowMs],
    );
    const row = res.rows[0];
    if (!row) return this.claimIdempotency(r); // deleted between the two halves: try again
    if (row.claimed) return { state: 'claimed' };
    if (row.fingerprint !== r.fingerprint) return { state: 'mismatch' };
    if (row.state === 'done') return { state: 'done', response: JSON.parse(row.response!) as StoredResponse };
    return { state: 'running' };
  }

  async finishIdempotency(scope: string, key: string, response: StoredResponse | null): Promise<void> {
    if (response) {
      await this.q(`UPDATE idempotency SET state = 'done', response = $3 WHERE scope = $1 AND key = $2 AND state = 'running'`, [
        scope,
        key,
        JSON.stringify(response),
      ]);
    } else {
      await this.q(`DELETE FROM idempotency WHERE scope = $1 AND key = $2 AND state = 'running'`, [scope, key]);
    }
  }

  async renewIdempotency(scope: string, key: string, leaseUntil: number): Promise<boolean> {
    const r = await this.q(`UPDATE idempotency SET lease_until = $3 WHERE scope = $1 AND key = $2 AND state = 'running'`, [scope, key, leaseUntil]);
    return (r.rowCount ?? 0) > 0;
  }

  /** Running claims whose holder stopped renewing them (a dead instance's), or all with `all`. */
  async releaseRunning(nowMs: number, all: boolean): Promise<void> {
    await this.q(`DELETE FROM idempotency WHERE state = 'running' AND ($2 OR lease_until <= $1)`, [nowMs, all]);
  }

  /** Drops entries past their expiry. */
  async prune(nowMs: number): Promise<void> {
    await this.q('DELETE FROM idempotency WHERE expires_at <= $1', [nowMs]);
  }
}
