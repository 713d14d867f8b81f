/**
 * Issue 38.9, the smaller things a newcomer trips over, over real HTTP: a GET on a POST endpoint is 405 with Allow;
 * a key sent without `Bearer` gets a hint; a body with several problems names them all (up to ten); a revoked key
 * says revoked; MCP data tools declare their output schema, which the official SDK client checks answers against.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let key: string;
let testKey: string;

beforeAll(async () => {
  gw = await startGateway();
  const a = await gw.accounts.createAccount({ credits: 10 });
  key = a.apiKey;
  testKey = (await gw.accounts.createKey({ accountId: a.accountId, name: 'tests', test: true })).apiKey;
});
afterAll(async () => {
  await gw?.close();
});

describe('methods', () => {
  it('GET on a data endpoint (and on a legacy path) is 405 with Allow: POST, saying how to call it', async () => {
    for (const path of ['/v1/reddit/subforum', '/v1/video']) {
      const r = await get(gw.url, path, { key });
      expect(r.status, path).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      expect(r.json.error.code).toBe('invalidRequest');
      expect(r.json.error.message).toBe(`GET is not allowed here: ${path} takes POST with a JSON body (see GET /v1/catalogue for its fields).`);
    }
    expect((await get(gw.url, '/v1/reddit/nothing-here')).status).toBe(404);
  });
});

describe('keys', () => {
  it('a key without the word Bearer gets a hint; another scheme is named', async () => {
    const bare = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { headers: { authorization: testKey } });
    expect(bare.status).toBe(401);
    expect(bare.json.error.message).toBe('Invalid or missing API key: the word Bearer is missing. Send it as Authorization: Bearer qry_….');
    expect(bare.text).not.toContain(testKey);
    const basic = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { headers: { authorization: 'Basic dXNlcjpwYXNz' } });
    expect(basic.json.error.message).toBe('Invalid or missing API key. Send it as Authorization: Bearer <key> (not Basic).');
  });

  it('a revoked key says revoked; an unknown one says invalid', async () => {
    const { accountId } = await gw.accounts.createAccount({ credits: 1 });
    const k = await gw.accounts.createKey({ accountId, name: 'old', test: true });
    await gw.gateway.deps.store.revokeKey(k.keyId);
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: k.apiKey });
    expect(r.status).toBe(401);
    expect(r.json.error.message).toBe('This API key has been revoked. Create a new key (dashboard, API keys) or ask the operator of this server.');
    const unknown = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang' }, { key: 'qry_test_nosuchkey0123456789' });
    expect(unknown.json.error.message).toBe('Invalid or missing API key.');
  });
});

describe('validation', () => {
  it('a body with several problems names each of them, the first first', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { limit: 0, colour: 'red', shade: 'dark' }, { key: testKey });
    expect(r.status).toBe(400);
    const problems = r.json.error.message.split(' | ');
    expect(problems).toEqual(expect.arrayContaining(['subforum: is required', 'colour: unknown field; this endpoint does not take it', 'shade: unknown field; this endpoint does not take it']));
    expect(problems.some((p: string) => p.startsWith('limit: must be at least'))).toBe(true);
    expect(problems).toHaveLength(4);
  });

  it('at most ten, then how many more', async () => {
    const body = Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`extra${i}`, i]));
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', ...body }, { key: testKey });
    const message: string = r.json.error.message;
    expect(message.split(' | ')).toHaveLength(11);
    expect(message.endsWith(' | and 4 more')).toBe(true);
  });

  it('one problem reads as before', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 0 }, { key: testKey });
    expect(r.json.error.message).toMatch(/^limit: must be at least 1$/);
  });
});

describe('MCP output schemas', () => {
  it('data tools declare outputSchema; the official client accepts answers and errors against it', async () => {
    const client = new Client({ name: 'newcomer-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${gw.url}/v1/mcp`), { requestInit: { headers: { Authorization: `Bearer ${testKey}` } } });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const subforum = tools.find((t) => t.name === 'reddit_subforum')!;
      expect(subforum.outputSchema).toMatchObject({ type: 'object' });
      expect(JSON.stringify(subforum.outputSchema)).toContain('"posts"');
      const withSchema = tools.filter((t) => t.outputSchema).length;
      expect(withSchema).toBeGreaterThan(tools.length / 2);
      const ok = (await client.callTool({ name: 'reddit_subforum', arguments: { subforum: 'golang', limit: 2 } })) as CallToolResult;
      expect(ok.isError).toBeFalsy();
      expect((ok.structuredContent as any).posts.length).toBe(2);
      expect(ok._meta?.testMode).toBe('sample');
      const bad = (await client.callTool({ name: 'reddit_subforum', arguments: { limit: 0 } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      expect((bad.structuredContent as any).code).toBe('invalidRequest');
    } finally {
      await client.close();
    }
  });
});
