/**
 * The crypto source through the gateway over HTTP on loopback: live calls against the replay double
 * (QUARRY_UPSTREAM_OVERRIDES; CoinGecko recorded, the other upstreams documented), prices from what came back,
 * paging, walls and drift unbilled, the operator settings in /v1/sources, and test mode for every example.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/catalogue/endpoints/index.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import type { Replay } from '../helpers/replay.js';
import { CRYPTO_HOSTS, CRYPTO_SKIP, HAVE_CRYPTO, PUMP_MINT, VITALIK, outgoing, startCryptoReplay } from './crypto-doubles.js';

const pathOf = (id: string) => `/v1/${id.split('.').join('/')}`;
const WALLED_MINT = 'CfWaLLedCoin1111111111111111111111111pump';

describe.skipIf(!HAVE_CRYPTO)(`crypto through the gateway${CRYPTO_SKIP}`, () => {
  let gw: TestGateway;
  let replay: Replay;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))?.balance;

  beforeAll(async () => {
    replay = await startCryptoReplay([
      {
        host: 'frontend-api-v3.pump.fun',
        path: `/coins/${WALLED_MINT}`,
        status: 403,
        text: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="cf-chl-widget"></div></body></html>',
        headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge' },
      },
    ]);
    gw = await startGateway({
      QUARRY_UPSTREAM_OVERRIDES: replay.overrides(CRYPTO_HOSTS),
      QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
      QUARRY_CRYPTO_COINGECKO_KEY: 'gateway-key',
      QUARRY_CRYPTO_COINGECKO_PLAN: 'pro',
    });
    const acct = await gw.accounts.createAccount({ credits: 1000 });
    key = acct.apiKey;
    accountId = acct.accountId;
    testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = outgoing();
  });

  it('live: trending from the recordings, on the operator’s paid CoinGecko plan, for 1 credit', async () => {
    const r = await post(gw.url, '/v1/crypto/trending', { maxAge: 0 }, { key });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data.coins).toHaveLength(15);
    expect(r.json.data.market.marketCap.currency).toBe('USD');
    expect(replay.seen.filter((s) => s.path === '/api/v3/search/trending').every((s) => s.host === 'pro-api.coingecko.com' && s.headers['x-cg-pro-api-key'] === 'gateway-key')).toBe(true);
  });

  it('per-item prices follow what came back; the cursor pages on; an empty answer is free', async () => {
    const before = await balance();
    const first = await post(gw.url, '/v1/crypto/binance/announcements', { category: 'listings', limit: 23 }, { key });
    expect(first.status).toBe(200);
    expect(first.json.data.announcements).toHaveLength(23);
    expect(first.json.creditsUsed).toBe(2); // 23 announcements: two units of 20
    expect(first.json.data.cursor).toBeUndefined();
    const cut = await post(gw.url, '/v1/crypto/binance/announcements', { category: 'listings', limit: 20 }, { key });
    expect([cut.json.creditsUsed, cut.json.data.cursor]).toEqual([1, '2']);
    const next = await post(gw.url, '/v1/crypto/binance/announcements', { category: 'listings', limit: 20, cursor: cut.json.data.cursor }, { key });
    expect(next.json.data.announcements).toHaveLength(3);
    expect(next.json.creditsUsed).toBe(1);
    const trades = await post(gw.url, '/v1/crypto/pumpfun/trades', { coin: PUMP_MINT, limit: 500 }, { key });
    expect([trades.json.data.trades.length, trades.json.creditsUsed]).toEqual([3, 1]);
    const empty = await post(gw.url, '/v1/crypto/wallet', { chain: 'base', wallet: '0x0000000000000000000000000000000000000002' }, { key });
    expect(empty.status).toBe(200);
    expect(empty.json.creditsUsed).toBe(0);
    expect(await balance()).toBe(before! - 2 - 1 - 1 - 1);
  });

  it('a drifted CoinGecko answer is 502 sourceChanged and unbilled', async () => {
    const before = await balance();
    replay.mutate = outgoing((name, body) => (name.endsWith('GetTrendingSearches.txt') ? body.replace('"coins":', '"coinz":') : body));
    const r = await post(gw.url, '/v1/crypto/trending', { maxAge: 0 }, { key });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('sourceChanged');
    expect(await balance()).toBe(before);
  });

  it('a bot wall is 502 sourceRefused and unbilled; an unknown coin 404; bad input a 400 naming the field', async () => {
    const before = await balance();
    const wall = await post(gw.url, '/v1/crypto/pumpfun/coin', { coin: WALLED_MINT }, { key });
    expect([wall.status, wall.json.error.code]).toEqual([502, 'sourceRefused']);
    const unknown = await post(gw.url, '/v1/crypto/coin', { coin: 'no-such-coin' }, { key });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'notFound']);
    const bad = await post(gw.url, '/v1/crypto/wallet', { chain: 'ethereum', wallet: 'not-a-wallet' }, { key });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^wallet: /);
    const tampered = await post(gw.url, '/v1/crypto/pumpfun/coins', { cursor: '7~7' }, { key });
    expect([tampered.status, tampered.json.error.code]).toEqual([400, 'invalidRequest']);
    expect(await balance()).toBe(before);
    expect((await post(gw.url, '/v1/crypto/trending', {}, {})).status).toBe(401);
  });

  it('/v1/sources shows crypto served, with its operator settings and which are set', async () => {
    const r = await get(gw.url, '/v1/sources');
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
    const crypto = ENDPOINTS.filter((e) => e.id.startsWith('crypto.'));
    expect(crypto).toHaveLength(16);
    const catalogue = await fetch(`${gw.url}/v1/catalogue`).then((r) => r.json());
    const n = replay.seen.length;
    for (const e of crypto) {
      expect(catalogue.data.endpoints.find((x: { id: string }) => x.id === e.id)?.available, e.id).toBe(true);
      const r = await post(gw.url, pathOf(e.id), e.example, { key: testKey });
      expect(r.status, `${e.id}: ${r.text.slice(0, 200)}`).toBe(200);
      expect(r.json.creditsUsed, e.id).toBeGreaterThanOrEqual(e.credits);
    }
    expect(replay.seen.length).toBe(n);
  });

  it('test mode pages through the sample pages, then an empty unbilled page', async () => {
    const first = await post(gw.url, '/v1/crypto/wallet', { chain: 'ethereum', wallet: VITALIK }, { key: testKey });
    expect(first.json.data.transactions).toHaveLength(3);
    const second = await post(gw.url, '/v1/crypto/wallet', { chain: 'ethereum', wallet: VITALIK, cursor: first.json.data.cursor }, { key: testKey });
    expect(second.json.data.transactions).toHaveLength(1);
    expect(second.json.data.cursor).toBeUndefined();
    const past = await post(gw.url, '/v1/crypto/wallet', { chain: 'ethereum', wallet: VITALIK, cursor: 'e~1~1~1' }, { key: testKey });
    expect([past.status, past.json.creditsUsed, past.json.data.transactions]).toEqual([200, 0, undefined]);
  });
});
