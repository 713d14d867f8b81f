/** SPEC.md "Success envelope", "Error envelope", Common conventions 3-6, CONTRACT.md "Keys" (test mode). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasEmptyValue, post, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let testKey: string;
let accountId: string;

beforeAll(async () => {
  gw = await startGateway();
  const acct = await gw.accounts.createAccount({ credits: 10 });
  accountId = acct.accountId;
  testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
});
afterAll(() => gw.close());

describe('success envelope and headers', () => {
  it('convention 3: success envelope with X-Request-ID, x-credits-used, X-RateLimit-*, x-cache, x-cache-age', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5 }, { key: testKey });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['creditsUsed', 'data', 'requestId', 'success']);
    expect(r.json.success).toBe(true);
    expect(r.json.creditsUsed).toBe(2);
    expect(r.json.requestId).toMatch(/^req_/);
    expect(r.headers.get('x-request-id')).toBe(r.json.requestId);
    expect(r.headers.get('x-credits-used')).toBe('2');
    expect(Number(r.headers.get('x-ratelimit-limit'))).toBe(600);
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(600);
    const reset = Number(r.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    expect(['hit', 'miss']).toContain(r.headers.get('x-cache'));
    expect(r.headers.get('x-cache-age')).toMatch(/^\d+$/);
    expect(r.json.data.posts).toHaveLength(5);
    expect(r.json.data.subforum.type).toBe('subforum');
    expect(r.json.data.cursor).toMatch(/^t3_/);
  });

  it('empty values (null, "", {}, []) are omitted from the success body', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 100 }, { key: testKey });
    expect(r.status).toBe(200);
    expect(hasEmptyValue(r.json)).toBe(false);
  });

  it('test mode reports the price but leaves the balance untouched', async () => {
    await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 7 }, { key: testKey });
    expect((await gw.gateway.deps.store.getAccount(accountId))!.balance).toBe(10);
  });
});

describe('maxTextLength (convention 5)', () => {
  it('cuts every longer text to N-1 characters plus an ellipsis, and leaves the cache whole', async () => {
    const whole = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 20 }, { key: testKey });
    const cut = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 20 }, { key: testKey, query: 'maxTextLength=10' });
    expect(cut.status).toBe(200);
    const texts: string[] = [];
    const walk = (v: unknown) => {
      if (typeof v === 'string') texts.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(cut.json.data);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => t.length <= 10)).toBe(true);
    const longTitle = whole.json.data.posts.find((p: { title: string }) => p.title.length > 10).title as string;
    expect(cut.json.data.posts.map((p: { title: string }) => p.title)).toContain(longTitle.slice(0, 9) + '…');
    const again = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 20 }, { key: testKey });
    expect(again.headers.get('x-cache')).toBe('hit');
    expect(again.json.data).toEqual(whole.json.data);
  });
});

describe('markdown responses (convention 6)', () => {
  it('Accept: text/markdown returns readable text rendered from the record', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 2 }, { key: testKey, headers: { accept: 'text/markdown' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(r.text).toMatch(/^# /);
    expect(r.text).toMatch(/## Posts/);
    expect(r.text).toContain('**Subforum:**');
    expect(r.headers.get('x-credits-used')).toBe('2');
  });

  it('errors stay JSON even when markdown is asked for', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', {}, { key: testKey, headers: { accept: 'text/markdown' } });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.json.error.code).toBe('invalidRequest');
  });
});

describe('error envelope and authentication', () => {
  it('Authentication 4: a missing key gives 401 unauthorized with the error envelope', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' });
    expect(r.status).toBe(401);
    expect(r.json).toEqual({
      success: false,
      error: { code: 'unauthorized', message: expect.any(String), retryable: false, requestId: r.headers.get('x-request-id') },
    });
    expect(r.headers.get('retry-after')).toBe('0');
  });

  it('Authentication 4: an invalid or malformed key gives 401', async () => {
    for (const key of ['qry_doesnotexist12345678', 'sk_live_abc', 'qry_']) {
      const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key });
      expect(r.status, key).toBe(401);
      expect(r.json.error.code).toBe('unauthorized');
    }
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { headers: { authorization: 'Basic abc' } });
    expect(r.status).toBe(401);
  });

  it('a revoked key is refused', async () => {
    const k = await gw.accounts.createKey({ accountId, name: 'short-lived', test: true });
    expect((await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: k.apiKey })).status).toBe(200);
    await gw.gateway.deps.store.revokeKey(k.keyId);
    expect((await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: k.apiKey })).status).toBe(401);
  });

  it('keys are stored as keyed hashes and sealed, never in clear, and can be revealed to their account', async () => {
    const k = await gw.accounts.createKey({ accountId, name: 'reveal' });
    const db = (gw.gateway.deps.store as unknown as { db: import('better-sqlite3').Database }).db;
    const rows = db.prepare('SELECT * FROM api_keys').all() as Record<string, unknown>[];
    const dump = JSON.stringify(rows.map((r) => ({ ...r, hash: (r.hash as Buffer).toString('hex') })));
    expect(dump).not.toContain(k.apiKey);
    expect(dump).not.toContain(k.apiKey.slice(4));
    expect(await gw.accounts.revealKey(accountId, k.keyId)).toBe(k.apiKey);
    expect(await gw.accounts.revealKey('acct_other', k.keyId)).toBeNull();
  });
});
