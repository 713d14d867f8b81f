/**
 * Scale-out (issue 6, "How it must be shown"): two gateways on one PostgreSQL and one Redis. Credits cannot be
 * overdrawn across instances, a result cached by one is a hit on the other, identical misses are fetched once, and
 * a key's rate limit is counted once for both. Skips unless QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL are set.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';
import { SHARED_SKIP_REASON, adminQuery, sharedBackends, type Backends } from '../helpers/shared-backends.js';

const RUN = !SHARED_SKIP_REASON && HAVE_FORUM_RECORDINGS;

/** Two gateways sharing one schema, one Redis prefix and one server secret (so a key works on both). */
async function pair(env: Record<string, string>): Promise<{ a: TestGateway; b: TestGateway; backends: Backends; close(): Promise<void> }> {
  const backends = await sharedBackends();
  const shared = { ...backends.env, QUARRY_SECRET: randomBytes(32).toString('hex'), ...env };
  const a = await startGateway(shared);
  const b = await startGateway(shared);
  return {
    a,
    b,
    backends,
    async close() {
      await a.close();
      await b.close();
      await backends.drop();
    },
  };
}

/** Waits until at least `s` seconds are left in the current clock minute (rate windows are aligned to it). */
async function awayFromMinuteEdge(s = 6): Promise<void> {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < s) await new Promise((r) => setTimeout(r, left * 1000 + 200));
}

describe.skipIf(!RUN)(`two instances on one PostgreSQL + one Redis${SHARED_SKIP_REASON}${FORUM_SKIP_REASON}`, () => {
  let upstream: RedditUpstream;
  let p: Awaited<ReturnType<typeof pair>>;
  beforeAll(async () => {
    upstream = await startRedditUpstream();
    p = await pair({ QUARRY_REDDIT_PUBLIC_URL: upstream.url, QUARRY_RATE_LIMIT_PER_MINUTE: '100000', QUARRY_MAX_IN_FLIGHT: '100' });
  });
  afterAll(async () => {
    await p?.close();
    await upstream?.close();
  });

  it('3 calls worth of credits, 20 concurrent paid calls split over both instances: exactly 3 succeed, the rest are 402', async () => {
    // reddit.subforum costs a fixed 2 credits: 6 credits are exactly 3 calls.
    const { accountId, apiKey } = await p.a.accounts.createAccount({ credits: 6 });
    upstream.delayMs = 50;
    try {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          post(i % 2 ? p.b.url : p.a.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5, maxAge: 0 }, { key: apiKey }),
        ),
      );
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      expect(statuses.filter((s) => s === 402)).toHaveLength(17);
      for (const r of results.filter((x) => x.status === 402)) expect(r.json.error.code).toBe('insufficientCredits');
    } finally {
      upstream.delayMs = 0;
    }
    const q = (sql: string) => adminQuery(sql, [accountId], p.backends.schema).then((r) => r.rows[0]);
    expect(await q('SELECT balance FROM accounts WHERE id = $1')).toEqual({ balance: 0 });
    expect(await q("SELECT count(*) AS n FROM reservations WHERE account_id = $1 AND state = 'held'")).toEqual({ n: 0 });
    expect(await q("SELECT count(*) AS n, -sum(delta) AS s FROM ledger WHERE account_id = $1 AND kind = 'charge'")).toEqual({ n: 3, s: 6 });
    expect(await q('SELECT sum(delta) AS s FROM ledger WHERE account_id = $1')).toEqual({ s: 0 });
    expect(await q('SELECT count(*) AS n, sum(credits) AS s FROM calls WHERE account_id = $1')).toEqual({ n: 3, s: 6 });
  });

  it('a result cached by one instance is a hit on the other (billed there at list price)', async () => {
    const { accountId, apiKey } = await p.a.accounts.createAccount({ credits: 10 });
    const body = { subforum: 'golang', limit: 7 };
    const first = await post(p.a.url, '/v1/reddit/subforum', body, { key: apiKey });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    const before = upstream.seen.length;
    const second = await post(p.b.url, '/v1/reddit/subforum', body, { key: apiKey });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(second.json.data).toEqual(first.json.data);
    expect(upstream.seen.length).toBe(before); // no upstream request for the hit
    expect((await p.b.gateway.deps.store.getAccount(accountId))!.balance).toBe(10 - 2 - 2);
  });

  it('identical concurrent misses on both instances make one upstream request; each caller is billed once', async () => {
    const { accountId, apiKey } = await p.a.accounts.createAccount({ credits: 100 });
    // One miss alone: how many upstream requests one fetch makes.
    let before = upstream.seen.length;
    expect((await post(p.a.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 11 }, { key: apiKey })).status).toBe(200);
    const perFetch = upstream.seen.length - before;
    upstream.delayMs = 300;
    before = upstream.seen.length;
    try {
      const body = { subforum: 'golang', limit: 9 };
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(i % 2 ? p.b.url : p.a.url, '/v1/reddit/subforum', body, { key: apiKey })),
      );
      for (const r of results) expect(r.status).toBe(200);
      expect(upstream.seen.length - before).toBe(perFetch);
    } finally {
      upstream.delayMs = 0;
    }
    expect((await p.a.gateway.deps.store.getAccount(accountId))!.balance).toBe(100 - 11 * 2);
  });

  it("a key's rate limit is shared: the window counts calls on both instances", async () => {
    const limited = await pair({ QUARRY_REDDIT_PUBLIC_URL: upstream.url, QUARRY_RATE_LIMIT_PER_MINUTE: '4' });
    try {
      const { accountId } = await limited.a.accounts.createAccount({ credits: 0 });
      const { apiKey } = await limited.a.accounts.createKey({ accountId, test: true });
      await awayFromMinuteEdge();
      const remaining: (string | null)[] = [];
      const resets = new Set<string | null>();
      for (const gw of [limited.a, limited.b, limited.a, limited.b]) {
        const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: apiKey });
        expect(r.status).toBe(200);
        remaining.push(r.headers.get('x-ratelimit-remaining'));
        resets.add(r.headers.get('x-ratelimit-reset'));
      }
      expect(remaining).toEqual(['3', '2', '1', '0']);
      expect(resets.size).toBe(1); // one clock-aligned window for both instances
      for (const gw of [limited.a, limited.b]) {
        const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: apiKey });
        expect(r.status).toBe(429);
        expect(r.json.error.code).toBe('rateLimited');
        expect(r.headers.get('x-ratelimit-reset')).toBe([...resets][0]);
      }
    } finally {
      await limited.close();
    }
  });

  it('a key revoked through one instance is refused by the other', async () => {
    const { accountId } = await p.a.accounts.createAccount({ credits: 0 });
    const k = await p.a.accounts.createKey({ accountId, test: true });
    expect((await post(p.b.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: k.apiKey })).status).toBe(200);
    await p.a.gateway.deps.store.revokeKey(k.keyId);
    await new Promise((r) => setTimeout(r, 400)); // B re-reads the key epoch every 250 ms
    post(p.b.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: k.apiKey }).catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
    expect((await post(p.b.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: k.apiKey })).status).toBe(401);
  });

  it('an Idempotency-Key sent to both instances at once runs once, is charged once, and both get the same answer', async () => {
    const { accountId, apiKey } = await p.a.accounts.createAccount({ credits: 10 });
    upstream.delayMs = 200;
    try {
      const body = { subforum: 'idempotent', limit: 5, maxAge: 0 };
      const headers = { 'idempotency-key': `both-${accountId}` };
      const [ra, rb] = await Promise.all([
        post(p.a.url, '/v1/reddit/subforum', body, { key: apiKey, headers }),
        post(p.b.url, '/v1/reddit/subforum', body, { key: apiKey, headers }),
      ]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      expect(ra.text).toBe(rb.text);
      expect([ra, rb].filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    } finally {
      upstream.delayMs = 0;
    }
    const q = (sql: string) => adminQuery(sql, [accountId], p.backends.schema).then((r) => r.rows[0]);
    expect(await q('SELECT balance FROM accounts WHERE id = $1')).toEqual({ balance: 8 });
    expect(await q('SELECT count(*) AS n FROM calls WHERE account_id = $1')).toEqual({ n: 1 });
  });
});
