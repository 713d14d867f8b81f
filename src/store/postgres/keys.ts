/**
 * API keys on PostgreSQL, and the epoch that tells every instance's key cache when any key may have changed: key
 * changes reach other instances by NOTIFY (sent in the same statement as the write, delivered at commit, so within
 * milliseconds); the key counter is also polled, as a backstop while the listening connection is re-established.
 */
import pg from 'pg';
import type { KeyRecord, KeyStore, NewKey } from '../types.js';
import type { Query } from './connection.js';

/** How often the key counter is re-read in the background. */
const EPOCH_POLL_MS = 1000;

export class PostgresKeys implements KeyStore {
  private localKeyWrites = 0;
  private epoch = 0;
  private epochReadAt = 0;
  private epochReading = false;
  private notified = 0;
  private listener: pg.Client | undefined;
  private listening = false;
  private closed = false;

  constructor(
    private readonly q: Query,
    private readonly connectionString: string,
    private readonly schema: string,
  ) {}

  /** The NOTIFY channel of key changes (one per schema, so deployments sharing a database stay apart). */
  private get keysChannel(): string {
    return `quarry_keys_${this.schema}`;
  }

  /** Listens for key changes made anywhere; reconnects after a second when the connection is lost. */
  private listen(): void {
    if (this.listening || this.closed) return;
    this.listening = true;
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 3000, application_name: 'quarry-keys' });
    this.listener = client;
    let retried = false;
    const retry = () => {
      if (retried) return;
      retried = true;
      this.listener = undefined;
      client.end().catch(() => {});
      this.notified++; // changes may have been missed meanwhile
      setTimeout(() => {
        this.listening = false;
        this.listen();
      }, 1000).unref();
    };
    client.on('error', retry);
    client.on('end', retry);
    client.on('notification', () => {
      this.notified++;
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${this.keysChannel}`))
      .catch(retry);
  }

  async createKey(k: NewKey): Promise<void> {
    await this.q(
      `WITH k AS (INSERT INTO api_keys (id, account_id, name, hash, prefix, sealed, test, created_at)
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING 1),
            e AS (UPDATE key_epoch SET v = v + 1 WHERE EXISTS (SELECT 1 FROM k) RETURNING v)
       SELECT pg_notify($9, v::text) FROM e`,
      [k.id, k.accountId, k.name, k.hash, k.prefix, k.sealed, k.test, Date.now(), this.keysChannel],
    );
    this.localKeyWrites++;
  }

  /**
   * Key writes through this process count at once; other processes' writes (instances, the operator CLI) arrive as
   * NOTIFY on a listening connection, and bump `key_epoch`, which is also re-read in the background every second.
   * Nothing here waits on the database.
   */
  keysEpoch(): string {
    if (!this.listening) this.listen();
    const now = Date.now();
    if (now - this.epochReadAt >= EPOCH_POLL_MS && !this.epochReading) {
      this.epochReading = true;
      this.epochReadAt = now;
      this.q<{ v: number }>('SELECT v FROM key_epoch')
        .then((r) => {
          if (r.rows[0]) this.epoch = r.rows[0].v;
        })
        .catch(() => {})
        .finally(() => {
          this.epochReading = false;
        });
    }
    return `${this.epoch}:${this.notified}:${this.localKeyWrites}`;
  }

  async findKeyByHash(hash: Buffer): Promise<KeyRecord | null> {
    const r = (
      await this.q<{ id: string; account_id: string; name: string; hash: Buffer; test: boolean; revoked_at: number | null }>(
        'SELECT id, account_id, name, hash, test, revoked_at FROM api_keys WHERE hash = $1',
        [hash],
      )
    ).rows[0];
    if (!r) return null;
    return { id: r.id, accountId: r.account_id, name: r.name, hash: r.hash, test: r.test, revoked: r.revoked_at !== null };
  }

  async sealedKey(keyId: string): Promise<{ accountId: string; sealed: string } | null> {
    const r = (await this.q<{ account_id: string; sealed: string }>('SELECT account_id, sealed FROM api_keys WHERE id = $1', [keyId])).rows[0];
    return r ? { accountId: r.account_id, sealed: r.sealed } : null;
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const r = await this.q<{ found: boolean }>(
      `WITH r AS (UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING 1),
            e AS (UPDATE key_epoch SET v = v + 1 WHERE EXISTS (SELECT 1 FROM r) RETURNING v)
       SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = $1) AS found, (SELECT pg_notify($3, v::text) FROM e) AS notified`,
      [keyId, Date.now(), this.keysChannel],
    );
    this.localKeyWrites++;
    return r.rows[0]?.found === true;
  }

  /** Stops listening, for good. */
  async close(): Promise<void> {
    this.closed = true;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      listener.removeAllListeners('end');
      listener.removeAllListeners('error');
      listener.on('error', () => {});
      await listener.end().catch(() => {});
    }
  }
}
