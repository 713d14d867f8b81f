/**
 * Crash safety (issue 2, "How it must be shown"): SIGKILL the server in the middle of paid calls, restart it, and
 * show that the ledger and the logs agree and that no credit was lost or double-charged.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteDatabase as Database } from '../../src/store/sqlite/driver.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Accounts } from '../../src/identity/accounts.js';
import { keyCrypto, loadSecret } from '../../src/identity/secret.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { post } from '../helpers/gateway.js';
import { exited, startServerProcess } from '../scale/helpers.js';
import { trafficBeforeKill } from '../helpers/paid-traffic.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

const INITIAL = 100_000;


describe.skipIf(!HAVE_FORUM_RECORDINGS)(`crash safety${FORUM_SKIP_REASON}`, () => {
  let upstream: RedditUpstream;
  const children: ChildProcess[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-crash-'));
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await upstream?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('after SIGKILL mid-traffic and a restart, ledger, balance and logs agree; nothing lost or double-charged', async () => {
    upstream = await startRedditUpstream();
    upstream.delayMs = 15;
    const store = openSqliteStore(dataDir);
    const acct = await new Accounts(store, keyCrypto(loadSecret(dataDir))).createAccount({ credits: INITIAL });
    await store.close();

    const env = {
      QUARRY_DATA_DIR: dataDir,
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_RATE_LIMIT_PER_MINUTE: '100000',
      QUARRY_MAX_IN_FLIGHT: '100',
    };
    const first = await startServerProcess(env);
    children.push(first.proc);
    const { succeeded, traffic } = await trafficBeforeKill({ apiKey: acct.apiKey, target: () => first.url, successes: 60 });
    first.proc.kill('SIGKILL');
    await traffic.stop();
    await exited(first.proc);
    const atCrash = new Database(path.join(dataDir, 'quarry.db'), { readonly: true });
    const heldAtCrash = (atCrash.prepare("SELECT count(*) AS n FROM reservations WHERE state = 'held'").get() as { n: number }).n;
    atCrash.close();
    expect(heldAtCrash).toBeGreaterThan(0); // the kill really landed in the middle of paid calls

    const second = await startServerProcess(env); // releases the holds the dead process left
    children.push(second.proc);
    const after = await post(second.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 3, maxAge: 0 }, { key: acct.apiKey });
    expect(after.status).toBe(200);
    succeeded.push(after.json.requestId);
    second.proc.kill('SIGTERM');
    await exited(second.proc);

    const db = new Database(path.join(dataDir, 'quarry.db'), { readonly: true });
    const one = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as T;
    const balance = one<{ b: number }>('SELECT balance AS b FROM accounts WHERE id = ?', acct.accountId).b;
    const ledgerSum = one<{ s: number }>('SELECT sum(delta) AS s FROM ledger WHERE account_id = ?', acct.accountId).s;
    const charged = one<{ s: number }>("SELECT -sum(delta) AS s FROM ledger WHERE account_id = ? AND kind = 'charge'", acct.accountId).s;
    const logged = one<{ s: number; n: number }>('SELECT sum(credits) AS s, count(*) AS n FROM calls WHERE account_id = ? AND test = 0', acct.accountId);
    const held = one<{ n: number }>("SELECT count(*) AS n FROM reservations WHERE state = 'held'").n;
    const unmatched = one<{ n: number }>(
      "SELECT count(*) AS n FROM calls c WHERE (SELECT count(*) FROM ledger l WHERE l.kind = 'charge' AND l.ref = c.id) <> 1",
    ).n;
    const orphanCharges = one<{ n: number }>("SELECT count(*) AS n FROM ledger l WHERE kind = 'charge' AND NOT EXISTS (SELECT 1 FROM calls c WHERE c.id = l.ref)").n;
    const loggedIds = new Set((db.prepare('SELECT id FROM calls').all() as { id: string }[]).map((r) => r.id));
    db.close();

    expect(held).toBe(0); // every hold of the dead process was released at restart
    expect(balance).toBe(ledgerSum); // nothing lost: the balance is exactly grants minus charges
    expect(charged).toBe(logged.s); // ledger and logs agree
    expect(unmatched).toBe(0); // every logged call charged exactly once
    expect(orphanCharges).toBe(0); // no charge without its log entry
    expect(balance).toBe(INITIAL - logged.s);
    for (const id of succeeded) expect(loggedIds.has(id), id).toBe(true); // every answered call is on record
    expect(logged.n).toBeGreaterThanOrEqual(succeeded.length);
  }, 90_000); // two server processes start and a kill lands mid-traffic: 30 s on a loaded 2-core machine
});
