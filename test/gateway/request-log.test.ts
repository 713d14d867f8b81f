/**
 * Issue 38.3: the request log. Every call of an account's keys, failed ones included (status, error code, real
 * duration, key, tags, request id), beside GET /v1/logs (which keeps listing paid calls only, now with durations).
 * Over real HTTP: a test-mode success, a body the schema refuses, a live call the balance cannot pay, and a live
 * call whose upstream refuses the connection.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let live: { accountId: string; keyId: string; apiKey: string };
let test: { keyId: string; apiKey: string };
let other: { apiKey: string };
const ids: Record<string, string> = {};

/** A loopback port nothing listens on: the upstream refuses every connection. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  const port = await closedPort();
  gw = await startGateway({
    QUARRY_UPSTREAM_OVERRIDES: `www.reddit.com=http://127.0.0.1:${port},oauth.reddit.com=http://127.0.0.1:${port}`,
    QUARRY_OUTBOUND_ALLOW: '127.0.0.1/32',
    QUARRY_UPSTREAM_RETRIES: '0',
  });
  live = await gw.accounts.createAccount({ credits: 1 });
  const t = await gw.accounts.createKey({ accountId: live.accountId, name: 'tests', test: true });
  test = { keyId: t.keyId, apiKey: t.apiKey };
  other = await gw.accounts.createAccount({ credits: 0 });

  const ok = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 3, tags: ['nightly', 'team:a'] }, { key: test.apiKey });
  expect(ok.status, ok.text).toBe(200);
  ids.ok = ok.json.requestId;
  const bad = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 0, colour: 'red' }, { key: test.apiKey });
  expect(bad.status).toBe(400);
  ids.bad = bad.headers.get('x-request-id')!;
  const poor = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5 }, { key: live.apiKey });
  expect(poor.status, poor.text).toBe(402);
  ids.poor = poor.headers.get('x-request-id')!;
  await gw.gateway.deps.store.addCredits(live.accountId, 10, 'test');
  const down = await post(gw.url, '/v1/reddit/post', { post: 'g9zfex' }, { key: live.apiKey });
  expect(down.status, down.text).toBeGreaterThanOrEqual(500);
  ids.down = down.headers.get('x-request-id')!;
});

afterAll(async () => {
  await gw?.close();
});

const requestLog = (key: string, query = '') => get(gw.url, `/v1/request-log${query ? `?${query}` : ''}`, { key });

describe('GET /v1/request-log', () => {
  it('lists every call of the account, failed ones included, newest first, with status, error code, duration, key and tags', async () => {
    const r = await requestLog(live.apiKey);
    expect(r.status, r.text).toBe(200);
    expect(r.json.success).toBe(true);
    const rows = r.json.data.requests as any[];
    expect(rows.map((e) => e.id)).toEqual([ids.down, ids.poor, ids.bad, ids.ok]);
    const [down, poor, bad, ok] = rows;
    expect(ok).toMatchObject({
      method: 'POST',
      path: '/v1/reddit/subforum',
      endpoint: 'reddit.subforum',
      channel: 'rest',
      status: 200,
      ok: true,
      credits: 2,
      cache: 'miss',
      apiKeyId: test.keyId,
      apiKeyName: 'tests',
      test: true,
      tags: ['nightly', 'team:a'],
    });
    expect(ok.error).toBeUndefined();
    expect(bad).toMatchObject({ status: 400, ok: false, credits: 0, test: true, error: { code: 'invalidRequest' } });
    expect(poor).toMatchObject({ status: 402, ok: false, test: false, apiKeyId: live.keyId, error: { code: 'insufficientCredits' } });
    expect(down.status).toBeGreaterThanOrEqual(500);
    expect(down.error.code).toMatch(/^source/);
    expect(down.endpoint).toBe('reddit.post');
    for (const e of rows) {
      expect(Number.isInteger(e.durationMs)).toBe(true);
      expect(e.durationMs).toBeGreaterThanOrEqual(0);
      expect(e.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    expect(r.json.data).toMatchObject({ page: 0, pageSize: 50, total: 4, totalPages: 1 });
  });

  it('filters by outcome, mode, key, endpoint and tag', async () => {
    const ids_ = async (q: string) => ((await requestLog(live.apiKey, q)).json.data.requests as any[]).map((e) => e.id);
    expect(await ids_('outcome=failed')).toEqual([ids.down, ids.poor, ids.bad]);
    expect(await ids_('outcome=ok')).toEqual([ids.ok]);
    expect(await ids_('mode=test')).toEqual([ids.bad, ids.ok]);
    expect(await ids_('mode=live')).toEqual([ids.down, ids.poor]);
    expect(await ids_(`keyId=${live.keyId}`)).toEqual([ids.down, ids.poor]);
    expect(await ids_('endpoint=reddit.post')).toEqual([ids.down]);
    expect(await ids_('tag=team:a')).toEqual([ids.ok]);
    const bad = await requestLog(live.apiKey, 'outcome=maybe');
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^outcome:/);
  });

  it('one entry by request id; another account sees none of it; a key is needed', async () => {
    const one = await get(gw.url, `/v1/request-log/${ids.poor}`, { key: live.apiKey });
    expect(one.status, one.text).toBe(200);
    expect(one.json.data).toMatchObject({ id: ids.poor, status: 402, error: { code: 'insufficientCredits' } });
    expect(one.json.data.error.message).toMatch(/credits/);
    const theirs = await get(gw.url, `/v1/request-log/${ids.poor}`, { key: other.apiKey });
    expect(theirs.status).toBe(404);
    expect((await requestLog(other.apiKey)).json.data.requests).toEqual([]);
    expect((await get(gw.url, '/v1/request-log')).status).toBe(401);
  });

  it('reading the request log is itself not logged, and free', async () => {
    const before = (await requestLog(live.apiKey)).json.data.total;
    await requestLog(live.apiKey);
    const after = await requestLog(live.apiKey);
    expect(after.json.data.total).toBe(before);
    expect(after.json.creditsUsed).toBe(0);
  });
});

describe('GET /v1/logs keeps to paid calls, with real durations now', () => {
  it('lists the test-mode success only, its durationMs a whole number of milliseconds from the request log', async () => {
    const r = await get(gw.url, '/v1/logs', { key: live.apiKey });
    expect(r.status).toBe(200);
    expect(r.json.logs.map((l: any) => l.id)).toEqual([ids.ok]);
    const entry = (await requestLog(live.apiKey, 'outcome=ok')).json.data.requests[0];
    expect(r.json.logs[0].durationMs).toBe(entry.durationMs);
    const b = await get(gw.url, '/v1/logs?days=today', { key: live.apiKey });
    expect(b.json.data.logs[0].durationMs).toBe(String(entry.durationMs));
  });
});
