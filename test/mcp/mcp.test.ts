/**
 * The MCP transport (issue 4; SPEC.md "MCP transport"): the SDK's own Client over streamable HTTP against a running
 * gateway, with the key in the Authorization header and in the path. Test-mode keys answer from the committed
 * samples; live calls go to the loopback forum upstream, which replays ../shared recordings (skipped without them).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalogue } from '../../src/catalogue/catalogue.js';
import { ENDPOINTS } from '../../src/catalogue/endpoints/index.js';
import { wantsMarkdownPart } from '../../src/mcp/results.js';
import { buildToolSet } from '../../src/mcp/tools.js';
import { findOperation } from '../../src/sources/registry.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';

const LEGACY_UNAUTHORIZED = { success: false, code: 'UNAUTHORIZED', error: 'Invalid or missing API key.', details: null };
const MCP_ACCEPT = 'application/json, text/event-stream';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

type Style = 'header' | 'path';

let gw: TestGateway;
let upstream: RedditUpstream;
/** Every response body the tests saw, for the key-leak check. */
const bodies: string[] = [];

const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  bodies.push(await res.clone().text());
  return res;
};

async function connect(key: string, style: Style): Promise<Client> {
  const url = new URL(style === 'path' ? `${gw.url}/v1/mcp/${key}` : `${gw.url}/v1/mcp`);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: style === 'header' ? { headers: { authorization: `Bearer ${key}` } } : undefined,
    fetch: recordingFetch,
  });
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function withClient<T>(key: string, style: Style, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = await connect(key, style);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

const callTool = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }) as Promise<CallToolResult>;

async function balanceOf(accountId: string): Promise<number> {
  return (await gw.gateway.deps.store.getAccount(accountId))!.balance;
}

async function logsOf(key: string): Promise<any[]> {
  const r = await get(gw.url, '/v1/logs', { key });
  expect(r.status, r.text).toBe(200);
  return r.json.logs;
}

/** A raw MCP POST over fetch (no SDK), for transport-level failures. */
async function rawPost(path: string, headers: Record<string, string> = {}, body: unknown = INITIALIZE) {
  const r = await post(gw.url, path, body, { headers: { accept: MCP_ACCEPT, ...headers } });
  bodies.push(r.text);
  return r;
}

const servable = () => gw.gateway.deps.catalogue.endpoints.filter((e) => e.unavailable === undefined);
const servableIds = () => servable().map((e) => e.def.id);
/** Parse is a tool once its source is built (the registry the gateway builds its catalogue from). */
const PARSE_SERVED = findOperation('web.parse') !== undefined;

beforeAll(async () => {
  upstream = await startRedditUpstream();
  gw = await startGateway({ QUARRY_REDDIT_PUBLIC_URL: upstream.url });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

describe('MCP transport: session and tools', () => {
  for (const style of ['header', 'path'] as const) {
    it(`initialize works with the key in the ${style}`, async () => {
      const { apiKey } = await gw.accounts.createAccount({ credits: 5 });
      await withClient(apiKey, style, async (c) => {
        expect(c.getServerVersion()?.name).toBe('quarry');
        expect(c.getServerCapabilities()?.tools).toBeDefined();
        expect(c.getInstructions()).toContain('credits');
      });
    });

    it(`tools/list (key in the ${style}) is the servable catalogue plus credits and quote`, async () => {
      const { apiKey } = await gw.accounts.createAccount({ credits: 5 });
      const { tools } = await withClient(apiKey, style, (c) => c.listTools());
      const ids = servableIds();
      expect(ids.length).toBeGreaterThan(0);
      expect(tools).toHaveLength(ids.length + 2);
      expect(tools.map((t) => t.name).sort()).toEqual([...ids.map((id) => id.replace(/\./g, '_')), 'credits', 'quote'].sort());
      for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,128}$/);
    });
  }

  it('each data tool carries its endpoint schema and summary, priced at 1 credit; unbuilt endpoints are not tools', async () => {
    const { apiKey } = await gw.accounts.createAccount({ credits: 5 });
    const { tools } = await withClient(apiKey, 'header', (c) => c.listTools());
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const e of gw.gateway.deps.catalogue.endpoints) {
      const tool = byName.get(e.def.id.replace(/\./g, '_'));
      if (e.unavailable !== undefined) {
        expect(tool, e.def.id).toBeUndefined();
        continue;
      }
      expect(tool!.inputSchema).toEqual(e.def.input);
      expect(tool!.description).toContain(e.def.summary);
      expect(tool!.description).toContain('1 credit per call via MCP');
    }
    expect(byName.get('credits')!.inputSchema.type).toBe('object');
  });
});

describe('MCP tool calls', () => {
  it('credits: answers the balance, costs nothing and is not logged', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 7 });
    for (const style of ['header', 'path'] as const) {
      const r = await withClient(apiKey, style, (c) => callTool(c, 'credits'));
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ balance: 7 });
      expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual({ balance: 7 });
    }
    expect(await balanceOf(accountId)).toBe(7);
    expect(await logsOf(apiKey)).toHaveLength(0);
  });

  it('quote: the price of a tool call via MCP (1 credit), whether the cache would answer, who can pay; free', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 7 });
    const r = await withClient(apiKey, 'header', (c) =>
      callTool(c, 'quote', { tool: 'reddit_subforum', arguments: { subforum: 'quoted', limit: 3 } }),
    );
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({
      tool: 'reddit_subforum',
      endpoint: 'reddit.subforum',
      minCredits: 1,
      maxCredits: 1,
      balance: 7,
      canPay: true,
      cache: { wouldAnswer: false },
    });
    const bad = await withClient(apiKey, 'header', (c) => callTool(c, 'quote', { tool: 'reddit_subforum', arguments: { limit: 3 } }));
    expect(bad.isError).toBe(true);
    expect(await balanceOf(accountId)).toBe(7);
    expect(await logsOf(apiKey)).toHaveLength(0);
  });

  it('reddit_subforum with a test-mode key: the record as JSON text and structured content, logged with channel mcp', async () => {
    const { accountId } = await gw.accounts.createAccount({ credits: 3 });
    const { apiKey: testKey } = await gw.accounts.createKey({ accountId, test: true });
    for (const style of ['header', 'path'] as const) {
      const r = await withClient(testKey, style, (c) => callTool(c, 'reddit_subforum', { subforum: 'golang', limit: 5 }));
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const data = r.structuredContent as { posts: unknown[]; subforum: unknown };
      expect(data.posts).toHaveLength(5);
      expect(data.subforum).toBeDefined();
      expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(data);
      expect(r._meta).toMatchObject({ creditsUsed: 1 });
    }
    expect(await balanceOf(accountId)).toBe(3); // test mode never spends
    const logs = await logsOf(testKey);
    expect(logs).toHaveLength(2);
    for (const l of logs) expect(l).toMatchObject({ endpoint: 'reddit.subforum', channel: 'mcp', credits: 1, test: true });
  });

  it('invalid input is a tool error (isError) naming the field, and is not billed', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 10 });
    const r = await withClient(apiKey, 'header', (c) => callTool(c, 'reddit_subforum', { subforum: 'golang', bogus: true }));
    expect(r.isError).toBe(true);
    const text = (r.content[0] as { text: string }).text;
    expect(text).toMatch(/^invalidRequest: /);
    expect(text).toContain('bogus');
    expect(r.structuredContent).toMatchObject({ code: 'invalidRequest', retryable: false });
    const missing = await withClient(apiKey, 'path', (c) => callTool(c, 'reddit_subforum', {}));
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ code: 'invalidRequest' });
    expect(await balanceOf(accountId)).toBe(10);
    expect(await logsOf(apiKey)).toHaveLength(0);
  });

  it('insufficient credits is a tool error with what the call needs and the billing address', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 0 });
    const r = await withClient(apiKey, 'header', (c) => callTool(c, 'reddit_subforum', { subforum: 'rust', limit: 3 }));
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(/^insufficientCredits: /);
    expect(r.structuredContent).toMatchObject({ code: 'insufficientCredits', requiredCredits: 1, availableCredits: 0, retryable: false });
    expect(typeof (r.structuredContent as { billingUrl: unknown }).billingUrl).toBe('string');
    expect(await balanceOf(accountId)).toBe(0);
    expect(await logsOf(apiKey)).toHaveLength(0);
  });

  it('an unknown tool is a protocol error (never listed, never run)', async () => {
    const { apiKey } = await gw.accounts.createAccount({ credits: 5 });
    await withClient(apiKey, 'header', async (c) => {
      await expect(callTool(c, 'reddit_no_such_tool', { query: 'x' })).rejects.toThrow(/Unknown tool/);
    });
  });

  describe.skipIf(!PARSE_SERVED)('web_parse (once the parse source is served)', () => {
    const example = () => ENDPOINTS.find((d) => d.id === 'web.parse')!.example as { file: string; filename: string };

    it('takes the base64 file as the REST endpoint does; the document comes back as JSON and as markdown', async () => {
      const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 5 });
      const r = await withClient(apiKey, 'header', (c) => callTool(c, 'web_parse', example()));
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      const data = r.structuredContent as { markdown: string };
      expect(data.markdown).toContain('Hello');
      expect(r.content).toHaveLength(2);
      expect(JSON.parse((r.content[0] as { text: string }).text)).toEqual(data);
      expect((r.content[1] as { text: string }).text).toContain(data.markdown);
      expect(await balanceOf(accountId)).toBe(4);
      expect((await logsOf(apiKey))[0]).toMatchObject({ endpoint: 'web.parse', channel: 'mcp', credits: 1 });
    });

    it('a file that is not base64 is a tool error and is not billed', async () => {
      const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 5 });
      const r = await withClient(apiKey, 'path', (c) => callTool(c, 'web_parse', { file: '***not base64***' }));
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ code: 'invalidRequest' });
      expect(await balanceOf(accountId)).toBe(5);
      expect(await logsOf(apiKey)).toHaveLength(0);
    });
  });

  describe.skipIf(!HAVE_FORUM_RECORDINGS)(`live calls against the loopback forum upstream${FORUM_SKIP_REASON}`, () => {
    it('reddit_subforum with a live key: balance down by exactly 1 (not the REST price), logged with channel mcp', async () => {
      const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 10 });
      upstream.seen.length = 0;
      const r = await withClient(apiKey, 'header', (c) => callTool(c, 'reddit_subforum', { subforum: 'golang', limit: 10, tags: ['agent'] }));
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(upstream.seen.some((s) => s.path === '/r/golang/hot.json')).toBe(true);
      expect((r.structuredContent as { posts: unknown[] }).posts).toHaveLength(10);
      expect(r._meta).toMatchObject({ creditsUsed: 1, cache: 'miss' });
      expect(await balanceOf(accountId)).toBe(9);
      const logs = await logsOf(apiKey);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ id: r._meta!.requestId, endpoint: 'reddit.subforum', channel: 'mcp', credits: 1, test: false, tags: ['agent'] });

      // The same call again, key in the path: a cache hit, billed like a live call (CONTRACT.md "Billing").
      const again = await withClient(apiKey, 'path', (c) => callTool(c, 'reddit_subforum', { subforum: 'golang', limit: 10 }));
      expect(again._meta).toMatchObject({ creditsUsed: 1, cache: 'hit' });
      expect(await balanceOf(accountId)).toBe(8);
      expect(await logsOf(apiKey)).toHaveLength(2);
    });

    it('an upstream failure is a retryable tool error and is not billed', async () => {
      const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 10 });
      const r = await withClient(apiKey, 'path', (c) => callTool(c, 'reddit_subforum', { subforum: 'downsub', maxAge: 0 }));
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ code: 'sourceUnavailable', retryable: true });
      expect(await balanceOf(accountId)).toBe(10);
      expect(await logsOf(apiKey)).toHaveLength(0);
    });
  });
});

describe('MCP transport-level failures', () => {
  it('no key, a bad key, a revoked key or a malformed path key: 401 in the legacy shape', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 5 });
    const revoked = await gw.accounts.createKey({ accountId });
    await gw.gateway.deps.store.revokeKey(revoked.keyId);
    const cases: [string, Record<string, string>][] = [
      ['/v1/mcp', {}],
      ['/v1/mcp', { authorization: 'Bearer qry_notARealKeyAtAll000000000000' }],
      ['/v1/mcp', { authorization: `Basic ${apiKey}` }],
      ['/v1/mcp', { authorization: `Bearer ${revoked.apiKey}` }],
      ['/v1/mcp/qry_notARealKeyAtAll000000000000', {}],
      ['/v1/mcp/not-a-key', {}],
      [`/v1/mcp/${revoked.apiKey}`, {}],
    ];
    for (const [path, headers] of cases) {
      const r = await rawPost(path, headers);
      expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
      expect(r.json).toEqual(LEGACY_UNAUTHORIZED);
    }
    // The right key over plain HTTP: the SDK's answer to initialize, as JSON (no SSE, no session id).
    const ok = await rawPost('/v1/mcp', { authorization: `Bearer ${apiKey}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('application/json');
    expect(ok.headers.get('mcp-session-id')).toBeNull();
    expect(ok.headers.get('x-request-id')).toMatch(/^req_/);
    expect(ok.json.result.serverInfo.name).toBe('quarry');
    // A POST that does not accept both JSON and SSE is refused by the SDK (406), after the key was checked.
    const noAccept = await post(gw.url, '/v1/mcp', INITIALIZE, { key: apiKey, headers: { accept: 'application/json' } });
    expect(noAccept.status).toBe(406);
    // Bytes that are not JSON: the SDK's own JSON-RPC parse error.
    const garbage = await post(gw.url, '/v1/mcp', null, { key: apiKey, headers: { accept: MCP_ACCEPT }, rawBody: '{not json' });
    expect(garbage.status).toBe(400);
    expect(garbage.json.error.code).toBe(-32700);
  });

  it('a body over the limit is refused in the legacy shape', async () => {
    const { apiKey } = await gw.accounts.createAccount({ credits: 5 });
    // The MCP body limit follows the largest servable input (parse takes 10 MB of base64) plus the JSON-RPC envelope.
    const largest = Math.max(1024 * 1024, ...servable().map((e) => e.def.bodyLimitBytes ?? 0));
    const big = { ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(largest + 128 * 1024) } };
    const r = await rawPost('/v1/mcp', { authorization: `Bearer ${apiKey}` }, big);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ success: false, code: 'INVALID_INPUT', details: null });
  });

  it('a JSON-RPC batch of two tool calls: each call has its own id, reservation and log entry', async () => {
    const { accountId } = await gw.accounts.createAccount({ credits: 5 });
    const { apiKey } = await gw.accounts.createKey({ accountId, test: true });
    const call = (id: number, subforum: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'reddit_subforum', arguments: { subforum, limit: 2 } },
    });
    const r = await rawPost('/v1/mcp', { authorization: `Bearer ${apiKey}`, 'mcp-protocol-version': '2025-03-26' }, [
      call(1, 'golang'),
      call(2, 'rust'),
    ]);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toHaveLength(2);
    const ids = r.json.map((m: any) => m.result._meta.requestId);
    expect(new Set(ids).size).toBe(2);
    expect(ids).toContain(r.headers.get('x-request-id'));
    const logs = await logsOf(apiKey);
    expect(logs.map((l) => l.id).sort()).toEqual([...ids].sort());
  });

  it('GET and DELETE: 405 with Allow: POST on both paths (stateless: no SSE stream, no session)', async () => {
    const { apiKey } = await gw.accounts.createAccount({ credits: 5 });
    for (const path of ['/v1/mcp', `/v1/mcp/${apiKey}`]) {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${gw.url}${path}`, { method, headers: { authorization: `Bearer ${apiKey}`, accept: 'text/event-stream' } });
        const text = await res.text();
        bodies.push(text);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
      }
    }
  });
});

describe('MCP limits', () => {
  it('tool calls count against the key rate limit like REST calls: over it, a retryable rateLimited tool error', async () => {
    const limited = await startGateway({ QUARRY_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const { accountId } = await limited.accounts.createAccount({ credits: 5 });
      const { apiKey } = await limited.accounts.createKey({ accountId, test: true });
      const transport = new StreamableHTTPClientTransport(new URL(`${limited.url}/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${apiKey}` } },
      });
      const c = new Client({ name: 'quarry-test', version: '1.0.0' });
      await c.connect(transport);
      try {
        const args = { subforum: 'golang', limit: 2 };
        expect((await callTool(c, 'reddit_subforum', args)).isError).toBeFalsy();
        expect((await callTool(c, 'reddit_subforum', args)).isError).toBeFalsy();
        const third = await callTool(c, 'reddit_subforum', args);
        expect(third.isError).toBe(true);
        expect(third.structuredContent).toMatchObject({ code: 'rateLimited', retryable: true });
      } finally {
        await c.close();
      }
    } finally {
      await limited.close();
    }
  });
});

describe('MCP tool set', () => {
  const like = (id: string) => ({ ...ENDPOINTS.find((d) => d.id === 'reddit.subforum')!, id });

  it('refuses to start when two endpoint ids map to one tool name', () => {
    expect(() => buildToolSet(new Catalogue([like('x.a_b'), like('x_a.b')], () => undefined))).toThrow(/collision: x_a_b/);
  });

  it('lists only endpoints the server can serve (built and enabled), plus credits and quote', () => {
    const catalogue = new Catalogue([like('x.built'), like('x.unbuilt'), like('y.disabled')], (id) => (id === 'x.unbuilt' ? 'not built' : undefined), new Set(['x']));
    expect(buildToolSet(catalogue).list.map((t) => t.name)).toEqual(['x_built', 'credits', 'quote']);
  });
});

describe('MCP results', () => {
  it('adds a markdown part only to records that carry a document body', () => {
    expect(wantsMarkdownPart({ markdown: '# Title', numPages: 1 })).toBe(true);
    expect(wantsMarkdownPart({ posts: [{ title: 'x' }] })).toBe(false);
  });
});

describe('MCP key redaction', () => {
  it('a key sent in the path never appears in a log line or a response body', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 5 });
    const { apiKey: testKey } = await gw.accounts.createKey({ accountId, test: true });
    for (const key of [apiKey, testKey]) {
      await withClient(key, 'path', async (c) => {
        await c.listTools();
        await callTool(c, 'credits');
        await callTool(c, 'reddit_subforum', { subforum: 'golang', limit: 2 });
        await callTool(c, 'reddit_subforum', { subforum: 'golang', nope: 1 });
      });
      for (const method of ['GET', 'DELETE', 'PUT']) {
        const res = await fetch(`${gw.url}/v1/mcp/${key}`, { method });
        bodies.push(await res.text());
      }
      bodies.push((await rawPost(`/v1/mcp/${key}/extra`)).text);
      bodies.push((await rawPost(`/v1/mcp/${key}`, { accept: 'text/plain' })).text);
    }
    const revoked = await gw.accounts.createKey({ accountId });
    await gw.gateway.deps.store.revokeKey(revoked.keyId);
    expect((await rawPost(`/v1/mcp/${revoked.apiKey}`)).status).toBe(401);

    await new Promise<void>((r) => gw.gateway.log.flush(() => r()));
    await new Promise((r) => setTimeout(r, 50));
    const mcpLines = gw.logLines.filter((l) => l.includes('/v1/mcp'));
    expect(mcpLines.length).toBeGreaterThan(0);
    expect(mcpLines.some((l) => l.includes('/v1/mcp/[redacted]'))).toBe(true);
    for (const key of [apiKey, testKey, revoked.apiKey]) {
      const secret = key.slice('qry_'.length);
      for (const line of gw.logLines) expect(line).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  });
});
