/**
 * Storage of the account side (docs/account-api.md): people (users) who belong to accounts, their sign-in
 * sessions, invite codes and their claims, CLI login sessions, and when each key was last used. Two
 * implementations, SQLite (./sqlite/account-side.ts) and PostgreSQL (./postgres/account-side.ts), each on the
 * database of the main store, which opens it (`accountSide()`); `accountSideFor(store)` asks the store that runs.
 *
 * Secrets never reach storage in the clear: session tokens and invite codes are kept as keyed hashes, passwords as
 * scrypt hashes, CLI sessions as the SHA-256 challenge of the CLI's verifier.
 */
import type { Store } from './types.js';

export interface UserRecord {
  id: string;
  accountId: string;
  /** Lower-cased. */
  email: string;
  /** `scrypt$…` (src/auth/password.ts). */
  passwordHash: string;
  createdAt: number;
}

export interface NewUser {
  id: string;
  accountId: string;
  email: string;
  passwordHash: string;
}

export interface SessionRecord {
  /** Public id (`ses_…`), never the cookie's token. */
  id: string;
  userId: string;
  accountId: string;
  email: string;
  createdAt: number;
  lastSeenAt: number;
  /** Absolute expiry. */
  expiresAt: number;
}

export interface InviteRecord {
  id: string;
  /** The first characters of the code, for listings; the code itself is kept only as a keyed hash. */
  codePrefix: string;
  credits: number;
  maxUses: number;
  uses: number;
  /** Epoch ms, or null for no expiry. */
  expiresAt: number | null;
  disabled: boolean;
  createdAt: number;
}

export interface NewInvite {
  id: string;
  codeHash: Buffer;
  codePrefix: string;
  credits: number;
  maxUses: number;
  expiresAt: number | null;
}

/** Why an invite cannot be claimed, in the order the checks run. */
export type ClaimRefusal = 'notFound' | 'disabled' | 'expired' | 'claimed' | 'usedUp';
export type ClaimOutcome = { ok: true; invite: InviteRecord } | { ok: false; reason: ClaimRefusal };

export type CliSessionStatus = 'pending' | 'approved' | 'completed';

export interface CliSessionRecord {
  id: string;
  /** base64url(SHA-256(verifier)). */
  challenge: string;
  name: string;
  status: CliSessionStatus;
  createdAt: number;
  expiresAt: number;
  userId: string | null;
  accountId: string | null;
  keyId: string | null;
}

export interface AccountSideStore {
  /** `emailTaken` when a user with that (lower-cased) e-mail exists. */
  createUser(u: NewUser): Promise<'created' | 'emailTaken'>;
  userByEmail(email: string): Promise<UserRecord | null>;
  userById(id: string): Promise<UserRecord | null>;
  listUsers(): Promise<UserRecord[]>;
  setPassword(userId: string, passwordHash: string): Promise<boolean>;

  createSession(s: { id: string; tokenHash: Buffer; userId: string; createdAt: number; expiresAt: number }): Promise<void>;
  /** The session with its user, whatever its age: the caller applies the idle and absolute expiries. */
  findSession(tokenHash: Buffer): Promise<SessionRecord | null>;
  touchSession(id: string, now: number): Promise<void>;
  deleteSession(id: string): Promise<number>;
  deleteUserSessions(userId: string): Promise<number>;
  /** Drops sessions past either expiry and CLI sessions a day past theirs; returns how many rows went. */
  sweep(now: number, idleMs: number): Promise<number>;

  createInvite(i: NewInvite): Promise<void>;
  listInvites(): Promise<InviteRecord[]>;
  inviteById(id: string): Promise<InviteRecord | null>;
  inviteByCodeHash(codeHash: Buffer): Promise<InviteRecord | null>;
  setInviteDisabled(id: string, disabled: boolean): Promise<boolean>;
  /** Whether this e-mail claimed this invite. */
  hasClaim(inviteId: string, email: string): Promise<boolean>;
  /** Takes one use of the invite for `email`, atomically, or says why not. */
  claimInvite(codeHash: Buffer, email: string, now: number): Promise<ClaimOutcome>;
  /** Gives a use back (the sign-up that took it failed afterwards). */
  releaseClaim(inviteId: string, email: string): Promise<void>;

  /** False when a session with that id exists already. */
  createCliSession(s: { id: string; challenge: string; name: string; createdAt: number; expiresAt: number }): Promise<boolean>;
  cliSession(id: string): Promise<CliSessionRecord | null>;
  /** pending and unexpired → approved by this person; false otherwise. */
  approveCliSession(id: string, userId: string, accountId: string, now: number): Promise<boolean>;
  /** approved and unexpired → completed, exactly once; the record as it was approved, or null. */
  completeCliSession(id: string, now: number): Promise<CliSessionRecord | null>;
  setCliSessionKey(id: string, keyId: string): Promise<void>;

  /** Records that a key was used at `at` (callers throttle this). */
  keyUsed(keyId: string, at: number): Promise<void>;
  lastUsed(keyIds: string[]): Promise<Map<string, number>>;
}

/** A store whose database holds the account side too (both of ours): it opens it, once. */
interface AccountSideHost {
  accountSide(): AccountSideStore;
}

/** The account side on the database of `store`. */
export function accountSideFor(store: Store): AccountSideStore {
  const host = store as Store & Partial<AccountSideHost>;
  if (typeof host.accountSide !== 'function') throw new Error('the account side needs the SQLite or the PostgreSQL store');
  return host.accountSide();
}
