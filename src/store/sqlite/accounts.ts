/** Accounts on the embedded database: created with their starting grant, read with their keys. */
import type { Database, Statement } from 'better-sqlite3';
import { newId } from '../../lib/ids.js';
import type { AccountStore, AccountSummary, AccountView } from '../types.js';
import type { WriteBatch } from './write-batch.js';

const iso = (ms: number) => new Date(ms).toISOString();

export class SqliteAccounts implements AccountStore {
  private readonly s: Record<string, Statement>;

  constructor(
    private readonly db: Database,
    private readonly batch: WriteBatch,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertAccount: p('INSERT INTO accounts (id, email, balance, created_at) VALUES (?, ?, ?, ?)'),
      grant: p("INSERT INTO ledger (ref, account_id, delta, kind, note, created_at) VALUES (?, ?, ?, 'grant', ?, ?)"),
      account: p('SELECT id, email, balance, created_at FROM accounts WHERE id = ?'),
      accountKeys: p(
        'SELECT id, name, prefix, test, revoked_at, created_at FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
      ),
    };
  }

  async createAccount(a: { id: string; email: string | null; credits: number }): Promise<void> {
    const now = Date.now();
    await this.batch.submit(() => {
      this.s.insertAccount.run(a.id, a.email, a.credits, now);
      if (a.credits > 0) this.s.grant.run(newId('grant'), a.id, a.credits, 'account created', now);
    });
  }

  async getAccount(id: string): Promise<AccountView | null> {
    const a = this.s.account.get(id) as { id: string; email: string | null; balance: number; created_at: number } | undefined;
    if (!a) return null;
    const keys = (this.s.accountKeys.all(id) as { id: string; name: string; prefix: string; test: number; revoked_at: number | null; created_at: number }[]).map(
      (k) => ({ id: k.id, name: k.name, prefix: k.prefix, test: k.test === 1, revoked: k.revoked_at !== null, createdAt: iso(k.created_at) }),
    );
    return { id: a.id, email: a.email, balance: a.balance, createdAt: iso(a.created_at), keys };
  }

  async listAccounts(): Promise<AccountSummary[]> {
    const rows = this.db
      .prepare(
        `SELECT a.id, a.email, a.balance, a.created_at,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS keys,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NOT NULL) AS revoked
         FROM accounts a ORDER BY a.created_at, a.id`,
      )
      .all() as { id: string; email: string | null; balance: number; created_at: number; keys: number; revoked: number }[];
    return rows.map((r) => ({ id: r.id, email: r.email, balance: r.balance, createdAt: iso(r.created_at), keys: r.keys, revokedKeys: r.revoked }));
  }
}
