/**
 * Scale-out faults (issue 6): Redis stopped mid-run, PostgreSQL unreachable mid-run, an instance SIGKILLed mid-call.
 * Skips unless QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL are set (and redis-server is on the PATH).
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../../src/identity/accounts.js';
import { keyCrypto, loadSecret } from '../../src/identity/secret.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { post, startGateway, type CallResponse, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';
import { SHARED_SKIP_REASON, adminQuery, sharedBackends, type Backends } from '../helpers/shared-backends.js';
import { accountMoney, exited, sleep, startPrivateRedis, startServerProcess, startTcpProxy } from './helpers.js';
import { startPaidTraffic, trafficBeforeKill } from '../helpers/paid-traffic.js';

const RUN = !SHARED_SKIP_REASON && HAVE_FORUM_RECORDINGS;

/** balance + held = sum(ledger); charges = logged credits; one charge per logged call; and the calls logged. */
async function ledgerState(schema: string, accountId: string) {
  const ids = (await adminQuery('SELECT id FROM calls WHERE account_id = $1', [accountId], schema)).rows.map((r: { id: string }) => r.id);
  return { ...(await accountMoney(schema, accountId)), ids: new Set(ids) };
}

describe.skipIf(!RUN)(`scale-out faults${SHARED_SKIP_REASON}${FORUM_SKIP_REASON}`, () => {
  let upstream: RedditUpstream;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    upstream = await startRedditUpstream();
  });
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await upstream?.close();
  });

  it('Redis stopped mid-run: calls keep being served without the shared cache, nothing is double-billed, and it resumes', async () => {
    const redis = await startPrivateRedis();
    cleanups.push(() => redis.stop());
    const backends = await sharedBackends();
    cleanups.push(() => backends.drop());
    const env = {
      ...backends.env,
      QUARRY_REDIS_URL: redis.url,
      QUARRY_REDIS_PREFIX: 'fault:',
      QUARRY_SECRET: randomBytes(32).toString('hex'),
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_RATE_LIMIT_PER_MINUTE: '100000',
      QUARRY_MAX_IN_FLIGHT: '100',
    };
    const a = await startGateway(env);
    cleanups.push(() => a.close());
    const b = await startGateway(env);
    cleanups.push(() => b.close());
    const { accountId, apiKey } = await a.accounts.createAccount({ credits: 100_000 });
    upstream.delayMs = 5;

    const answers: CallResponse[] = [];
    const traffic = startPaidTraffic({ apiKey, loops: 8, target: (i) => (i % 2 ? b.url : a.url), onAnswer: (r) => answers.push(r) });
    while (answers.length < 40) await sleep(5);
    await redis.stop();
    const atStop = answers.length;
    while (answers.length < atStop + 80) await sleep(5);
    await traffic.stop();
    upstream.delayMs = 0;

    expect(answers.map((r) => r.status).filter((s) => s !== 200)).toEqual([]); // every call served, before and after
    const s = await ledgerState(backends.schema!, accountId);
    const billed = answers.reduce((sum, r) => sum + Number(r.headers.get('x-credits-used')), 0);
    expect(s.heldCount).toBe(0);
    expect(s.balance).toBe(s.ledgerSum);
    expect(s.charged).toBe(s.logged);
    expect(s.charged).toBe(billed); // exactly what the answers said they cost: nothing billed twice
    expect(s.unmatched).toBe(0);
    for (const r of answers) expect(s.ids.has(r.json.requestId)).toBe(true);

    // Redis back: the shared path resumes by itself (a result cached by A is a hit on B again).
    await redis.start();
    await sleep(1500);
    const body = { subforum: 'golang', limit: 77, sort: 'top' }; // an input the traffic never sent
    expect((await post(a.url, '/v1/reddit/subforum', body, { key: apiKey })).headers.get('x-cache')).toBe('miss');
    await sleep(50);
    expect((await post(b.url, '/v1/reddit/subforum', body, { key: apiKey })).headers.get('x-cache')).toBe('hit');
  });

  it('PostgreSQL unreachable mid-run: a clear retryable error, then recovery without restarting Quarry', async () => {
    const backends = await sharedBackends();
    cleanups.push(() => backends.drop());
    const target = new URL(backends.env.QUARRY_DATABASE_URL!);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    cleanups.push(() => proxy.close());
    target.host = `127.0.0.1:${proxy.port}`;
    const gw: TestGateway = await startGateway({ ...backends.env, QUARRY_DATABASE_URL: target.toString(), QUARRY_REDDIT_PUBLIC_URL: upstream.url });
    cleanups.push(() => gw.close());
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 100 });
    expect((await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5, maxAge: 0 }, { key: apiKey })).status).toBe(200);

    proxy.cut(); // every connection dies and new ones are refused, as when the database restarts
    for (let i = 0; i < 3; i++) {
      const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5, maxAge: 0 }, { key: apiKey });
      expect(r.status).toBe(500);
      expect(r.json.error.code).toBe('internalError');
      expect(r.json.error.retryable).toBe(true);
      expect(r.json.error.message).toMatch(/storage is unavailable/i);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    await sleep(500);
    proxy.restore();
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5, maxAge: 0 }, { key: apiKey });
    expect(r.status).toBe(200);
    const s = await ledgerState(backends.schema!, accountId);
    expect(s.balance).toBe(100 - 2 * 2);
    expect(s.heldCount).toBe(0);
    expect(s.balance).toBe(s.ledgerSum);
  });

  it('an instance SIGKILLed mid-call: the other keeps serving, its holds come back once expired, nothing lost or double-charged', async () => {
    const backends = await sharedBackends();
    cleanups.push(() => backends.drop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-scale-kill-'));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const secret = randomBytes(32).toString('hex');
    const store = openPostgresStore(backends.env.QUARRY_DATABASE_URL!);
    const acct = await new Accounts(store, keyCrypto(loadSecret(dataDir, secret))).createAccount({ credits: 100_000 });
    const env = {
      ...backends.env,
      QUARRY_DATA_DIR: dataDir,
      QUARRY_SECRET: secret,
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_RATE_LIMIT_PER_MINUTE: '100000',
      QUARRY_MAX_IN_FLIGHT: '100',
      QUARRY_RESERVATION_TTL_SECONDS: '3',
    };
    const children: ChildProcess[] = [];
    cleanups.push(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await store.close();
    });
    const [first, other] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    children.push(first.proc, other.proc);
    upstream.delayMs = 15;
    const { succeeded, traffic } = await trafficBeforeKill({ apiKey: acct.apiKey, target: () => first.url, successes: 60 });
    first.proc.kill('SIGKILL');
    await traffic.stop();
    await exited(first.proc);

    const atCrash = await ledgerState(backends.schema!, acct.accountId);
    expect(atCrash.heldCount).toBeGreaterThan(0); // the kill really landed in the middle of paid calls
    expect(atCrash.balance + atCrash.held).toBe(atCrash.ledgerSum); // nothing lost even before the holds come back

    // The surviving instance serves on and does not touch the dead one's holds before they expire.
    const during = await post(other.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 3, maxAge: 0 }, { key: acct.apiKey });
    expect(during.status).toBe(200);
    succeeded.push(during.json.requestId);
    expect((await ledgerState(backends.schema!, acct.accountId)).heldCount).toBe(atCrash.heldCount);

    // Once expired, the next instance to start (or any sweeper) releases them.
    await sleep(3200);
    const next = await startServerProcess(env);
    children.push(next.proc);
    const after = await post(next.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 3, maxAge: 0 }, { key: acct.apiKey });
    expect(after.status).toBe(200);
    succeeded.push(after.json.requestId);
    upstream.delayMs = 0;
    for (const c of [other.proc, next.proc]) c.kill('SIGTERM');
    await Promise.all([exited(other.proc), exited(next.proc)]);

    const s = await ledgerState(backends.schema!, acct.accountId);
    expect(s.heldCount).toBe(0);
    expect(s.balance).toBe(s.ledgerSum);
    expect(s.charged).toBe(s.logged);
    expect(s.unmatched).toBe(0);
    expect(s.balance).toBe(100_000 - s.logged);
    for (const id of succeeded) expect(s.ids.has(id), id).toBe(true);
  }, 60_000);
});
