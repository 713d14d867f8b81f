/**
 * CONTRACT.md "Paths and ids" (GET /v1/catalogue, GET /openapi.json), SPEC.md "Catalogue entry", Common conventions 1
 * and 10, Versioning 1, and QUARRY_SOURCES (a disabled source answers sourceUnavailable, not retryable, not billed);
 * over real HTTP on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite/store.js';
import { findOperation } from '../../src/sources/registry.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';

type Entry = Record<string, any>;

async function catalogue(gw: TestGateway): Promise<Entry[]> {
  const r = await get(gw.url, '/v1/catalogue');
  expect(r.status).toBe(200);
  return r.json.data.endpoints;
}

describe('GET /v1/catalogue and GET /openapi.json (all sources enabled)', () => {
  let gw: TestGateway;
  let entries: Entry[];
  beforeAll(async () => {
    gw = await startGateway();
    entries = await catalogue(gw);
  });
  afterAll(() => gw.close());

  it('GET /v1/catalogue needs no key, is free and answers the success envelope with data.endpoints', async () => {
    const r = await get(gw.url, '/v1/catalogue');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.json.success).toBe(true);
    expect(r.json.creditsUsed).toBe(0);
    expect(r.json.requestId).toBe(r.headers.get('x-request-id'));
    expect(Array.isArray(r.json.data.endpoints)).toBe(true);
    expect(r.json.data.endpoints.length).toBe(gw.gateway.deps.catalogue.endpoints.length);
    expect(r.json.data.endpoints.length).toBeGreaterThan(1);
  });

  it('a key is accepted but nothing is billed', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 5 });
    const r = await get(gw.url, '/v1/catalogue', { key: apiKey });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(0);
    expect((await gw.gateway.deps.store.getAccount(accountId))!.balance).toBe(5);
  });

  it('every entry has id, title, summary, method POST, path /v1/<id with dots as slashes>, prices, input schema and example', () => {
    const ids = new Set<string>();
    for (const e of entries) {
      expect(e.id, JSON.stringify(e).slice(0, 80)).toMatch(/^[a-z0-9]+(\.[a-zA-Z0-9]+)+$/);
      expect(ids.has(e.id), `duplicate id ${e.id}`).toBe(false);
      ids.add(e.id);
      expect(typeof e.title, e.id).toBe('string');
      expect(e.title.length, e.id).toBeGreaterThan(0);
      expect(typeof e.summary, e.id).toBe('string');
      expect(e.summary.length, e.id).toBeGreaterThan(0);
      expect(e.method, e.id).toBe('POST');
      expect(e.path, e.id).toBe(`/v1/${e.id.replace(/\./g, '/')}`);
      expect(Number.isInteger(e.credits) && e.credits >= 1, `${e.id} credits`).toBe(true);
      expect(typeof e.keyless, e.id).toBe('boolean');
      expect(e.perItems === null || (Number.isInteger(e.perItems) && e.perItems >= 1), `${e.id} perItems`).toBe(true);
      expect(Number.isInteger(e.cacheTtlSeconds) && e.cacheTtlSeconds >= 0, `${e.id} cacheTtlSeconds`).toBe(true);
      expect(e.input, e.id).toMatchObject({ type: 'object', additionalProperties: false });
      expect(typeof e.input.properties, e.id).toBe('object');
      expect('example' in e, `${e.id} has an example`).toBe(true);
      expect(typeof e.available, e.id).toBe('boolean');
      if (e.available) expect(e.unavailableReason, e.id).toBeUndefined();
      else expect(typeof e.unavailableReason, e.id).toBe('string');
    }
  });

  it("every entry's example passes its own input schema", () => {
    for (const e of entries) {
      if (e.example === null) continue;
      expect(() => gw.gateway.deps.catalogue.get(e.id)!.validate(structuredClone(e.example)), e.id).not.toThrow();
    }
  });

  it('reddit.subforum is available; an endpoint with no operation is listed as unavailable, with its reason', () => {
    const reddit = entries.find((e) => e.id === 'reddit.subforum')!;
    expect(reddit).toMatchObject({ path: '/v1/reddit/subforum', credits: 2, keyless: false, available: true });
    for (const e of entries.filter((x) => !findOperation(x.id))) {
      expect(e, e.id).toMatchObject({ available: false });
      expect(e.unavailableReason, e.id).toEqual(expect.any(String));
    }
  });

  it('GET /openapi.json is OpenAPI 3.1.0, info.version "1", one POST operation per catalogue entry', async () => {
    const r = await get(gw.url, '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = r.json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1');
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(entries.map((e) => e.path)));
    // Beside the catalogue: every other route of the server (the gateway's own, MCP, the pages, the legacy paths and
    // the account side's); test/gateway/openapi.test.ts checks that none is missing.
    const others = paths.filter((p) => !entries.some((e) => e.path === p));
    expect(others).toEqual(expect.arrayContaining(['/v1/quote', '/v1/requests/{requestId}', '/v1/sources', '/v1/usage', '/v1/logs', '/v1/catalogue', '/v1/mcp', '/v1/video']));
    const operationIds = new Set<string>();
    for (const e of entries) {
      const item = doc.paths[e.path];
      expect(Object.keys(item), e.path).toEqual(['post']);
      const op = item.post;
      expect(op['x-credits'], e.id).toBe(e.credits);
      expect(op.requestBody.content['application/json'].schema, e.id).toEqual(e.input);
      expect(operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
      operationIds.add(op.operationId);
    }
  });
});

describe('QUARRY_SOURCES=web: other sources are disabled', () => {
  let gw: TestGateway;
  let entries: Entry[];
  beforeAll(async () => {
    gw = await startGateway({ QUARRY_SOURCES: 'web' });
    entries = await catalogue(gw);
  });
  afterAll(() => gw.close());

  it('reddit.subforum is listed as unavailable, naming QUARRY_SOURCES', () => {
    const reddit = entries.find((e) => e.id === 'reddit.subforum')!;
    expect(reddit.available).toBe(false);
    expect(reddit.unavailableReason).toMatch(/QUARRY_SOURCES/);
    // Disabled sources stay in the catalogue and in OpenAPI: only this server does not serve them.
    expect(entries.length).toBe(gw.gateway.deps.catalogue.endpoints.length);
  });

  it('a valid call to a disabled source is 503 sourceUnavailable, not retryable, and not billed (live and test keys)', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 10 });
    const testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    for (const key of [apiKey, testKey]) {
      const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5 }, { key });
      expect(r.status).toBe(503);
      expect(r.json.success).toBe(false);
      expect(r.json.error.code).toBe('sourceUnavailable');
      expect(r.json.error.retryable).toBe(false);
      expect(r.json.error.message).toMatch(/QUARRY_SOURCES/);
      expect(r.headers.get('retry-after')).toBe('0');
      expect(r.headers.get('x-credits-used')).toBeNull();
    }
    expect((await gw.gateway.deps.store.getAccount(accountId))!.balance).toBe(10);
    const db = (gw.gateway.deps.store as SqliteStore).db;
    expect(db.prepare('SELECT count(*) AS n FROM calls WHERE account_id = ?').get(accountId)).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM reservations WHERE account_id = ?').get(accountId)).toEqual({ n: 0 });
  });

  it('an invalid body to a disabled source is still a 400 (validation runs first)', async () => {
    const { apiKey } = await gw.accounts.createAccount({ credits: 10 });
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', colour: 'red' }, { key: apiKey });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalidRequest');
  });
});
