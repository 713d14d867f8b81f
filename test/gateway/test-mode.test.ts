/**
 * Issue 38.5: test mode is told apart. Every test-mode answer carries `Quarry-Test-Mode: sample` (parse, real in
 * both modes, `real`); live answers carry no such header; usage keeps live and test-mode calls apart, so a test key's
 * reported prices never read as spent credits. Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let liveKey: string;
let testKey: string;
const HTML = Buffer.from('<h1>Hello</h1><p>Quarry parses this.</p>').toString('base64');

beforeAll(async () => {
  gw = await startGateway();
  const a = await gw.accounts.createAccount({ credits: 10 });
  liveKey = a.apiKey;
  testKey = (await gw.accounts.createKey({ accountId: a.accountId, name: 'tests', test: true })).apiKey;
});

afterAll(async () => {
  await gw?.close();
});

describe('Quarry-Test-Mode', () => {
  it('marks a test key\'s answer as a sample, on REST and on the legacy paths; the balance does not move', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 3 }, { key: testKey });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('quarry-test-mode')).toBe('sample');
    expect(r.json.creditsUsed).toBe(2);
    const legacy = await post(gw.url, '/v1/suggest', { q: 'lofi' }, { key: testKey });
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.headers.get('quarry-test-mode')).toBe('sample');
    expect((await gw.gateway.deps.store.getAccount((await get(gw.url, '/v1/account', { key: testKey })).json.data.id))!.balance).toBe(10);
  });

  it('says `real` for parse, which converts for real in both modes, and nothing on live answers', async () => {
    const t = await post(gw.url, '/v1/web/parse', { file: HTML }, { key: testKey });
    expect(t.status, t.text).toBe(200);
    expect(t.headers.get('quarry-test-mode')).toBe('real');
    const l = await post(gw.url, '/v1/web/parse', { file: HTML }, { key: liveKey });
    expect(l.status, l.text).toBe(200);
    expect(l.headers.get('quarry-test-mode')).toBeNull();
    expect(l.json.data.markdown).toContain('# Hello');
  });
});

describe('usage keeps live and test-mode calls apart', () => {
  it('answers live and test totals, and lists one mode with mode=live or mode=test', async () => {
    const all = await get(gw.url, '/v1/usage', { key: liveKey });
    expect(all.status, all.text).toBe(200);
    expect(all.json.data.live).toEqual({ calls: 1, credits: 1 }); // the live parse: what the balance paid
    expect(all.json.data.test.calls).toBe(3); // subforum, suggest, parse with the test key: reported, not spent
    expect(all.json.data.calls).toBe(4);
    const live = (await get(gw.url, '/v1/usage?mode=live', { key: liveKey })).json.data;
    expect(live).toMatchObject({ mode: 'live', calls: 1, credits: 1, byEndpoint: [{ endpoint: 'web.parse', calls: 1, credits: 1 }] });
    const test = (await get(gw.url, '/v1/usage?mode=test', { key: liveKey })).json.data;
    expect(test.mode).toBe('test');
    expect(test.byEndpoint.map((e: any) => e.endpoint).sort()).toEqual(['reddit.subforum', 'suggest', 'web.parse'].sort());
    expect((await get(gw.url, '/v1/usage?mode=both', { key: liveKey })).status).toBe(400);
  });
});
