/**
 * Instance leases (issue 35.3): on a store shared by instances, each instance holds a lease while it runs, and the
 * credit holds of its running calls name it. An instance that dies, even by SIGKILL, stops renewing; once its lease
 * has run out, the next sweep of any survivor releases its holds (`Store.releaseExpired`), about 15-20 s after the
 * death instead of at the holds' own expiry (`QUARRY_RESERVATION_TTL_SECONDS`, 300 s).
 *
 * No second lease system: an instance lease is a running claim in the claims table of Idempotency-Key, in a scope of
 * its own (`INSTANCE_LEASE_SCOPE`), with the same 15 s lease renewed every 5 s by the same `holdClaim`, and swept by
 * the same statement that drops the running claims of dead holders.
 */
import { newId } from '../lib/ids.js';
import { INSTANCE_LEASE_SCOPE, type Store } from '../store/types.js';
import type { Logger } from '../sources/types.js';
import { IDEMPOTENCY_LEASE_MS, holdClaim } from './idempotency.js';

/** How often a survivor looks for holds of dead instances: as often as leases are renewed. */
export const INSTANCE_SWEEP_MS = Math.floor(IDEMPOTENCY_LEASE_MS / 3);
/** An instance lease is never pruned by age (only by running out): its `expires_at` is the end of time. */
const NEVER_MS = 253_402_300_799_000; // 9999-12-31

export interface InstanceLease {
  readonly id: string;
  /** Stops renewing and gives the lease up (a clean shutdown: the holds left, if any, are released at once). */
  close(): Promise<void>;
}

async function claim(store: Store, id: string): Promise<boolean> {
  const now = Date.now();
  const r = await store.claimIdempotency({
    scope: INSTANCE_LEASE_SCOPE,
    key: id,
    fingerprint: 'instance',
    nowMs: now,
    leaseUntil: now + IDEMPOTENCY_LEASE_MS,
    expiresAt: NEVER_MS,
  });
  return r.state === 'claimed';
}

/** Takes this instance's lease (before it reserves anything) and keeps it while the process lives. */
export async function takeInstanceLease(store: Store, log: Logger): Promise<InstanceLease> {
  const id = newId('inst');
  if (!(await claim(store, id))) throw new Error(`instance lease ${id} is taken`);
  let reclaiming = false;
  const stop = holdClaim(
    store,
    { scope: INSTANCE_LEASE_SCOPE, key: id },
    (e) => log.error({ err: e }, 'could not renew this instance lease'),
    IDEMPOTENCY_LEASE_MS,
    () => {
      // The lease ran out while this instance was alive (a stall longer than 15 s, or the database unreachable that
      // long): survivors may have released the holds of calls running here; those calls are then not billed.
      if (reclaiming) return;
      reclaiming = true;
      log.warn({ instance: id }, 'this instance lease had run out (a stall of 15 s or more): taking it again');
      claim(store, id)
        .catch((e) => log.error({ err: e }, 'could not take this instance lease again'))
        .finally(() => (reclaiming = false));
    },
  );
  return {
    id,
    async close() {
      stop();
      await store.finishIdempotency(INSTANCE_LEASE_SCOPE, id, null);
    },
  };
}
