/**
 * A store made of one module per concern: each backend gives its concern modules, and every method of the contract
 * goes to the module that owns it. Housekeeping that spans concerns, and opening and closing, stay with the backend.
 */
import type {
  AccountStore,
  ArchiveStore,
  BudgetSpec,
  BudgetStore,
  CallRecord,
  CallStore,
  IdempotencyRequest,
  IdempotencyStore,
  KeyStore,
  LedgerStore,
  LogQuery,
  NewKey,
  ReserveRequest,
  StoredResponse,
  UsageQuery,
} from './types.js';

export interface Concerns {
  accounts: AccountStore;
  keys: KeyStore;
  ledger: LedgerStore;
  calls: CallStore;
  idempotency: IdempotencyStore;
  budgets: BudgetStore;
  archive: ArchiveStore;
}

export abstract class StoreByConcern
  implements AccountStore, KeyStore, LedgerStore, CallStore, IdempotencyStore, BudgetStore, ArchiveStore
{
  /** Set by the backend's constructor, before any call. */
  protected concerns!: Concerns;

  // accounts
  createAccount(a: { id: string; email: string | null; credits: number }) { return this.concerns.accounts.createAccount(a); }
  getAccount(id: string) { return this.concerns.accounts.getAccount(id); }
  listAccounts() { return this.concerns.accounts.listAccounts(); }

  // keys
  createKey(k: NewKey) { return this.concerns.keys.createKey(k); }
  findKeyByHash(hash: Buffer) { return this.concerns.keys.findKeyByHash(hash); }
  sealedKey(keyId: string) { return this.concerns.keys.sealedKey(keyId); }
  revokeKey(keyId: string) { return this.concerns.keys.revokeKey(keyId); }
  keysEpoch() { return this.concerns.keys.keysEpoch(); }

  // ledger
  addCredits(accountId: string, amount: number, reason: string) { return this.concerns.ledger.addCredits(accountId, amount, reason); }
  reserve(r: ReserveRequest) { return this.concerns.ledger.reserve(r); }
  settle(reservationId: string, call: CallRecord) { return this.concerns.ledger.settle(reservationId, call); }
  release(reservationId: string) { return this.concerns.ledger.release(reservationId); }
  charge(call: CallRecord) { return this.concerns.ledger.charge(call); }
  recordTestCall(call: CallRecord) { return this.concerns.ledger.recordTestCall(call); }

  // calls and usage
  listCalls(accountId: string, q: LogQuery) { return this.concerns.calls.listCalls(accountId, q); }
  usage(accountId: string, q: UsageQuery) { return this.concerns.calls.usage(accountId, q); }

  // idempotency
  claimIdempotency(r: IdempotencyRequest) { return this.concerns.idempotency.claimIdempotency(r); }
  renewIdempotency(scope: string, key: string, leaseUntil: number) { return this.concerns.idempotency.renewIdempotency(scope, key, leaseUntil); }
  finishIdempotency(scope: string, key: string, response: StoredResponse | null) { return this.concerns.idempotency.finishIdempotency(scope, key, response); }

  // budgets
  setBudget(accountId: string, spec: BudgetSpec) { return this.concerns.budgets.setBudget(accountId, spec); }
  deleteBudget(accountId: string, budgetId: string) { return this.concerns.budgets.deleteBudget(accountId, budgetId); }
  budgets(accountId: string, nowMs: number) { return this.concerns.budgets.budgets(accountId, nowMs); }

  // archive
  archivedCall(accountId: string, requestId: string, sinceMs: number) { return this.concerns.archive.archivedCall(accountId, requestId, sinceMs); }
}
