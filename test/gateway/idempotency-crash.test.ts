/**
 * Issue 30.3: idempotent retries after a crash, and duplicates of a call still running. A paid call (shopify.store
 * against a site on loopback that holds its answer until told) is in flight with its Idempotency-Key when the
 * server is SIGKILLed; after a restart the retry with the same key is answered at once, then replayed, charged once.
 * A duplicate arriving while the first call runs waits a moment, then gets a retryable 409 with Retry-After instead
 * of a connection held open. Also 30.6: a replay is rendered as its own request asks (`Accept: text/markdown`).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SqliteDatabase as Database } from '../../src/store/sqlite/driver.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Accounts } from '../../src/identity/accounts.js';
import { keyCrypto, loadSecret } from '../../src/identity/secret.js';
import { IDEMPOTENCY_WAIT_MS } from '../../src/pipeline/idempotency.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { b64, pdf } from '../parse/files.js';
import { exited, startServerProcess } from '../scale/helpers.js';

/**
 * A site on loopback whose answers wait until `open` is set. It has no storefront (every path is 404), which
 * shopify.store answers as a paid record `isStorefront: false`: the call's outcome does not matter here, only that
 * it can be held in flight.
 */
async function startStorefront() {
  const waiting: http.ServerResponse[] = [];
  let open = false;
  let seen = 0;
  const answer = (res: http.ServerResponse) => void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  const server = http.createServer((_req, res) => {
    seen++;
    if (open) answer(res);
    else waiting.push(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get seen() {
      return seen;
    },
    hold() {
      open = false;
    },
    release() {
      open = true;
      for (const res of waiting.splice(0)) answer(res);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const until = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('Idempotency-Key after a crash (issue 30.3)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-idem-crash-'));
  const children: ChildProcess[] = [];
  let store: Awaited<ReturnType<typeof startStorefront>>;
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a retry after SIGKILL and restart is answered at once (not after the old lease), then replayed; charged once', async () => {
    store = await startStorefront();
    const db = openSqliteStore(dataDir);
    const acct = await new Accounts(db, keyCrypto(loadSecret(dataDir))).createAccount({ credits: 10 });
    await db.close();
    const env = { QUARRY_DATA_DIR: dataDir, QUARRY_OUTBOUND_ALLOW: '127.0.0.1/32' };
    const call = (url: string, signal?: AbortSignal) =>
      fetch(`${url}/v1/shopify/store`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${acct.apiKey}`, 'idempotency-key': 'order-7' },
        body: JSON.stringify({ store: store.origin }),
        signal,
      });

    const first = await startServerProcess(env);
    children.push(first.proc);
    const inFlight = call(first.url).catch((e: unknown) => e);
    await until(() => store.seen > 0); // the call holds its claim and its credit, waiting on the storefront
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    expect(await inFlight).toBeInstanceOf(Error);
    const atCrash = new Database(path.join(dataDir, 'quarry.db'), { readonly: true });
    expect(atCrash.prepare("SELECT state FROM idempotency WHERE key = 'order-7'").all()).toEqual([{ state: 'running' }]);
    atCrash.close();

    store.release();
    const second = await startServerProcess(env); // releases the dead process's holds and claims
    children.push(second.proc);
    const t = performance.now();
    // Before the fix this waited for the claim's 300 s lease; 10 s is far more than the call needs.
    const retry = await call(second.url, AbortSignal.timeout(10_000));
    expect(retry.status, await retry.clone().text()).toBe(200);
    console.log(`retry after the restart answered in ${Math.round(performance.now() - t)} ms`);
    const answered = await retry.json();
    expect(answered.data.store).toMatchObject({ isStorefront: false });
    expect(answered.creditsUsed).toBe(1);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();

    const again = await call(second.url, AbortSignal.timeout(10_000));
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    second.proc.kill('SIGTERM');
    await exited(second.proc);

    const after = new Database(path.join(dataDir, 'quarry.db'), { readonly: true });
    const balance = (after.prepare('SELECT balance FROM accounts WHERE id = ?').get(acct.accountId) as { balance: number }).balance;
    const charges = (after.prepare("SELECT count(*) AS n FROM ledger WHERE account_id = ? AND kind = 'charge'").get(acct.accountId) as { n: number }).n;
    after.close();
    expect(charges).toBe(1);
    expect(balance).toBe(9);
  }, 60_000); // two server processes start (tsx compiles each): over 20 s on a loaded two-core machine
});

describe('Idempotency-Key while the first call runs (issue 30.3)', () => {
  let gw: TestGateway;
  let store: Awaited<ReturnType<typeof startStorefront>>;
  let apiKey: string;
  beforeAll(async () => {
    store = await startStorefront();
    gw = await startGateway({ QUARRY_OUTBOUND_ALLOW: '127.0.0.1/32' });
    apiKey = (await gw.accounts.createAccount({ credits: 10 })).apiKey;
  });
  afterAll(async () => {
    store.release();
    await gw?.close();
    await store?.close();
  });

  it(`a duplicate waits ${IDEMPOTENCY_WAIT_MS / 1000} s at most, then gets a retryable 409 with Retry-After; once the first is done it is replayed`, async () => {
    store.hold();
    const send = () => post(gw.url, '/v1/shopify/store', { store: store.origin }, { key: apiKey, headers: { 'idempotency-key': 'dup-1' } });
    const first = send();
    await until(() => store.seen > 0);
    const t = performance.now();
    const dup = await send();
    const waited = performance.now() - t;
    expect(dup.status, dup.text).toBe(409);
    expect(dup.json.error).toMatchObject({ code: 'idempotencyKeyInUse', retryable: true, retryAfterSeconds: 1 });
    expect(dup.headers.get('retry-after')).toBe('1');
    expect(waited).toBeGreaterThanOrEqual(IDEMPOTENCY_WAIT_MS - 50);
    store.release();
    const done = await first;
    expect(done.status, done.text).toBe(200);
    const retried = await send();
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.json.requestId).toBe(done.json.requestId);
  });

  it('the holder renews its claim while it runs, so a duplicate never takes over a live call', async () => {
    const { beginIdempotent, holdClaim } = await import('../../src/pipeline/idempotency.js');
    const s = gw.gateway.deps.store;
    const r = { scope: 'key_lease', key: 'k', fingerprint: 'f', leaseMs: 300 };
    const start = await beginIdempotent(s, r);
    expect('ticket' in start).toBe(true);
    const stop = holdClaim(s, (start as { ticket: { scope: string; key: string } }).ticket, (e) => {
      throw e;
    }, 300);
    try {
      // Three leases later the holder is still alive: a duplicate still finds it running (409), never claims it.
      await new Promise((res) => setTimeout(res, 900));
      await expect(beginIdempotent(s, { ...r, waitMs: 0 })).rejects.toMatchObject({ code: 'idempotencyKeyInUse' });
    } finally {
      stop();
    }
    // A holder that stopped renewing (died) is taken over once its lease ran out.
    await new Promise((res) => setTimeout(res, 350));
    expect('ticket' in (await beginIdempotent(s, { ...r, waitMs: 0 }))).toBe(true);
  });

  it('start-up releases running claims: every one on the embedded store, those past their lease on a shared one', async () => {
    const s = gw.gateway.deps.store;
    const now = Date.now();
    const claim = (key: string, leaseUntil: number) => s.claimIdempotency({ scope: 'key_start', key, fingerprint: 'f', nowMs: now, leaseUntil, expiresAt: now + 3_600_000 });
    expect(await claim('dead', now - 1)).toEqual({ state: 'claimed' });
    expect(await claim('alive', now + 60_000)).toEqual({ state: 'claimed' });
    await s.releaseExpired(Date.now(), !s.sharedByInstances);
    // Released: another request's fingerprint can claim it (a kept or running entry would say "mismatch").
    const again = (key: string) => s.claimIdempotency({ scope: 'key_start', key, fingerprint: 'other', nowMs: Date.now(), leaseUntil: Date.now() + 1000, expiresAt: now + 3_600_000 });
    expect(await again('dead')).toEqual({ state: 'claimed' });
    expect(await again('alive')).toEqual(s.sharedByInstances ? { state: 'mismatch' } : { state: 'claimed' });
  });
});

describe('a replay is rendered as its own request asks (issue 30.6)', () => {
  let gw: TestGateway;
  let apiKey: string;
  let accountId: string;
  beforeAll(async () => {
    gw = await startGateway();
    ({ apiKey, accountId } = await gw.accounts.createAccount({ credits: 10 }));
  });
  afterAll(() => gw?.close());

  const file = b64(pdf([{ lines: [{ text: 'Quarterly report', size: 18 }, { text: 'Revenue grew by four percent.' }] }]));
  const parse = (key: string, accept?: string) =>
    post(gw.url, '/v1/web/parse', { file }, { key: apiKey, headers: { 'idempotency-key': key, ...(accept ? { accept } : {}) } });

  it('first as JSON, then replayed with Accept: text/markdown: markdown, marked replayed, not charged again', async () => {
    const json = await parse('md-1');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const md = await parse('md-1', 'text/markdown');
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(md.headers.get('idempotent-replayed')).toBe('true');
    expect(md.headers.get('x-credits-used')).toBe('1');
    expect(md.text).toContain('Revenue grew by four percent.');
    expect(md.text).not.toContain('"success"');
  });

  it('first as markdown, then replayed as JSON: the JSON envelope', async () => {
    const md = await parse('md-2', 'text/markdown');
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
    const json = await parse('md-2');
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('idempotent-replayed')).toBe('true');
    expect(json.json).toMatchObject({ success: true, creditsUsed: 1, data: { markdown: expect.stringContaining('Revenue grew by four percent.') } });
    // Two keys, two calls: charged twice in all, never for a replay.
    expect((await gw.gateway.deps.store.getAccount(accountId))!.balance).toBe(8);
  });
});
