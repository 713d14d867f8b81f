/**
 * The embedded store's write-ahead log stays bounded under steady writes. SQLite rewinds the log only when a write
 * begins after a checkpoint has copied all of it; with group commits back to back, a new write always came first
 * and the log grew without bound (536 MB after 500,000 charges). The writer now sits out one checkpoint when the
 * log is long.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDatabase as BetterSqlite3 } from '../../src/store/sqlite/driver.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite/store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('embedded store: write-ahead log', () => {
  it('stays bounded while charges are committed back to back, and every charge is kept once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-wal-'));
    dirs.push(dir);
    const file = path.join(dir, 'q.db');
    // Checkpoints every 20 ms, the writer waiting for one past 100 frames: the same rule at a test's scale.
    const store = new SqliteStore(file, { background: true, checkpoints: { intervalMs: 20, catchUpFrames: 100 } });
    await store.createAccount({ id: 'acc_1', email: null, credits: 1_000_000 });
    const json = JSON.stringify({ posts: [{ id: 1, title: 'x'.repeat(300) }] });
    const TOTAL = 40_000;
    let n = 0;
    while (n < TOTAL) {
      const group = [];
      for (let j = 0; j < 50; j++, n++) {
        group.push(
          store.charge({ id: `req_${String(n).padStart(8, '0')}`, accountId: 'acc_1', keyId: 'key_1', keyName: 'k', endpoint: 'reddit.subforum', credits: 1, cache: 'hit', test: false, tags: [], createdAt: Date.now(), channel: 'rest', result: { hash: 'h', json } }),
        );
      }
      for (const outcome of await Promise.all(group)) expect(outcome.ok).toBe(true);
    }
    // The log's length now, read by another connection (a passive checkpoint reports it).
    const reader = new BetterSqlite3(file);
    const [{ log }] = reader.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    const written = (reader.prepare("SELECT count(*) AS n FROM ledger WHERE kind = 'charge'").get() as { n: number }).n;
    const balance = (reader.prepare("SELECT balance FROM accounts WHERE id = 'acc_1'").get() as { balance: number }).balance;
    reader.close();
    await store.close();
    expect(written).toBe(TOTAL);
    expect(balance).toBe(1_000_000 - TOTAL);
    // Without the wait the log held every frame of the run (about 10,000 here); with it, a few checkpoints' worth.
    expect(log).toBeLessThan(1500);
  }, 60_000);
});
