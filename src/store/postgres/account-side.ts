/**
 * The account side on PostgreSQL: its own tables in the store's schema, created by its own versioned migrations
 * (tracked apart from the store's, so both lists grow independently) under an advisory lock. Writes are single
 * statements, except the invite claim: one transaction that locks the invite row, so instances claiming the last
 * use at the same moment cannot both get it.
 */
import type pg from 'pg';
import type {
  AccountSideStore,
  ClaimOutcome,
  CliSessionRecord,
  InviteRecord,
  NewInvite,
  NewUser,
  SessionRecord,
  UserRecord,
} from '../account-side.js';
import {
  INVITE_COLS,
  SESSION_SELECT,
  inviteRefusal,
  toCli,
  toInvite,
  toSession,
  toUser,
  type CliRow,
  type InviteRow,
  type SessionRow,
  type UserRow,
} from '../account-side-rows.js';
import { onceUntilDone, runMigrations, type Migration } from './migrate.js';
import { inTransaction, orUnavailable, type StoreDatabase } from './connection.js';

const MIGRATION_LOCK = 0x5175_6173; // "Quas"

export const ACCOUNT_SIDE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'users, sessions, invites, invite claims, CLI sessions, key last use',
    sql: `
CREATE TABLE users (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  email text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX users_account ON users(account_id);
CREATE TABLE sessions (
  id text PRIMARY KEY,
  token_hash bytea NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at bigint NOT NULL,
  last_seen_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE invites (
  id text PRIMARY KEY,
  code_hash bytea NOT NULL UNIQUE,
  code_prefix text NOT NULL,
  credits bigint NOT NULL CHECK (credits >= 0),
  max_uses integer NOT NULL CHECK (max_uses >= 1),
  uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
  expires_at bigint,
  disabled boolean NOT NULL DEFAULT false,
  created_at bigint NOT NULL
);
CREATE TABLE invite_claims (
  invite_id text NOT NULL REFERENCES invites(id),
  email text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (invite_id, email)
);
CREATE TABLE cli_sessions (
  id text PRIMARY KEY,
  challenge text NOT NULL,
  name text NOT NULL,
  status text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  user_id text,
  account_id text,
  key_id text
);
CREATE TABLE key_last_used (
  key_id text PRIMARY KEY,
  used_at bigint NOT NULL
);
`,
  },
];

export class PostgresAccountSide implements AccountSideStore {
  constructor(private readonly store: StoreDatabase) {}

  private get pool(): pg.Pool {
    return this.store.pool;
  }

  /** The store's migrations first (accounts must exist), then ours, once per process. */
  private readonly migrate = onceUntilDone(async () => {
    await this.store.migrate();
    await runMigrations(this.pool, { lock: MIGRATION_LOCK, table: 'account_side_migrations', migrations: ACCOUNT_SIDE_MIGRATIONS });
  });

  private q<R extends pg.QueryResultRow>(sql: string, args: unknown[] = []): Promise<pg.QueryResult<R>> {
    return orUnavailable(async () => {
      await this.migrate();
      return this.pool.query<R>(sql, args);
    });
  }

  /** One transaction on one connection; rolled back when `fn` throws. */
  private tx<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    return inTransaction(async () => {
      await this.migrate();
      return this.pool.connect();
    }, fn);
  }

  async createUser(u: NewUser): Promise<'created' | 'emailTaken'> {
    const r = await this.q(
      `INSERT INTO users (id, account_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (email) DO NOTHING`,
      [u.id, u.accountId, u.email, u.passwordHash, Date.now()],
    );
    return r.rowCount === 1 ? 'created' : 'emailTaken';
  }

  async userByEmail(email: string): Promise<UserRecord | null> {
    const r = (await this.q<UserRow>('SELECT * FROM users WHERE email = $1', [email])).rows[0];
    return r ? toUser(r) : null;
  }

  async userById(id: string): Promise<UserRecord | null> {
    const r = (await this.q<UserRow>('SELECT * FROM users WHERE id = $1', [id])).rows[0];
    return r ? toUser(r) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return (await this.q<UserRow>('SELECT * FROM users ORDER BY created_at, id COLLATE "C"')).rows.map(toUser);
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    return (await this.q('UPDATE users SET password_hash = $1 WHERE id = $2', [passwordHash, userId])).rowCount === 1;
  }

  async createSession(s: { id: string; tokenHash: Buffer; userId: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.q(
      'INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $4, $5)',
      [s.id, s.tokenHash, s.userId, s.createdAt, s.expiresAt],
    );
  }

  async findSession(tokenHash: Buffer): Promise<SessionRecord | null> {
    const r = (await this.q<SessionRow>(`${SESSION_SELECT} WHERE s.token_hash = $1`, [tokenHash])).rows[0];
    return r ? toSession(r) : null;
  }

  async touchSession(id: string, now: number): Promise<void> {
    await this.q('UPDATE sessions SET last_seen_at = $1 WHERE id = $2 AND last_seen_at < $1', [now, id]);
  }

  async deleteSession(id: string): Promise<number> {
    return (await this.q('DELETE FROM sessions WHERE id = $1', [id])).rowCount ?? 0;
  }

  async deleteUserSessions(userId: string): Promise<number> {
    return (await this.q('DELETE FROM sessions WHERE user_id = $1', [userId])).rowCount ?? 0;
  }

  async sweep(now: number, idleMs: number): Promise<number> {
    const a = await this.q('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, now - idleMs]);
    const b = await this.q('DELETE FROM cli_sessions WHERE expires_at <= $1', [now - 86_400_000]);
    return (a.rowCount ?? 0) + (b.rowCount ?? 0);
  }

  async createInvite(i: NewInvite): Promise<void> {
    await this.q(
      'INSERT INTO invites (id, code_hash, code_prefix, credits, max_uses, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [i.id, i.codeHash, i.codePrefix, i.credits, i.maxUses, i.expiresAt, Date.now()],
    );
  }

  async listInvites(): Promise<InviteRecord[]> {
    return (await this.q<InviteRow>(`SELECT ${INVITE_COLS} FROM invites ORDER BY created_at, id COLLATE "C"`)).rows.map(toInvite);
  }

  async inviteById(id: string): Promise<InviteRecord | null> {
    const r = (await this.q<InviteRow>(`SELECT ${INVITE_COLS} FROM invites WHERE id = $1`, [id])).rows[0];
    return r ? toInvite(r) : null;
  }

  async inviteByCodeHash(codeHash: Buffer): Promise<InviteRecord | null> {
    const r = (await this.q<InviteRow>(`SELECT ${INVITE_COLS} FROM invites WHERE code_hash = $1`, [codeHash])).rows[0];
    return r ? toInvite(r) : null;
  }

  async setInviteDisabled(id: string, disabled: boolean): Promise<boolean> {
    return (await this.q('UPDATE invites SET disabled = $1 WHERE id = $2', [disabled, id])).rowCount === 1;
  }

  async hasClaim(inviteId: string, email: string): Promise<boolean> {
    return (await this.q('SELECT 1 FROM invite_claims WHERE invite_id = $1 AND email = $2', [inviteId, email])).rowCount === 1;
  }

  async claimInvite(codeHash: Buffer, email: string, now: number): Promise<ClaimOutcome> {
    return this.tx(async (c): Promise<ClaimOutcome> => {
      const row = (await c.query<InviteRow>(`SELECT ${INVITE_COLS} FROM invites WHERE code_hash = $1 FOR UPDATE`, [codeHash])).rows[0];
      if (!row) return { ok: false, reason: 'notFound' };
      const refused = inviteRefusal(row, now);
      if (refused) return { ok: false, reason: refused };
      // The invite row is locked: a claim by the same e-mail in flight elsewhere has committed or waits behind us.
      if ((await c.query('SELECT 1 FROM invite_claims WHERE invite_id = $1 AND email = $2', [row.id, email])).rowCount) {
        return { ok: false, reason: 'claimed' };
      }
      if (row.uses >= row.max_uses) return { ok: false, reason: 'usedUp' };
      await c.query('UPDATE invites SET uses = uses + 1 WHERE id = $1', [row.id]);
      await c.query('INSERT INTO invite_claims (invite_id, email, created_at) VALUES ($1, $2, $3)', [row.id, email, now]);
      return { ok: true, invite: toInvite({ ...row, uses: row.uses + 1 }) };
    });
  }

  async releaseClaim(inviteId: string, email: string): Promise<void> {
    await this.q(
      `WITH d AS (DELETE FROM invite_claims WHERE invite_id = $1 AND email = $2 RETURNING invite_id)
       UPDATE invites SET uses = uses - 1 WHERE id IN (SELECT invite_id FROM d) AND uses > 0`,
      [inviteId, email],
    );
  }

  async createCliSession(s: { id: string; challenge: string; name: string; createdAt: number; expiresAt: number }): Promise<boolean> {
    const r = await this.q(
      `INSERT INTO cli_sessions (id, challenge, name, status, created_at, expires_at) VALUES ($1, $2, $3, 'pending', $4, $5)
       ON CONFLICT (id) DO NOTHING`,
      [s.id, s.challenge, s.name, s.createdAt, s.expiresAt],
    );
    return r.rowCount === 1;
  }

  async cliSession(id: string): Promise<CliSessionRecord | null> {
    const r = (await this.q<CliRow>('SELECT * FROM cli_sessions WHERE id = $1', [id])).rows[0];
    return r ? toCli(r) : null;
  }

  async approveCliSession(id: string, userId: string, accountId: string, now: number): Promise<boolean> {
    const r = await this.q(
      `UPDATE cli_sessions SET status = 'approved', user_id = $1, account_id = $2
       WHERE id = $3 AND status = 'pending' AND expires_at > $4`,
      [userId, accountId, id, now],
    );
    return r.rowCount === 1;
  }

  async completeCliSession(id: string, now: number): Promise<CliSessionRecord | null> {
    const r = (
      await this.q<CliRow>(
        "UPDATE cli_sessions SET status = 'completed' WHERE id = $1 AND status = 'approved' AND expires_at > $2 RETURNING *",
        [id, now],
      )
    ).rows[0];
    return r ? toCli(r) : null;
  }

  async setCliSessionKey(id: string, keyId: string): Promise<void> {
    await this.q('UPDATE cli_sessions SET key_id = $1 WHERE id = $2', [keyId, id]);
  }

  async keyUsed(keyId: string, at: number): Promise<void> {
    await this.q(
      `INSERT INTO key_last_used (key_id, used_at) VALUES ($1, $2)
       ON CONFLICT (key_id) DO UPDATE SET used_at = GREATEST(key_last_used.used_at, excluded.used_at)`,
      [keyId, at],
    );
  }

  async lastUsed(keyIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (keyIds.length === 0) return out;
    const rows = (await this.q<{ key_id: string; used_at: number }>('SELECT key_id, used_at FROM key_last_used WHERE key_id = ANY($1)', [keyIds])).rows;
    for (const r of rows) out.set(r.key_id, r.used_at);
    return out;
  }
}
