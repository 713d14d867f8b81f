/**
 * The storage interface. The embedded implementation is SQLite (./sqlite); a PostgreSQL one implements the same
 * contract for several instances. No handler knows which one runs. One interface per concern, each implemented by a
 * module of that name in both backends (accounts, keys, ledger, calls, idempotency, budgets, archive), composed into
 * `Store`.
 */
import type { Budget, BudgetSpec, BudgetStatus } from '../budgets/types.js';

/** Budgets are declared with their rules (src/budgets); the contract names them. */
export type { Budget, BudgetPeriod, BudgetScope, BudgetSpec, BudgetStatus } from '../budgets/types.js';

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

export interface AccountSummary {
  id: string;
  email: string | null;
  balance: number;
  createdAt: string;
  keys: number;
  revokedKeys: number;
}

/** Where a call's answer came from: the source, a fresh cached result, or a stale one served because the source failed. */
export type CacheOutcome = 'hit' | 'miss' | 'stale';

/** One paid call, as the logs and usage listings show it. */
export interface CallRecord {
  id: string;
  accountId: string;
  keyId: string;
  keyName: string;
  endpoint: string;
  credits: number;
  cache: CacheOutcome;
  test: boolean;
  tags: string[];
  createdAt: number;
  /** How the call came in: the REST endpoint or an MCP tool. */
  channel: 'rest' | 'mcp' | 'legacy';
  /** The `data` the call answered (serialised) and its SHA-256: kept for the result archive. */
  result?: { hash: string; json: string };
}

/** A refused debit says why: the balance is short, or a budget (with what it has left) would be exceeded. */
export type DebitOutcome = { ok: true; balance: number } | { ok: false; balance: number; budget?: BudgetStatus };

// ---------------------------------------------------------------- idempotency

/** A response as sent, kept so a retry with the same Idempotency-Key gets exactly it again. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type IdempotencyClaim =
  | { state: 'claimed' }
  | { state: 'running' }
  | { state: 'done'; response: StoredResponse }
  | { state: 'mismatch' };

export interface IdempotencyRequest {
  /** The API key the requests come with: keys never see each other's entries. */
  scope: string;
  key: string;
  /** Hash of the endpoint and the body: the same key with another request is refused. */
  fingerprint: string;
  nowMs: number;
  /** A `running` entry older than this is taken over (its process died). */
  leaseUntil: number;
  expiresAt: number;
}

export interface ReserveRequest {
  id: string;
  accountId: string;
  keyId: string;
  /** The call's tags: tag budgets apply to calls carrying them. */
  tags: string[];
  amount: number;
  expiresAt: number;
  /**
   * The instance holding it, on a store shared by instances: once that instance's lease (a running claim in the
   * `INSTANCE_LEASE_SCOPE`, renewed as Idempotency-Key claims are) runs out, any instance's sweep releases the hold,
   * without waiting for `expiresAt`.
   */
  instance?: string;
}

/**
 * The scope of instance leases among the running claims (the Idempotency-Key table's): the key is the instance id.
 * API key ids, the scope of Idempotency-Key claims, all start `key_`, so the two never meet.
 */
export const INSTANCE_LEASE_SCOPE = 'instance';

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
  /** Calls of live keys only, or of test-mode keys only (whose credits are reported prices, never spent). */
  mode?: 'live' | 'test';
}

export interface UsageTotals {
  calls: number;
  credits: number;
  byEndpoint: { endpoint: string; calls: number; credits: number }[];
  byDay: { day: string; calls: number; credits: number }[];
  byTag: { tag: string; calls: number; credits: number }[];
}

// ---------------------------------------------------------------- the contract, one interface per concern

/** Accounts: who pays, with their balance and keys as the account API shows them. */
export interface AccountStore {
  createAccount(a: { id: string; email: string | null; credits: number }): Promise<void>;
  getAccount(id: string): Promise<AccountView | null>;
  /** Every account, oldest first, with its balance and how many keys it has (revoked ones apart). */
  listAccounts(): Promise<AccountSummary[]>;
}

/** API keys: stored as a keyed hash, looked up by it on every call. */
export interface KeyStore {
  createKey(k: NewKey): Promise<void>;
  findKeyByHash(hash: Buffer): Promise<KeyRecord | null>;
  /** The sealed key, for reveal; null when unknown. */
  sealedKey(keyId: string): Promise<{ accountId: string; sealed: string } | null>;
  revokeKey(keyId: string): Promise<boolean>;
  /** Changes whenever any key may have changed (here or in another process): cached key lookups are dropped. */
  keysEpoch(): string;
}

/** The ledger: credits granted, held for running calls, charged, refunded; every charge records its call. */
export interface LedgerStore {
  addCredits(accountId: string, amount: number, reason: string): Promise<number | null>;
  /** Holds `amount` for a call whose price is not known yet; fails when the balance is short. */
  reserve(r: ReserveRequest): Promise<DebitOutcome>;
  /** Turns a hold into a charge of `call.credits` (at most the hold), refunds the rest, records the call. Idempotent. */
  settle(reservationId: string, call: CallRecord): Promise<void>;
  /** Gives a hold back in full. Idempotent. */
  release(reservationId: string): Promise<void>;
  /** Charges a known price in one step (cache hits) and records the call; fails when the balance is short. */
  charge(call: CallRecord): Promise<DebitOutcome>;
  /** Records a test-mode call: logged, never touching the balance. */
  recordTestCall(call: CallRecord): Promise<void>;
}

/** The paid calls recorded by the ledger, as the logs and usage listings read them. */
export interface CallStore {
  listCalls(accountId: string, q: LogQuery): Promise<{ rows: CallRecord[]; total: number }>;
  usage(accountId: string, q: UsageQuery): Promise<UsageTotals>;
}

/** Idempotency-Key claims (and, in their table, instance leases). */
export interface IdempotencyStore {
  /** Claims an idempotency key, or says it is running, done (with its response) or used with another request. */
  claimIdempotency(r: IdempotencyRequest): Promise<IdempotencyClaim>;
  /** Extends a running claim's lease (its holder is alive); false (nothing done) when the claim is gone or finished. */
  renewIdempotency(scope: string, key: string, leaseUntil: number): Promise<boolean>;
  /** Stores the final response of a claimed key; null forgets the claim so a retry runs again. */
  finishIdempotency(scope: string, key: string, response: StoredResponse | null): Promise<void>;
}

/** Budgets: their specs here; their enforcement is atomic with every debit of the ledger. */
export interface BudgetStore {
  /** Creates or changes the account's budget for (scope, target, period). */
  setBudget(accountId: string, spec: BudgetSpec): Promise<Budget>;
  deleteBudget(accountId: string, budgetId: string): Promise<boolean>;
  /** The account's budgets with what they have spent, held and left in the current period. */
  budgets(accountId: string, nowMs: number): Promise<BudgetStatus[]>;
}

/** The result archive: the answers of recent calls, kept once per answer and day. */
export interface ArchiveStore {
  /** The archived answer of one of the account's calls made since `sinceMs`, or null. */
  archivedCall(accountId: string, requestId: string, sinceMs: number): Promise<{ call: CallRecord; dataJson: string } | null>;
}

/** The whole store: every concern above, plus the housekeeping that spans them. */
export interface Store extends AccountStore, KeyStore, LedgerStore, CallStore, IdempotencyStore, BudgetStore, ArchiveStore {
  /**
   * True when other processes may be serving from the same storage (PostgreSQL): a starting instance must then
   * release only expired holds, never every hold, since the others' calls are still running.
   */
  readonly sharedByInstances: boolean;

  /**
   * Releases holds that expired (a crashed process), and on a shared store the holds of instances whose lease ran
   * out (a crashed instance); returns how many. `all` releases every hold. Running claims (Idempotency-Key claims,
   * instance leases) go with them: those whose lease ran out, or every one with `all`.
   */
  releaseExpired(nowMs: number, all?: boolean): Promise<number>;
  /** Drops archived answers and idempotency entries that are past their time. */
  pruneExpired(r: { archiveBeforeMs: number; nowMs: number }): Promise<void>;

  ping(): Promise<void>;
  close(): Promise<void>;
}
