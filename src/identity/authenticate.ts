/**
 * Step: authenticate. `Authorization: Bearer <key>` → keyed hash → store. A key that is present but unknown or
 * revoked is refused even on keyless endpoints: a typo must not silently turn into anonymous, unbilled calls.
 */
import { timingSafeEqual } from 'node:crypto';
import { QuarryError } from '../errors.js';
import type { Store } from '../store/types.js';
import { isKeyShaped } from './key-format.js';
import type { Principal } from './principal.js';
import type { KeyCrypto } from './secret.js';

/** What a key lookup needs: the store's keys, the keyed hash and the cache of recent lookups (the gateway's deps). */
export interface KeyLookup {
  store: Pick<Store, 'findKeyByHash' | 'keysEpoch'>;
  crypto: KeyCrypto;
  principals: PrincipalCache;
}

export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : '';
}

/**
 * Recent lookups, valid while the store's key epoch stands: a revocation or a new key (from this process or the
 * operator CLI) changes the epoch and empties the cache, so it never answers with a stale key.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Principal | null>();
  private epoch = '';

  constructor(private readonly maxEntries = 10_000) {}

  get(apiKey: string, epoch: string): Principal | null | undefined {
    if (epoch !== this.epoch) {
      this.entries.clear();
      this.epoch = epoch;
      return undefined;
    }
    return this.entries.get(apiKey);
  }

  set(apiKey: string, principal: Principal | null): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(apiKey, principal);
  }
}

async function lookUp(deps: KeyLookup, apiKey: string): Promise<Principal | null> {
  const hash = deps.crypto.hash(apiKey);
  const key = await deps.store.findKeyByHash(hash);
  if (!key || key.revoked || key.hash.length !== hash.length || !timingSafeEqual(key.hash, hash)) return null;
  return { keyId: key.id, keyName: key.name, accountId: key.accountId, test: key.test };
}

export async function principalForKey(deps: KeyLookup, apiKey: string): Promise<Principal | null> {
  if (!isKeyShaped(apiKey)) return null;
  const epoch = deps.store.keysEpoch();
  const cached = deps.principals.get(apiKey, epoch);
  if (cached !== undefined) return cached;
  const principal = await lookUp(deps, apiKey);
  // Unknown keys are not remembered: guessing must not be able to flush the cache of real ones.
  if (principal) deps.principals.set(apiKey, principal);
  return principal;
}

/** Returns the principal, null when no key was sent, and throws unauthorized for a bad key. */
export async function authenticate(deps: KeyLookup, authorization: string | undefined): Promise<Principal | null> {
  const apiKey = bearerKey(authorization);
  if (apiKey === undefined) return null;
  const principal = apiKey ? await principalForKey(deps, apiKey) : null;
  if (!principal) throw new QuarryError('unauthorized', await whyRefused(deps, authorization!, apiKey));
  return principal;
}

/**
 * The sentence of a refused key (issue 38.9), worked out on the refusal path only: a key sent without the word
 * Bearer, a revoked key (said as such: its holder knows the key; nothing else of it is told), or an unknown one.
 */
async function whyRefused(deps: KeyLookup, header: string, apiKey: string): Promise<string> {
  if (!apiKey) {
    const bare = header.trim();
    if (isKeyShaped(bare)) return 'Invalid or missing API key: the word Bearer is missing. Send it as Authorization: Bearer qry_….';
    const scheme = /^(\S+)\s/.exec(bare)?.[1];
    return `Invalid or missing API key. Send it as Authorization: Bearer <key>${scheme ? ` (not ${scheme.slice(0, 20)})` : ''}.`;
  }
  if (isKeyShaped(apiKey)) {
    const key = await deps.store.findKeyByHash(deps.crypto.hash(apiKey));
    if (key?.revoked) return 'This API key has been revoked. Create a new key (dashboard, API keys) or ask the operator of this server.';
  }
  return 'Invalid or missing API key.';
}
