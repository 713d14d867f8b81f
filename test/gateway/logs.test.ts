/**
 * SPEC.md "Logs endpoint" (variants A and B), "Authentication" 4, "Errors"; CONTRACT.md "Paths and ids" (variant
 * selection) and "Keys" (test-mode calls are logged, marked test). Over real HTTP, with test-mode keys answered from
 * the committed reddit.subforum sample.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';

const DAY_MS = 86_400_000;
const BODY = { subforum: 'golang', limit: 5 };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const LEGACY_UNAUTHORIZED = { success: false, code: 'UNAUTHORIZED', error: 'Invalid or missing API key.', details: null };

let gw: TestGateway;
let catalogueIds: string[];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Key {
  accountId: string;
  keyId: string;
  apiKey: string;
  name: string;
}

async function testKey(accountId: string, name: string): Promise<Key> {
  const k = await gw.accounts.createKey({ accountId, name, test: true });
  return { accountId, keyId: k.keyId, apiKey: k.apiKey, name };
}

async function newAccount(...names: string[]): Promise<Key[]> {
  const { accountId } = await gw.accounts.createAccount({ credits: 0 });
  const keys: Key[] = [];
  for (const n of names) keys.push(await testKey(accountId, n));
  return keys;
}

/** One successful (logged) test-mode call; returns its requestId. */
async function call(key: Key, tags?: string[]): Promise<string> {
  const r = await post(gw.url, '/v1/reddit/subforum', tags ? { ...BODY, tags } : BODY, { key: key.apiKey });
  expect(r.status, r.text).toBe(200);
  expect(r.json.creditsUsed).toBe(2);
  return r.json.requestId as string;
}

const logs = (key: Key | string | undefined, query = '') =>
  get(gw.url, `/v1/logs${query ? `?${query}` : ''}`, { key: typeof key === 'string' ? key : key?.apiKey });

// Account F: two keys, tagged calls in a known order, and failed calls that must not be logged.
let alpha: Key;
let beta: Key;
const fOrder: string[] = [];
const fFailed: string[] = [];
// Account P: 55 calls, for paging.
let pager: Key;
const pIds: string[] = [];
// Account D: one call today over HTTP, plus older calls recorded straight into the store (the logs' source).
let dated: Key;
let dToday: string;
// Account O: another account.
let other: Key;
let oId: string;

beforeAll(async () => {
  // QUARRY_SOURCES leaves web.search out, so its calls fail (503) whatever the key's mode.
  gw = await startGateway({ QUARRY_RATE_LIMIT_PER_MINUTE: '1000', QUARRY_SOURCES: 'reddit' });
  catalogueIds = (await get(gw.url, '/v1/catalogue')).json.data.endpoints.map((e: { id: string }) => e.id);

  [alpha, beta] = await newAccount('alpha', 'beta');
  for (const [key, tags] of [
    [alpha, ['red', 'ci']],
    [beta, ['blue']],
    [alpha, ['red', 'ci']],
    [beta, ['blue']],
    [alpha, ['red', 'ci']],
  ] as const) {
    fOrder.push(await call(key, [...tags]));
    await sleep(3); // distinct createdAt, so "newest first" is one exact order
  }
  const invalid = await post(gw.url, '/v1/reddit/subforum', { ...BODY, limit: 101 }, { key: alpha.apiKey });
  expect(invalid.status).toBe(400);
  const unavailable = await post(gw.url, '/v1/web/search', { query: 'coffee' }, { key: beta.apiKey });
  expect(unavailable.status).toBe(503);
  fFailed.push(invalid.json.error.requestId, unavailable.json.error.requestId);

  [pager] = await newAccount('pager');
  for (let i = 0; i < 55; i++) pIds.push(await call(pager));

  [dated] = await newAccount('dated');
  dToday = await call(dated);
  const now = Date.now();
  const startOfToday = Math.floor(now / DAY_MS) * DAY_MS;
  const record = (id: string, endpoint: string, createdAt: number) =>
    gw.gateway.deps.store.recordTestCall({
      id,
      accountId: dated.accountId,
      keyId: dated.keyId,
      keyName: dated.name,
      endpoint,
      credits: 2,
      cache: 'miss',
      test: true,
      tags: [],
      createdAt,
      channel: 'rest',
    });
  await record('req_dated_yesterday', 'reddit.subforum', startOfToday - 60_000);
  await record('req_dated_2d_web', 'web.search', now - 2 * DAY_MS);
  await record('req_dated_10d', 'reddit.subforum', now - 10 * DAY_MS);

  [other] = await newAccount('other');
  oId = await call(other);
});
afterAll(() => gw.close());

describe('Logs endpoint, variant A (GET /v1/logs)', () => {
  it('the response is {logs, endpoints, page, pageSize: 50, total, totalPages}, not wrapped in success/data', async () => {
    const r = await logs(alpha);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['endpoints', 'logs', 'page', 'pageSize', 'total', 'totalPages']);
    expect(r.json).toMatchObject({ page: 0, pageSize: 50, total: 5, totalPages: 1 });
    expect(r.json.logs).toHaveLength(5);
  });

  it('endpoints is every endpoint id of the catalogue', async () => {
    const r = await logs(alpha);
    expect(r.json.endpoints).toEqual(catalogueIds);
    expect(r.json.endpoints).toContain('reddit.subforum');
    expect(r.json.endpoints).toContain('web.search');
  });

  it('each log: id is the call requestId, createdAt ISO 8601, endpoint id, credits, apiKeyId, apiKeyName, method POST, status 200, response success, durationMs the real duration (issue 38.3); marked test', async () => {
    const r = await logs(alpha);
    const byId = new Map<string, any>(r.json.logs.map((l: any) => [l.id, l]));
    const before = Date.now();
    for (const [i, id] of fOrder.entries()) {
      const key = i % 2 === 0 ? alpha : beta;
      const log = byId.get(id);
      expect(log, id).toBeDefined();
      expect(log).toMatchObject({
        id,
        endpoint: 'reddit.subforum',
        credits: 2,
        apiKeyId: key.keyId,
        apiKeyName: key.name,
        method: 'POST',
        status: 200,
        response: 'success',
        test: true,
      });
      expect(Number.isInteger(log.durationMs) && log.durationMs >= 0, String(log.durationMs)).toBe(true);
      expect(log.createdAt).toMatch(ISO);
      expect(new Date(log.createdAt).toISOString()).toBe(log.createdAt);
      expect(Date.parse(log.createdAt)).toBeLessThanOrEqual(before);
      expect(Date.parse(log.createdAt)).toBeGreaterThan(before - 60_000);
    }
  });

  it('only paid calls are logged (failed calls are not), newest first', async () => {
    const r = await logs(beta); // any key of the account sees the account's calls
    expect(r.json.logs.map((l: any) => l.id)).toEqual([...fOrder].reverse());
    for (const id of fFailed) expect(r.text).not.toContain(id);
  });

  it('50 per page: page 0 has 50, page=1 has the other 5, newest first across pages', async () => {
    const [p0, p1, p2] = await Promise.all([logs(pager), logs(pager, 'page=1'), logs(pager, 'page=2')]);
    for (const r of [p0, p1, p2]) expect(r.json).toMatchObject({ pageSize: 50, total: 55, totalPages: 2 });
    expect(p0.json.page).toBe(0);
    expect(p1.json.page).toBe(1);
    expect(p0.json.logs).toHaveLength(50);
    expect(p1.json.logs).toHaveLength(5);
    expect(p2.json.logs).toEqual([]);
    const all = [...p0.json.logs, ...p1.json.logs];
    expect(new Set(all.map((l: any) => l.id))).toEqual(new Set(pIds));
    const times = all.map((l: any) => Date.parse(l.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
  });

  it('filter endpoint (an endpoint id)', async () => {
    const [reddit, web, dWeb] = await Promise.all([
      logs(alpha, 'endpoint=reddit.subforum'),
      logs(alpha, 'endpoint=web.search'),
      logs(dated, 'endpoint=web.search'),
    ]);
    expect(reddit.json.total).toBe(5);
    expect(web.json).toMatchObject({ total: 0, logs: [], totalPages: 0 });
    expect(dWeb.json.logs.map((l: any) => [l.id, l.endpoint])).toEqual([['req_dated_2d_web', 'web.search']]);
  });

  it('filter apiKeyId: two keys on one account', async () => {
    const [a, b] = await Promise.all([logs(alpha, `apiKeyId=${alpha.keyId}`), logs(alpha, `apiKeyId=${beta.keyId}`)]);
    expect(a.json.logs.map((l: any) => l.id)).toEqual([fOrder[4], fOrder[2], fOrder[0]]);
    expect(a.json.logs.every((l: any) => l.apiKeyId === alpha.keyId && l.apiKeyName === 'alpha')).toBe(true);
    expect(b.json.logs.map((l: any) => l.id)).toEqual([fOrder[3], fOrder[1]]);
    expect(b.json.total).toBe(2);
    // Another account's key id filters to nothing, never to that account's calls.
    expect((await logs(alpha, `apiKeyId=${other.keyId}`)).json.total).toBe(0);
  });

  it('filter tag (SPEC Common conventions 8: tags filter the logs)', async () => {
    const [red, ci, blue, none] = await Promise.all([
      logs(alpha, 'tag=red'),
      logs(alpha, 'tag=ci'),
      logs(alpha, 'tag=blue'),
      logs(alpha, 'tag=green'),
    ]);
    expect(red.json.logs.map((l: any) => l.id)).toEqual([fOrder[4], fOrder[2], fOrder[0]]);
    expect(ci.json.total).toBe(3);
    expect(blue.json.logs.map((l: any) => l.id)).toEqual([fOrder[3], fOrder[1]]);
    expect(none.json).toMatchObject({ total: 0, logs: [] });
  });

  it('days (default 7) bounds how far back the listing goes', async () => {
    const [def, d7, d30, d90, d1] = await Promise.all([
      logs(dated),
      logs(dated, 'days=7'),
      logs(dated, 'days=30'),
      logs(dated, 'days=90'),
      logs(dated, 'days=1'),
    ]);
    const ids = (r: typeof def) => r.json.logs.map((l: any) => l.id);
    expect(ids(def)).toEqual([dToday, 'req_dated_yesterday', 'req_dated_2d_web']);
    expect(ids(d7)).toEqual(ids(def));
    expect(ids(d30)).toEqual([dToday, 'req_dated_yesterday', 'req_dated_2d_web', 'req_dated_10d']);
    expect(ids(d90)).toEqual(ids(d30));
    expect(d1.status).toBe(200);
    expect(ids(d1)).toContain(dToday);
    expect(ids(d1)).not.toContain('req_dated_2d_web');
  });

  it("another account's key sees none of these calls", async () => {
    const r = await logs(other);
    expect(r.json.logs.map((l: any) => l.id)).toEqual([oId]);
    expect(r.json.total).toBe(1);
  });

  it('days outside 1-90 or a negative page gives 400 invalidRequest naming the field', async () => {
    for (const [query, field] of [
      ['days=0', 'days'],
      ['days=91', 'days'],
      ['days=abc', 'days'],
      ['days=1.5', 'days'],
      ['page=-1', 'page'],
      ['page=abc', 'page'],
    ]) {
      const r = await logs(alpha, query);
      expect(r.status, query).toBe(400);
      expect(r.json.success).toBe(false);
      expect(r.json.error.code).toBe('invalidRequest');
      expect(r.json.error.message).toMatch(new RegExp(`^${field}: `));
      expect(r.json.error.requestId).toBe(r.headers.get('x-request-id'));
    }
  });

  it('Authentication 4: a missing or invalid key gives 401 unauthorized in the current envelope', async () => {
    for (const key of [undefined, 'qry_notARealKeyAtAll1234', 'garbage']) {
      const r = await logs(key);
      expect(r.status).toBe(401);
      expect(r.json.success).toBe(false);
      expect(r.json.error).toMatchObject({ code: 'unauthorized', retryable: false });
      expect(r.json.error.requestId).toBe(r.headers.get('x-request-id'));
    }
  });
});

describe('Logs endpoint, variant B (days=today, or endpoint starting with /)', () => {
  it('days=today selects variant B: {success: true, requestId, data: {logs, total, page, pageSize, totalPages, endpoints}}', async () => {
    const r = await logs(alpha, 'days=today');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['data', 'requestId', 'success']);
    expect(r.json.success).toBe(true);
    expect(r.json.requestId).toBe(r.headers.get('x-request-id'));
    expect(Object.keys(r.json.data).sort()).toEqual(['endpoints', 'logs', 'page', 'pageSize', 'total', 'totalPages']);
    expect(r.json.data).toMatchObject({ page: 0, pageSize: 50, total: 5, totalPages: 1 });
    expect(r.json.data.endpoints).toEqual(catalogueIds.map((id) => '/' + id.split('.').join('/')));
    expect(r.json.data.endpoints).toContain('/reddit/subforum');
  });

  it('each log has id, userId, apiKeyId, apiKeyName, endpoint (a path), method, credits (a string), response, createdAt and status (a number)', async () => {
    const r = await logs(alpha, 'days=today');
    expect(r.json.data.logs.map((l: any) => l.id)).toEqual([...fOrder].reverse());
    for (const log of r.json.data.logs) {
      const key = log.apiKeyId === alpha.keyId ? alpha : beta;
      expect(log).toMatchObject({
        userId: alpha.accountId,
        apiKeyId: key.keyId,
        apiKeyName: key.name,
        endpoint: '/reddit/subforum',
        method: 'POST',
        credits: '2',
        response: 'success',
        status: 200,
      });
      expect('durationMs' in log).toBe(true);
      expect(log.createdAt).toMatch(ISO);
    }
  });

  it('an endpoint starting with / selects variant B and filters by path prefix', async () => {
    const [reddit, subforum, web, partial, fReddit, doubled] = await Promise.all([
      logs(dated, 'endpoint=/reddit'),
      logs(dated, 'endpoint=/reddit/subforum'),
      logs(dated, 'endpoint=/web'),
      logs(dated, 'endpoint=/red'),
      logs(alpha, 'endpoint=/reddit'),
      // Slashes doubled or trailing separate nothing (read by splitting: a pattern trimming them backtracked
      // quadratically over a long run).
      logs(dated, `endpoint=//reddit//subforum${'/'.repeat(5000)}`),
    ]);
    const ids = (r: typeof reddit) => r.json.data.logs.map((l: any) => l.id);
    for (const r of [reddit, subforum, web, partial, fReddit, doubled]) expect(r.json.success).toBe(true);
    expect(ids(reddit)).toEqual([dToday, 'req_dated_yesterday']); // default 7 days
    expect(ids(subforum)).toEqual(ids(reddit));
    expect(ids(doubled)).toEqual(ids(subforum));
    expect(web.json.data.logs.map((l: any) => [l.id, l.endpoint])).toEqual([['req_dated_2d_web', '/web/search']]);
    expect(partial.json.data).toMatchObject({ total: 0, logs: [] });
    expect(fReddit.json.data.total).toBe(5);
  });

  it('days is one of today, 7, 30', async () => {
    const [today, d7, d30] = await Promise.all([
      logs(dated, 'days=today&endpoint=/reddit'),
      logs(dated, 'days=7&endpoint=/reddit'),
      logs(dated, 'days=30&endpoint=/reddit'),
    ]);
    const ids = (r: typeof today) => r.json.data.logs.map((l: any) => l.id);
    expect(ids(today)).toEqual([dToday]);
    expect(ids(d7)).toEqual([dToday, 'req_dated_yesterday']);
    expect(ids(d30)).toEqual([dToday, 'req_dated_yesterday', 'req_dated_10d']);
  });

  it('page size fixed at 50', async () => {
    const [p0, p1] = await Promise.all([logs(pager, 'days=today'), logs(pager, 'days=today&page=1')]);
    expect(p0.json.data).toMatchObject({ page: 0, pageSize: 50, total: 55, totalPages: 2 });
    expect(p0.json.data.logs).toHaveLength(50);
    expect(p1.json.data).toMatchObject({ page: 1, total: 55 });
    expect(p1.json.data.logs).toHaveLength(5);
  });

  it("another account's key sees none of these calls", async () => {
    const r = await logs(other, 'days=today');
    expect(r.json.data.logs.map((l: any) => [l.id, l.userId])).toEqual([[oId, other.accountId]]);
  });

  it('days=5 (or a negative page) gives 400 in the legacy shape {success: false, code: INVALID_INPUT, error, details: null}', async () => {
    for (const [query, field] of [
      ['days=5&endpoint=/reddit', 'days'],
      ['days=90&endpoint=/reddit', 'days'],
      ['days=today&page=-1', 'page'],
    ]) {
      const r = await logs(alpha, query);
      expect(r.status, query).toBe(400);
      expect(Object.keys(r.json).sort()).toEqual(['code', 'details', 'error', 'success']);
      expect(r.json).toMatchObject({ success: false, code: 'INVALID_INPUT', details: null });
      expect(r.json.error).toMatch(new RegExp(`^${field}: `));
    }
  });

  it("an invalid or missing key gives 401 in the legacy shape: UNAUTHORIZED, 'Invalid or missing API key.'", async () => {
    for (const [key, query] of [
      ['qry_notARealKeyAtAll1234', 'days=today'],
      [undefined, 'days=today'],
      ['qry_notARealKeyAtAll1234', 'endpoint=/reddit'],
    ] as const) {
      const r = await logs(key, query);
      expect(r.status).toBe(401);
      expect(r.json).toEqual(LEGACY_UNAUTHORIZED);
    }
  });
});
