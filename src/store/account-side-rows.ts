/**
 * The account side's rows as both databases return them (same tables, same column names) and their mapping to the
 * records of ./account-side.ts; the checks of an invite claim that need nothing but the row. One place, so the two
 * implementations cannot drift apart.
 */
import type { ClaimRefusal, CliSessionRecord, InviteRecord, SessionRecord, UserRecord } from './account-side.js';

export interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string;
  created_at: number;
}

export interface InviteRow {
  id: string;
  code_prefix: string;
  credits: number;
  max_uses: number;
  uses: number;
  expires_at: number | null;
  /** PostgreSQL answers a boolean, SQLite 0 or 1. */
  disabled: boolean | number;
  created_at: number;
}

export interface CliRow {
  id: string;
  challenge: string;
  name: string;
  status: CliSessionRecord['status'];
  created_at: number;
  expires_at: number;
  user_id: string | null;
  account_id: string | null;
  key_id: string | null;
}

/** A session joined with its user (SESSION_SELECT). */
export interface SessionRow {
  id: string;
  user_id: string;
  account_id: string;
  email: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export const INVITE_COLS = 'id, code_prefix, credits, max_uses, uses, expires_at, disabled, created_at';

/** Followed by the backend's `WHERE s.token_hash = <placeholder>`. */
export const SESSION_SELECT = `SELECT s.id, s.user_id, u.account_id, u.email, s.created_at, s.last_seen_at, s.expires_at
         FROM sessions s JOIN users u ON u.id = s.user_id`;

export const toUser = (r: UserRow): UserRecord => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
});

export const toInvite = (r: InviteRow): InviteRecord => ({
  id: r.id,
  codePrefix: r.code_prefix,
  credits: r.credits,
  maxUses: r.max_uses,
  uses: r.uses,
  expiresAt: r.expires_at,
  disabled: r.disabled === true || r.disabled === 1,
  createdAt: r.created_at,
});

export const toCli = (r: CliRow): CliSessionRecord => ({
  id: r.id,
  challenge: r.challenge,
  name: r.name,
  status: r.status,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  userId: r.user_id,
  accountId: r.account_id,
  keyId: r.key_id,
});

export const toSession = (r: SessionRow): SessionRecord => ({
  id: r.id,
  userId: r.user_id,
  accountId: r.account_id,
  email: r.email,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

/** The claim checks that need only the invite's row, in their order; those needing the database come after. */
export function inviteRefusal(row: InviteRow, now: number): ClaimRefusal | null {
  if (row.disabled === true || row.disabled === 1) return 'disabled';
  if (row.expires_at !== null && row.expires_at <= now) return 'expired';
  return null;
}
