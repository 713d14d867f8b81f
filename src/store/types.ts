/**
 * The storage interface. The embedded implementation is SQLite (./sqlite); a PostgreSQL one implements the same
 * contract for several instances. No handler knows which one runs.
 */

export interface KeyRecord {
  id: string;
  accountId: string;
  name: string;
  /** Keyed hash of the whole key (HMAC-SHA-256), compared in constant time. */
  hash: Buffer;
  test: boolean;
  revoked: boolean;
}

export interface NewKey {
  id: string;
  accountId: string;
  name: string;
  hash: Buffer;
  /** First characters, for display only. */
  prefix: string;
  /** The whole key, encrypted with the server secret, so the dashboard can reveal it. */
  sealed: string;
  test: boolean;
}

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  test: boolean;
  revoked: boolean;
  createdAt: string;
}

export interface AccountView {
  id: string;
  email: string | null;
  balance: number;
  createdAt: string;
  keys: KeyView[];
}

/** One paid call, as the logs and usage listings show it. */
export interface CallRecord {
  id: string;
  accountId: string;
  keyId: string;
  keyName: string;
  endpoint: string;
  credits: number;
  cache: 'hit' | 'miss';
  test: boolean;
  tags: string[];
  createdAt: number;
  /** How the call came in: the REST endpoint or an MCP tool. */
  channel: 'rest' | 'mcp';
}

export type DebitOutcome = { ok: true; balance: number } | { ok: false; balance: number };

export interface LogQuery {
  sinceMs: number;
  page: number;
  pageSize: number;
  endpoint?: string;
  endpointPrefix?: string;
  keyId?: string;
  tag?: string;
}

export interface UsageQuery {
  sinceMs: number;
  tag?: string;
}

export interface UsageTotals {
  calls: number;
  credits: number;
  byEndpoint: { endpoint: string; calls: number; credits: number }[];
  byDay: { day: string; calls: number; credits: number }[];
  byTag: { tag: string; calls: number; credits: number }[];
}

export interface Store {
  /**
   * True when other processes may be serving from the same storage (PostgreSQL): a starting instance must then
   * release only expired holds, never every hold, since the others' calls are still running.
   */
  readonly sharedByInstances: boolean;

  createAccount(a: { id: string; email: string | null; credits: number }): Promise<void>;
  getAccount(id: string): Promise<AccountView | null>;
  addCredits(accountId: string, amount: number, reason: string): Promise<number | null>;

  createKey(k: NewKey): Promise<void>;
  findKeyByHash(hash: Buffer): Promise<KeyRecord | null>;
  /** The sealed key, for reveal; null when unknown. */
  sealedKey(keyId: string): Promise<{ accountId: string; sealed: string } | null>;
  revokeKey(keyId: string): Promise<boolean>;
  /** Changes whenever any key may have changed (here or in another process): cached key lookups are dropped. */
  keysEpoch(): string;

  /** Holds `amount` for a call whose price is not known yet; fails when the balance is short. */
  reserve(r: { id: string; accountId: string; keyId: string; amount: number; expiresAt: number }): Promise<DebitOutcome>;
  /** Turns a hold into a charge of `call.credits` (at most the hold), refunds the rest, records the call. Idempotent. */
  settle(reservationId: string, call: CallRecord): Promise<void>;
  /** Gives a hold back in full. Idempotent. */
  release(reservationId: string): Promise<void>;
  /** Charges a known price in one step (cache hits) and records the call; fails when the balance is short. */
  charge(call: CallRecord): Promise<DebitOutcome>;
  /** Records a test-mode call: logged, never touching the balance. */
  recordTestCall(call: CallRecord): Promise<void>;
  /** Releases holds that expired (a crashed process); returns how many. `all` releases every hold. */
  releaseExpired(nowMs: number, all?: boolean): Promise<number>;

  listCalls(accountId: string, q: LogQuery): Promise<{ rows: CallRecord[]; total: number }>;
  usage(accountId: string, q: UsageQuery): Promise<UsageTotals>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
