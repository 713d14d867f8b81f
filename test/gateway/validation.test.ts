/** SPEC.md "Common conventions" 2, 7, 8, 11 and Errors rule 1, over real HTTP: 400 invalidRequest naming field and rule. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let key: string;

beforeAll(async () => {
  // web.search is served now: QUARRY_SOURCES leaves it out, so a valid call ends at a source this server does not serve.
  gw = await startGateway({ QUARRY_SOURCES: 'reddit' });
  const acct = await gw.accounts.createAccount({ credits: 100 });
  key = (await gw.accounts.createKey({ accountId: acct.accountId, test: true })).apiKey;
});
afterAll(() => gw.close());

async function expectInvalid(path: string, body: unknown, pattern: RegExp, extra: Parameters<typeof post>[3] = {}) {
  const r = await post(gw.url, path, body, { key, ...extra });
  expect(r.status).toBe(400);
  expect(r.json.success).toBe(false);
  expect(r.json.error.code).toBe('invalidRequest');
  expect(r.json.error.retryable).toBe(false);
  expect(r.json.error.message).toMatch(pattern);
  expect(r.headers.get('x-request-id')).toBe(r.json.error.requestId);
  expect(r.headers.get('retry-after')).toBe('0');
  return r;
}

describe('request bodies', () => {
  it('rule 2: unknown body fields are rejected, not stripped', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang', colour: 'red' }, /colour: unknown field/));
  it('rule 2: every required field must be present', () => expectInvalid('/v1/reddit/subforum', {}, /subforum: is required/));
  it('a JSON array body is a 400', () => expectInvalid('/v1/reddit/subforum', [], /body: must be a JSON object/));
  it('a JSON string body is a 400', () => expectInvalid('/v1/reddit/subforum', 'golang', /body: must be a JSON object/));
  it('invalid JSON is a 400', () =>
    expectInvalid('/v1/reddit/subforum', undefined, /body: is not valid JSON/, { rawBody: '{"subforum":' }));
  it('an empty body is a 400', () => expectInvalid('/v1/reddit/subforum', undefined, /body: must be a JSON object/, { rawBody: '' }));
  it('a wrong content type is a 400', () =>
    expectInvalid('/v1/reddit/subforum', undefined, /Content-Type: must be application\/json/, {
      rawBody: 'subforum=golang',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }));
  it('types are not coerced', () => expectInvalid('/v1/reddit/subforum', { subforum: 'golang', limit: '10' }, /limit: must be an integer/));
  it('integer bounds', () => expectInvalid('/v1/reddit/subforum', { subforum: 'golang', limit: 101 }, /limit: must be at most 100/));
  it('enums', () => expectInvalid('/v1/reddit/subforum', { subforum: 'golang', sort: 'best' }, /sort: must be one of/));
  it('cursor pattern', () => expectInvalid('/v1/reddit/subforum', { subforum: 'golang', cursor: 'abc' }, /cursor: /));
});

describe('shared field rules', () => {
  it('rule 7: maxAge above the endpoint cacheTtlSeconds is rejected', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang', maxAge: 601 }, /maxAge: must be at most 600 \(the endpoint's cacheTtlSeconds\)/));
  it('rule 7: negative maxAge is rejected', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang', maxAge: -1 }, /maxAge: must be at least 0/));
  it('web.search takes no maxAge', () => expectInvalid('/v1/web/search', { query: 'coffee', maxAge: 10 }, /maxAge: unknown field/));
  it('web.search takes no tags', () => expectInvalid('/v1/web/search', { query: 'coffee', tags: ['a'] }, /tags: unknown field/));
  it('rule 8: at most 10 tags', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang', tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, /tags: must have at most 10 items/));
  it('rule 8: tag characters', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang', tags: ['ok', 'bad tag!'] }, /tags\[1\]: must match/));
  it('rule 8: tag length', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang', tags: ['x'.repeat(51)] }, /tags\[0\]: must be at most 50 characters/));
  it('rule 11: country must be a real ISO 3166-1 alpha-2 code', () =>
    expectInvalid('/v1/web/search', { query: 'coffee', country: 'xx' }, /country: must be an ISO 3166-1 alpha-2/));
  it('rule 11: dates respect leap years', () =>
    expectInvalid('/v1/web/search', { query: 'coffee', from: '2023-02-29' }, /from: must be a valid calendar date/));
  it('rule 11: language must be a language tag', () =>
    expectInvalid('/v1/web/search', { query: 'coffee', language: 'english!' }, /language: must be a language tag/));
  it('rule 11: within is an enum per endpoint', () =>
    expectInvalid('/v1/web/search', { query: 'coffee', within: 'hour' }, /within: must be one of day, week, month, year, all/));
  it('maxTextLength must be an integer of at least 1', () =>
    expectInvalid('/v1/reddit/subforum', { subforum: 'golang' }, /maxTextLength: must be an integer of at least 1/, { query: 'maxTextLength=0' }));

  it('valid any-case country, leap day and language pass validation (then hit the source not served)', async () => {
    const r = await post(gw.url, '/v1/web/search', { query: 'coffee', country: 'GB', from: '2024-02-29', language: 'pt-BR' }, { key });
    expect(r.status).toBe(503);
    expect(r.json.error.code).toBe('sourceUnavailable');
    expect(r.json.error.retryable).toBe(false);
  });
});

describe('size limits', () => {
  it('a body over the endpoint limit is a 400, not a 413 or 5xx', async () => {
    const r = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', pad: 'x'.repeat(1_100_000) }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalidRequest');
    expect(r.json.error.message).toMatch(/body: is larger/);
  });
});
