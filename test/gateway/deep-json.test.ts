/**
 * Issue 30.4: deeply nested JSON, sent with an Idempotency-Key, to POST /v1/quote or through MCP, is a 400
 * `invalidRequest` naming the rule, over HTTP on loopback; before, it overflowed the stack of the recursive walks
 * (the fingerprint's canonical JSON, the quote's copy of its input) and was a 500 with a stack trace logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/pipeline/cache-key.js';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';

/** `{"a":{"a":…{"a":1}…}}`, `levels` objects deep (10,000 levels: 60 KB; arrays: 20 KB). */
const nestedObjects = (levels: number) => '{"a":'.repeat(levels - 1) + '{"a":1' + '}'.repeat(levels);
const nestedArrays = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('deeply nested JSON (issue 30.4)', () => {
  let gw: TestGateway;
  let apiKey: string;
  beforeAll(async () => {
    gw = await startGateway();
    apiKey = (await gw.accounts.createAccount({ credits: 10 })).apiKey;
  });
  afterAll(() => gw.close());

  const rule = /nested deeper than 64 levels/;
  const errorsLogged = () => gw.logLines.filter((l) => JSON.parse(l).level >= 50);

  it('10,000 levels (20 KB) with an Idempotency-Key: 400 invalidRequest naming the rule, nothing logged as an error', async () => {
    const before = errorsLogged().length;
    const body = `{"file":"JVBERi0=","extra":${nestedArrays(10_000)}}`;
    expect(body.length).toBeGreaterThan(20_000);
    const r = await post(gw.url, '/v1/web/parse', undefined, { key: apiKey, rawBody: body, headers: { 'idempotency-key': 'deep-1' } });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.code).toBe('invalidRequest');
    expect(r.json.error.message).toMatch(rule);
    expect(errorsLogged().length).toBe(before);
  });

  it('10,000 levels to POST /v1/quote, in `input` or beside it: 400 naming the rule', async () => {
    for (const raw of [`{"endpoint":"web.parse","input":${nestedObjects(10_000)}}`, `{"endpoint":"web.parse","input":{"file":${nestedArrays(10_000)}}}`]) {
      const r = await post(gw.url, '/v1/quote', undefined, { key: apiKey, rawBody: raw });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false });
      expect(r.json.error.message).toMatch(rule);
    }
  });

  it('the same through MCP: a 400 in the transport\'s error shape, naming the rule', async () => {
    const raw = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"quote","arguments":{"tool":"web_parse","arguments":${nestedObjects(10_000)}}}}`;
    const r = await post(gw.url, '/v1/mcp', undefined, { key: apiKey, rawBody: raw, headers: { accept: 'application/json, text/event-stream' } });
    expect(r.status, r.text).toBe(400);
    expect(r.json).toMatchObject({ success: false, code: 'INVALID_INPUT', error: expect.stringMatching(rule) });
  });

  it('64 levels are within the rule: the body goes on to validation (an unknown field here)', async () => {
    const r = await post(gw.url, '/v1/web/parse', undefined, { key: apiKey, rawBody: `{"file":"JVBERi0=","extra":${nestedArrays(63)}}`, headers: { 'idempotency-key': 'deep-2' } });
    expect(r.status).toBe(400);
    expect(r.json.error.message).not.toMatch(rule);
  });

  it('canonicalJson is a loop: it writes a 100,000-level value as the recursive form did a shallow one', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: [] }], a: 'x', u: undefined, n: [undefined, null] })).toBe('{"a":"x","b":[1,{"c":[],"d":2}],"n":[,null],"u":undefined}');
    expect(canonicalJson(JSON.parse(nestedArrays(100_000)))).toBe(nestedArrays(100_000));
  });
});
