/**
 * The account side on the embedded database: its own tables in the same SQLite file, created at open. These are
 * rare writes (a sign-in, an invite claim), so they commit on their own instead of joining the paid calls' group
 * commit; the invite claim is one IMMEDIATE transaction, so the operator CLI writing the same file cannot race it.
 */
import type { Database, Statement } from 'better-sqlite3';
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

export const ACCOUNT_SIDE_SCHEMA = `
CREATE TABLE IF NOT EXISTS users (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS users_account ON users(account_id);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  token_hash BLOB NOT NULL UNIQUE,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
CREATE TABLE IF NOT EXISTS invites (
  id TEXT PRIMARY KEY,
  code_hash BLOB NOT NULL UNIQUE,
  code_prefix TEXT NOT NULL,
  credits INTEGER NOT NULL CHECK (credits >= 0),
  max_uses INTEGER NOT NULL CHECK (max_uses >= 1),
  uses INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
  expires_at INTEGER,
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS invite_claims (
  invite_id TEXT NOT NULL REFERENCES invites(id),
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (invite_id, email)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS cli_sessions (
  id TEXT PRIMARY KEY,
  challenge TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  user_id TEXT,
  account_id TEXT,
  key_id TEXT
);
CREATE TABLE IF NOT EXISTS key_last_used (
  key_id TEXT PRIMARY KEY,
  used_at INTEGER NOT NULL
) WITHOUT ROWID;
`;

export class SqliteAccountSide implements AccountSideStore {
  private readonly s: Record<string, Statement>;
  private readonly claim: (codeHash: Buffer, email: string, now: number) => ClaimOutcome;

  constructor(private readonly db: Database) {
    db.exec(ACCOUNT_SIDE_SCHEMA);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertUser: p('INSERT INTO users (id, account_id, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING'),
      userByEmail: p('SELECT * FROM users WHERE email = ?'),
      userById: p('SELECT * FROM users WHERE id = ?'),
      users: p('SELECT * FROM users ORDER BY created_at, id'),
      setPassword: p('UPDATE users SET password_hash = ? WHERE id = ?'),
      insertSession: p('INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)'),
      session: p(`${SESSION_SELECT} WHERE s.token_hash = ?`),
      touchSession: p('UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?'),
      deleteSession: p('DELETE FROM sessions WHERE id = ?'),
      deleteUserSessions: p('DELETE FROM sessions WHERE user_id = ?'),
      sweepSessions: p('DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?'),
      sweepCli: p('DELETE FROM cli_sessions WHERE expires_at <= ?'),
      insertInvite: p(
        'INSERT INTO invites (id, code_hash, code_prefix, credits, max_uses, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      invites: p(`SELECT ${INVITE_COLS} FROM invites ORDER BY created_at, id`),
      inviteById: p(`SELECT ${INVITE_COLS} FROM invites WHERE id = ?`),
      inviteByHash: p(`SELECT ${INVITE_COLS} FROM invites WHERE code_hash = ?`),
      setDisabled: p('UPDATE invites SET disabled = ? WHERE id = ?'),
      hasClaim: p('SELECT 1 FROM invite_claims WHERE invite_id = ? AND email = ?'),
      takeUse: p('UPDATE invites SET uses = uses + 1 WHERE id = ? AND uses < max_uses'),
      insertClaim: p('INSERT INTO invite_claims (invite_id, email, created_at) VALUES (?, ?, ?)'),
      deleteClaim: p('DELETE FROM invite_claims WHERE invite_id = ? AND email = ?'),
      giveUse: p('UPDATE invites SET uses = uses - 1 WHERE id = ? AND uses > 0'),
      insertCli: p(
        "INSERT INTO cli_sessions (id, challenge, name, status, created_at, expires_at) VALUES (?, ?, ?, 'pending', ?, ?) ON CONFLICT (id) DO NOTHING",
      ),
      cli: p('SELECT * FROM cli_sessions WHERE id = ?'),
      approveCli: p(
        "UPDATE cli_sessions SET status = 'approved', user_id = ?, account_id = ? WHERE id = ? AND status = 'pending' AND expires_at > ?",
      ),
      completeCli: p("UPDATE cli_sessions SET status = 'completed' WHERE id = ? AND status = 'approved' AND expires_at > ? RETURNING *"),
      setCliKey: p('UPDATE cli_sessions SET key_id = ? WHERE id = ?'),
      keyUsed: p('INSERT INTO key_last_used (key_id, used_at) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET used_at = max(used_at, excluded.used_at)'),
    };
    const claimTx = db.transaction((codeHash: Buffer, email: string, now: number): ClaimOutcome => {
      const row = this.s.inviteByHash.get(codeHash) as InviteRow | undefined;
      if (!row) return { ok: false, reason: 'notFound' };
      const refused = inviteRefusal(row, now);
      if (refused) return { ok: false, reason: refused };
      if (this.s.hasClaim.get(row.id, email)) return { ok: false, reason: 'claimed' };
      if (this.s.takeUse.run(row.id).changes === 0) return { ok: false, reason: 'usedUp' };
      this.s.insertClaim.run(row.id, email, now);
      return { ok: true, invite: toInvite({ ...row, uses: row.uses + 1 }) };
    });
    this.claim = (codeHash, email, now) => claimTx.immediate(codeHash, email, now);
  }

  async createUser(u: NewUser): Promise<'created' | 'emailTaken'> {
    const r = this.s.insertUser.run(u.id, u.accountId, u.email, u.passwordHash, Date.now());
    return r.changes === 1 ? 'created' : 'emailTaken';
  }

  async userByEmail(email: string): Promise<UserRecord | null> {
    const r = this.s.userByEmail.get(email) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async userById(id: string): Promise<UserRecord | null> {
    const r = this.s.userById.get(id) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async listUsers(): Promise<UserRecord[]> {
    return (this.s.users.all() as UserRow[]).map(toUser);
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    return this.s.setPassword.run(passwordHash, userId).changes === 1;
  }

  async createSession(s: { id: string; tokenHash: Buffer; userId: string; createdAt: number; expiresAt: number }): Promise<void> {
    this.s.insertSession.run(s.id, s.tokenHash, s.userId, s.createdAt, s.createdAt, s.expiresAt);
  }

  async findSession(tokenHash: Buffer): Promise<SessionRecord | null> {
    const r = this.s.session.get(tokenHash) as SessionRow | undefined;
    return r ? toSession(r) : null;
  }

  async touchSession(id: string, now: number): Promise<void> {
    this.s.touchSession.run(now, id, now);
  }

  async deleteSession(id: string): Promise<number> {
    return this.s.deleteSession.run(id).changes;
  }

  async deleteUserSessions(userId: string): Promise<number> {
    return this.s.deleteUserSessions.run(userId).changes;
  }

  async sweep(now: number, idleMs: number): Promise<number> {
    const a = this.s.sweepSessions.run(now, now - idleMs).changes;
    const b = this.s.sweepCli.run(now - 86_400_000).changes;
    return a + b;
  }

  async createInvite(i: NewInvite): Promise<void> {
    this.s.insertInvite.run(i.id, i.codeHash, i.codePrefix, i.credits, i.maxUses, i.expiresAt, Date.now());
  }

  async listInvites(): Promise<InviteRecord[]> {
    return (this.s.invites.all() as InviteRow[]).map(toInvite);
  }

  async inviteById(id: string): Promise<InviteRecord | null> {
    const r = this.s.inviteById.get(id) as InviteRow | undefined;
    return r ? toInvite(r) : null;
  }

  async inviteByCodeHash(codeHash: Buffer): Promise<InviteRecord | null> {
    const r = this.s.inviteByHash.get(codeHash) as InviteRow | undefined;
    return r ? toInvite(r) : null;
  }

  async setInviteDisabled(id: string, disabled: boolean): Promise<boolean> {
    return this.s.setDisabled.run(disabled ? 1 : 0, id).changes === 1;
  }

  async hasClaim(inviteId: string, email: string): Promise<boolean> {
    return this.s.hasClaim.get(inviteId, email) !== undefined;
  }

  async claimInvite(codeHash: Buffer, email: string, now: number): Promise<ClaimOutcome> {
    return this.claim(codeHash, email, now);
  }

  async releaseClaim(inviteId: string, email: string): Promise<void> {
    this.db.transaction(() => {
      if (this.s.deleteClaim.run(inviteId, email).changes === 1) this.s.giveUse.run(inviteId);
    }).immediate();
  }

  async createCliSession(s: { id: string; challenge: string; name: string; createdAt: number; expiresAt: number }): Promise<boolean> {
    return this.s.insertCli.run(s.id, s.challenge, s.name, s.createdAt, s.expiresAt).changes === 1;
  }

  async cliSession(id: string): Promise<CliSessionRecord | null> {
    const r = this.s.cli.get(id) as CliRow | undefined;
    return r ? toCli(r) : null;
  }

  async approveCliSession(id: string, userId: string, accountId: string, now: number): Promise<boolean> {
    return this.s.approveCli.run(userId, accountId, id, now).changes === 1;
  }

  async completeCliSession(id: string, now: number): Promise<CliSessionRecord | null> {
    const r = this.s.completeCli.get(id, now) as CliRow | undefined;
    return r ? toCli(r) : null;
  }

  async setCliSessionKey(id: string, keyId: string): Promise<void> {
    this.s.setCliKey.run(keyId, id);
  }

  async keyUsed(keyId: string, at: number): Promise<void> {
    this.s.keyUsed.run(keyId, at);
  }

  async lastUsed(keyIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (keyIds.length === 0) return out;
    const rows = this.db
      .prepare(`SELECT key_id, used_at FROM key_last_used WHERE key_id IN (${keyIds.map(() => '?').join(', ')})`)
      .all(...keyIds) as { key_id: string; used_at: number }[];
    for (const r of rows) out.set(r.key_id, r.used_at);
    return out;
  }
}
