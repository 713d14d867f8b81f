/**
 * CONTRACT.md "Paths and ids": GET /v1/usage (key needed, free), filterable by `tag`; SPEC.md Common conventions 8
 * (tags filter the usage listing), success envelope (empty values omitted), Authentication 4 and Errors rule 1.
 * Over real HTTP with test-mode keys (test calls are counted in usage, CONTRACT.md "Keys").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, hasEmptyValue, post, startGateway, type TestGateway } from '../helpers/gateway.js';

const DAY_MS = 86_400_000;
const BODY = { subforum: 'golang', limit: 5 };

let gw: TestGateway;
let key: string;
let keyId: string;
let accountId: string;
let today: string;

/** GET /v1/usage with the account's key, or with `as` (null: no Authorization header at all). */
const usage = (query = '', as?: string | null) =>
  get(gw.url, `/v1/usage${query ? `?${query}` : ''}`, { key: as === undefined ? key : (as ?? undefined) });

async function call(tags?: string[]): Promise<void> {
  const r = await post(gw.url, '/v1/reddit/subforum', tags ? { ...BODY, tags } : BODY, { key });
  expect(r.status, r.text).toBe(200);
  expect(r.json.creditsUsed).toBe(2);
}

beforeAll(async () => {
  // QUARRY_SOURCES leaves web.search out, so its call below fails (503) even with a test-mode key.
  gw = await startGateway({ QUARRY_SOURCES: 'reddit' });
  const acct = await gw.accounts.createAccount({ credits: 0 });
  accountId = acct.accountId;
  const k = await gw.accounts.createKey({ accountId, name: 'usage', test: true });
  key = k.apiKey;
  keyId = k.keyId;
  await call(['x', 'shared']);
  await call(['x', 'shared']);
  await call(['y', 'shared']);
  await call();
  // Failed calls are neither billed nor counted.
  expect((await post(gw.url, '/v1/reddit/subforum', { ...BODY, limit: 101, tags: ['x'] }, { key })).status).toBe(400);
  expect((await post(gw.url, '/v1/web/search', { query: 'coffee' }, { key })).status).toBe(503);
  today = new Date().toISOString().slice(0, 10);
});
afterAll(() => gw.close());

describe('Usage listing (GET /v1/usage)', () => {
  it('answers the success envelope with calls, credits, byEndpoint, byDay (UTC date) and byTag; free', async () => {
    const r = await usage();
    expect(r.status).toBe(200);
    expect(r.json.success).toBe(true);
    expect(r.json.creditsUsed).toBe(0);
    expect(r.json.requestId).toBe(r.headers.get('x-request-id'));
    const d = r.json.data;
    expect(d.calls).toBe(4);
    expect(d.credits).toBe(8);
    expect(d.byEndpoint).toEqual([{ endpoint: 'reddit.subforum', calls: 4, credits: 8 }]);
    expect(d.byDay).toEqual([{ day: today, calls: 4, credits: 8 }]);
    expect(d.byTag).toEqual(
      expect.arrayContaining([
        { tag: 'shared', calls: 3, credits: 6 },
        { tag: 'x', calls: 2, credits: 4 },
        { tag: 'y', calls: 1, credits: 2 },
      ]),
    );
    expect(d.byTag).toHaveLength(3);
  });

  it('?tag=x filters to the calls carrying that tag', async () => {
    const [x, y, shared] = await Promise.all([usage('tag=x'), usage('tag=y'), usage('tag=shared')]);
    expect(x.status).toBe(200);
    expect(x.json.data).toMatchObject({
      calls: 2,
      credits: 4,
      byEndpoint: [{ endpoint: 'reddit.subforum', calls: 2, credits: 4 }],
      byDay: [{ day: today, calls: 2, credits: 4 }],
      byTag: [{ tag: 'x', calls: 2, credits: 4 }],
    });
    expect(y.json.data).toMatchObject({ calls: 1, credits: 2, byTag: [{ tag: 'y', calls: 1, credits: 2 }] });
    expect(shared.json.data).toMatchObject({ calls: 3, credits: 6 });
  });

  it('a tag nobody used gives zero totals and no empty arrays', async () => {
    const r = await usage('tag=never-used');
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ calls: 0, credits: 0 });
    expect(hasEmptyValue(r.json)).toBe(false);
  });

  it('days bounds the period', async () => {
    await gw.gateway.deps.store.recordTestCall({
      id: 'req_usage_10_days_ago',
      accountId,
      keyId,
      keyName: 'usage',
      endpoint: 'web.search',
      credits: 1,
      cache: 'miss',
      test: true,
      tags: ['old'],
      createdAt: Date.now() - 10 * DAY_MS,
      channel: 'rest',
    });
    const [d7, d30] = await Promise.all([usage('days=7'), usage('days=30')]);
    expect(d7.json.data).toMatchObject({ calls: 4, credits: 8 });
    expect(d7.json.data.byTag.map((t: any) => t.tag)).not.toContain('old');
    expect(d30.json.data).toMatchObject({ calls: 5, credits: 9 });
    expect(d30.json.data.byEndpoint).toEqual(
      expect.arrayContaining([{ endpoint: 'web.search', calls: 1, credits: 1 }, { endpoint: 'reddit.subforum', calls: 4, credits: 8 }]),
    );
    expect(d30.json.data.byDay).toHaveLength(2);
    expect(d30.json.data.byDay[1]).toEqual({ day: today, calls: 4, credits: 8 });
  });

  it('bad days or tag gives 400 invalidRequest naming the field', async () => {
    for (const [query, field] of [
      ['days=0', 'days'],
      ['days=91', 'days'],
      ['days=abc', 'days'],
      ['days=-1', 'days'],
      ['tag=bad%20tag!', 'tag'],
      [`tag=${'t'.repeat(51)}`, 'tag'],
      ['tag=', 'tag'],
    ]) {
      const r = await usage(query);
      expect(r.status, query).toBe(400);
      expect(r.json.success).toBe(false);
      expect(r.json.error.code).toBe('invalidRequest');
      expect(r.json.error.message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('Authentication 4: a missing or invalid key gives 401 unauthorized', async () => {
    for (const k of [null, 'qry_notARealKeyAtAll1234', 'garbage']) {
      const r = await usage('', k);
      expect(r.status).toBe(401);
      expect(r.json.success).toBe(false);
      expect(r.json.error.code).toBe('unauthorized');
    }
  });

  it("empty values are omitted: a fresh account's usage has no empty arrays (or nulls) in the body", async () => {
    const fresh = await gw.accounts.createAccount({ credits: 0 });
    const r = await usage('', fresh.apiKey);
    expect(r.status).toBe(200);
    expect(r.json.success).toBe(true);
    expect(r.json.data).toMatchObject({ calls: 0, credits: 0 });
    for (const field of ['byEndpoint', 'byDay', 'byTag']) expect(r.json.data).not.toHaveProperty(field);
    expect(hasEmptyValue(r.json)).toBe(false);
  });

  it("another account's usage does not include these calls", async () => {
    const other = await gw.accounts.createAccount({ credits: 0 });
    const otherKey = (await gw.accounts.createKey({ accountId: other.accountId, test: true })).apiKey;
    const r = await post(gw.url, '/v1/reddit/subforum', { ...BODY, tags: ['x'] }, { key: otherKey });
    expect(r.status).toBe(200);
    const u = await usage('tag=x', otherKey);
    expect(u.json.data).toMatchObject({ calls: 1, credits: 2 });
  });
});
