/**
 * Issue 38.6: what this server does not serve is never shown first or unmarked. With QUARRY_SOURCES leaving most
 * sources out: the catalogue lists served endpoints first, then the rest marked `available: false` with the reason;
 * OpenAPI orders its paths the same way and says "(not served here)"; the logs' endpoint list is in that order too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  gw = await startGateway({ QUARRY_SOURCES: 'web,domain' });
  key = (await gw.accounts.createAccount({ credits: 1 })).apiKey;
});
afterAll(async () => {
  await gw?.close();
});

describe('served endpoints first', () => {
  it('GET /v1/catalogue: every available entry before every unavailable one, which carries its reason', async () => {
    const entries = (await get(gw.url, '/v1/catalogue')).json.data.endpoints as any[];
    const firstOff = entries.findIndex((e) => !e.available);
    expect(firstOff).toBeGreaterThan(0);
    expect(entries.slice(firstOff).every((e) => !e.available && typeof e.unavailableReason === 'string')).toBe(true);
    expect(entries.slice(0, firstOff).every((e) => e.available && /^(web|domain)\./.test(e.id))).toBe(true);
  });

  it('OpenAPI: the same order, and what is not served says so in its summary', async () => {
    const doc = (await get(gw.url, '/openapi.json')).json;
    const ids = new Set(((await get(gw.url, '/v1/catalogue')).json.data.endpoints as any[]).map((e) => e.id));
    // The catalogue's operations, in the document's order (legacy paths and account routes left aside).
    const catalogueOps = Object.entries(doc.paths as Record<string, any>).filter(([, v]) => ids.has(v.post?.operationId));
    const firstOff = catalogueOps.findIndex(([, v]) => v.post['x-available'] === false);
    expect(firstOff).toBeGreaterThan(0);
    for (const [, v] of catalogueOps.slice(firstOff)) {
      expect(v.post['x-available']).toBe(false);
      expect(v.post.summary).toMatch(/\(not served here\)$/);
    }
    for (const [, v] of catalogueOps.slice(0, firstOff)) expect(v.post.summary).not.toMatch(/not served/);
  });

  it('GET /v1/logs lists endpoint ids served first', async () => {
    const ids = (await get(gw.url, '/v1/logs', { key })).json.endpoints as string[];
    const served = ids.filter((id) => /^(web|domain)\./.test(id));
    expect(ids.slice(0, served.length)).toEqual(served);
  });
});
