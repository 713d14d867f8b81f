/** Accounts on PostgreSQL: created with their starting grant (one statement), read with their keys. */
import { newId } from '../../lib/ids.js';
import type { AccountStore, AccountSummary, AccountView } from '../types.js';
import type { Query } from './connection.js';

const iso = (ms: number) => new Date(ms).toISOString();

export class PostgresAccounts implements AccountStore {
  constructor(private readonly q: Query) {}

  async createAccount(a: { id: string; email: string | null; credits: number }): Promise<void> {
    const now = Date.now();
    await this.q(
      `WITH a AS (INSERT INTO accounts (id, email, balance, created_at) VALUES ($1, $2, $3, $4) RETURNING id)
       INSERT INTO ledger (ref, account_id, delta, kind, note, created_at)
       SELECT $5, a.id, $3, 'grant', 'account created', $4 FROM a WHERE $3::bigint > 0`,
      [a.id, a.email, a.credits, now, newId('grant')],
    );
  }

  async getAccount(id: string): Promise<AccountView | null> {
    const a = (await this.q<{ id: string; email: string | null; balance: number; created_at: number }>(
      'SELECT id, email, balance, created_at FROM accounts WHERE id = $1',
      [id],
    )).rows[0];
    if (!a) return null;
    const keys = (
      await this.q<{ id: string; name: string; prefix: string; test: boolean; revoked_at: number | null; created_at: number }>(
        'SELECT id, name, prefix, test, revoked_at, created_at FROM api_keys WHERE account_id = $1 ORDER BY created_at, id COLLATE "C"',
        [id],
      )
    ).rows.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, test: k.test, revoked: k.revoked_at !== null, createdAt: iso(k.created_at) }));
    return { id: a.id, email: a.email, balance: a.balance, createdAt: iso(a.created_at), keys };
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const rows = (
      await this.q<{ id: string; email: string | null; balance: number; created_at: number; keys: number; revoked: number }>(
        `SELECT a.id, a.email, a.balance, a.created_at,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS keys,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NOT NULL) AS revoked
         FROM accounts a ORDER BY a.created_at, a.id COLLATE "C"`,
      )
    ).rows;
    return rows.map((r) => ({ id: r.id, email: r.email, balance: r.balance, createdAt: iso(r.created_at), keys: r.keys, revokedKeys: r.revoked }));
  }
}
