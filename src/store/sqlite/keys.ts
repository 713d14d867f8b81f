/** API keys on the embedded database, and the epoch that tells the key cache when any key may have changed. */
import type { Database, Statement } from 'better-sqlite3';
import type { KeyRecord, KeyStore, NewKey } from '../types.js';
import type { WriteBatch } from './write-batch.js';

export class SqliteKeys implements KeyStore {
  private readonly s: Record<string, Statement>;
  /** Key writes through this connection; other connections' commits show in PRAGMA data_version. */
  private localKeyWrites = 0;
  private dataVersion = 0;
  private dataVersionReadAt = 0;

  constructor(
    db: Database,
    private readonly batch: WriteBatch,
  ) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      insertKey: p(
        'INSERT INTO api_keys (id, account_id, name, hash, prefix, sealed, test, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      keyByHash: p('SELECT id, account_id, name, hash, test, revoked_at FROM api_keys WHERE hash = ?'),
      sealed: p('SELECT account_id, sealed FROM api_keys WHERE id = ?'),
      revoke: p('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      keyExists: p('SELECT 1 FROM api_keys WHERE id = ?'),
      dataVersion: p('PRAGMA data_version').pluck(),
    };
  }

  async createKey(k: NewKey): Promise<void> {
    await this.batch.submit(() =>
      this.s.insertKey.run(k.id, k.accountId, k.name, k.hash, k.prefix, k.sealed, k.test ? 1 : 0, Date.now()),
    );
    this.localKeyWrites++;
  }

  /**
   * Other processes (the operator CLI) are noticed through PRAGMA data_version, read at most every 50 ms (a read
   * per request costs more than the rest of the key lookup); writes through this connection count at once.
   */
  keysEpoch(): string {
    const now = Date.now();
    if (now - this.dataVersionReadAt >= 50) {
      this.dataVersion = this.s.dataVersion.get() as number;
      this.dataVersionReadAt = now;
    }
    return `${this.dataVersion}:${this.localKeyWrites}`;
  }

  async findKeyByHash(hash: Buffer): Promise<KeyRecord | null> {
    const r = this.s.keyByHash.get(hash) as
      | { id: string; account_id: string; name: string; hash: Buffer; test: number; revoked_at: number | null }
      | undefined;
    if (!r) return null;
    return { id: r.id, accountId: r.account_id, name: r.name, hash: r.hash, test: r.test === 1, revoked: r.revoked_at !== null };
  }

  async sealedKey(keyId: string): Promise<{ accountId: string; sealed: string } | null> {
    const r = this.s.sealed.get(keyId) as { account_id: string; sealed: string } | undefined;
    return r ? { accountId: r.account_id, sealed: r.sealed } : null;
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const found = await this.batch.submit(() => {
      if (!this.s.keyExists.get(keyId)) return false;
      this.s.revoke.run(Date.now(), keyId);
      return true;
    });
    this.localKeyWrites++;
    return found;
  }
}
