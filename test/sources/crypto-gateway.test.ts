/**
 * The crypto source through the gateway over HTTP on loopback: live calls against the replay double
 * (QUARRY_UPSTREAM_OVERRIDES; CoinGecko recorded, the other upstreams documented), prices from what came back,
 * paging, walls and drift unbilled, the operator settings in /v1/sources, and test mode for every example.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { get } from '../helpers/gateway.js';
import { endpointsOf, useSourceGateway } from '../helpers/source-gateway.js';
import { CRYPTO_HOSTS, CRYPTO_SKIP, HAVE_CRYPTO, PUMP_MINT, VITALIK, cryptoReplay, outgoing } from './crypto-doubles.js';

const WALLED_MINT = 'CfWaLLedCoin1111111111111111111111111pump';

describe.skipIf(!HAVE_CRYPTO)(`crypto through the gateway${CRYPTO_SKIP}`, () => {
  const g = useSourceGateway(() => ({
    replay: cryptoReplay([
      {
        host: 'frontend-api-v3.pump.fun',
        path: `/coins/${WALLED_MINT}`,
        status: 403,
        text: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget"></div></body></html>',
        headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge' },
      },
    ]),
    hosts: CRYPTO_HOSTS,
    env: { QUARRY_CRYPTO_COINGECKO_KEY: 'gateway-key', QUARRY_CRYPTO_COINGECKO_PLAN: 'pro' },
    credits: 1000,
  }));
  beforeEach(() => {
    g.replay.mutate = outgoing();
  });

  it('live: trending from the recordings, on the operator’s paid CoinGecko plan, for 1 credit', async () => {
    const r = await g.post('/v1/crypto/trending', { maxAge: 0 });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data.coins).toHaveLength(15);
    expect(r.json.data.market.marketCap.currency).toBe('USD');
    expect(g.replay.seen.filter((s) => s.path === '/api/v3/search/trending').every((s) => s.host === 'pro-api.coingecko.com' && s.headers['x-cg-pro-api-key'] === 'gateway-key')).toBe(true);
  });

  it('per-item prices follow what came back; the cursor pages on; an empty answer is free', async () => {
    const before = await g.balance();
    const first = await g.post('/v1/crypto/binance/announcements', { category: 'listings', limit: 23 });
    expect(first.status).toBe(200);
    expect(first.json.data.announcements).toHaveLength(23);
    expect(first.json.creditsUsed).toBe(2); // 23 announcements: two units of 20
    expect(first.json.data.cursor).toBeUndefined();
    const cut = await g.post('/v1/crypto/binance/announcements', { category: 'listings', limit: 20 });
    expect([cut.json.creditsUsed, cut.json.data.cursor]).toEqual([1, '2']);
    const next = await g.post('/v1/crypto/binance/announcements', { category: 'listings', limit: 20, cursor: cut.json.data.cursor });
    expect(next.json.data.announcements).toHaveLength(3);
    expect(next.json.creditsUsed).toBe(1);
    const trades = await g.post('/v1/crypto/pumpfun/trades', { coin: PUMP_MINT, limit: 500 });
    expect([trades.json.data.trades.length, trades.json.creditsUsed]).toEqual([3, 1]);
    const empty = await g.post('/v1/crypto/wallet', { chain: 'base', wallet: '0x0000000000000000000000000000000000000002' });
    expect(empty.status).toBe(200);
    expect(empty.json.creditsUsed).toBe(0);
    expect(await g.balance()).toBe(before - 2 - 1 - 1 - 1);
  });

  it('a drifted CoinGecko answer is 502 sourceChanged and unbilled', async () => {
    await g.expectDrift('/v1/crypto/trending', { maxAge: 0 }, outgoing((name, body) => (name.endsWith('GetTrendingSearches.txt') ? body.replace('"coins":', '"coinz":') : body)));
  });

  it('a bot wall is 502 sourceRefused and unbilled; an unknown coin 404; bad input a 400 naming the field', async () => {
    await g.expectRefused('/v1/crypto/pumpfun/coin', { coin: WALLED_MINT });
    await g.expectFailure('/v1/crypto/coin', { coin: 'no-such-coin' }, { status: 404, code: 'notFound' });
    const bad = await g.expectFailure('/v1/crypto/wallet', { chain: 'ethereum', wallet: 'not-a-wallet' }, { status: 400 });
    expect(bad.json.error.message).toMatch(/^wallet: /);
    await g.expectFailure('/v1/crypto/pumpfun/coins', { cursor: '7~7' }, { status: 400, code: 'invalidRequest' });
    expect((await g.post('/v1/crypto/trending', {}, 'anonymous')).status).toBe(401);
  });

  it('/v1/sources shows crypto served, with its operator settings and which are set', async () => {
    const r = await get(g.url, '/v1/sources');
    const crypto = r.json.data.sources.find((s: { id: string }) => s.id === 'crypto');
    expect(crypto.enabled).toBe(true);
    expect(crypto.endpoints.every((e: { available: boolean }) => e.available)).toBe(true);
    expect(crypto.needs.settings.map((s: { name: string; set: boolean }) => [s.name, s.set])).toEqual([
      ['QUARRY_CRYPTO_COINGECKO_KEY', true],
      ['QUARRY_CRYPTO_COINGECKO_PLAN', true],
      ['QUARRY_CRYPTO_SOLANA_RPC_URL', false],
    ]);
  });

  it('every crypto endpoint is available, and a test key gets 200 for its example without going upstream', async () => {
    const crypto = endpointsOf('crypto');
    expect(crypto).toHaveLength(16);
    const catalogue = await fetch(`${g.url}/v1/catalogue`).then((r) => r.json());
    await g.expectTestMode(() =>
      g.expectExamples(crypto, (r, e) => {
        expect(catalogue.data.endpoints.find((x: { id: string }) => x.id === e.id)?.available, e.id).toBe(true);
        expect(r.json.creditsUsed, e.id).toBeGreaterThanOrEqual(e.credits);
      }),
    );
  });

  it('test mode pages through the sample pages, then an empty unbilled page', async () => {
    const first = await g.post('/v1/crypto/wallet', { chain: 'ethereum', wallet: VITALIK }, 'test');
    expect(first.json.data.transactions).toHaveLength(3);
    const second = await g.post('/v1/crypto/wallet', { chain: 'ethereum', wallet: VITALIK, cursor: first.json.data.cursor }, 'test');
    expect(second.json.data.transactions).toHaveLength(1);
    expect(second.json.data.cursor).toBeUndefined();
    const past = await g.post('/v1/crypto/wallet', { chain: 'ethereum', wallet: VITALIK, cursor: 'e~1~1~1' }, 'test');
    expect([past.status, past.json.creditsUsed, past.json.data.transactions]).toEqual([200, 0, undefined]);
  });
});
