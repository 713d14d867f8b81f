/**
 * docs/account-api.md "Keys, credits" and "Usage, logs": the account routes over real HTTP with a signed-in
 * session: keys listed with their last use, created, revealed only with the password (and never logged), revoked (a
 * call with the key then gets 401); usage and logs of the session's account; the routes are in OpenAPI.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/server/logger.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { Browser, PASSWORD, newInvite, uniqueEmail } from './helpers.js';

let t: TestGateway;
let b: Browser;
let email: string;
let defaultKey: { id: string; key: string };

beforeAll(async () => {
  // debug: whatever the server logs at any level must hold no key and no password.
  t = await startGateway({ QUARRY_LOG_LEVEL: 'debug' });
  b = new Browser(t.url);
  email = uniqueEmail();
  const r = await b.signUp((await newInvite(t, { credits: 40 })).code, email, PASSWORD);
  expect(r.status).toBe(200);
  defaultKey = r.json.data.apiKey;
});
afterAll(() => t?.close());

function expectError(r: { status: number; json: any }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json.error.code).toBe(code);
}

const SUBFORUM = { subforum: 'golang', limit: 5, tags: ['dash'] };

describe('keys', () => {
  it('GET /v1/account: balance, billing link, e-mail; with a key instead of a session it names the key', async () => {
    const r = await b.get('/v1/account');
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ id: expect.stringMatching(/^acct_/), email, balance: 40, billingUrl: expect.any(String), createdAt: expect.any(String) });
    const byKey = await get(t.url, '/v1/account', { key: defaultKey.key });
    expect(byKey.json.data).toMatchObject({ id: r.json.data.id, balance: 40, key: { id: defaultKey.id, name: 'default', test: false } });
    expectError(await get(t.url, '/v1/account'), 401, 'unauthorized');
    expectError(await get(t.url, '/v1/account', { key: 'qry_nothing_like_a_real_key' }), 401, 'unauthorized');
  });

  it('create a named test key; listing shows it (never whole) with lastUsedAt, set by a call made with it', async () => {
    const created = await b.post('/v1/account/keys', { name: 'ci runner', test: true });
    expect(created.status, created.text).toBe(200);
    const k = created.json.data;
    expect(k).toEqual({ id: expect.stringMatching(/^key_/), name: 'ci runner', prefix: expect.stringMatching(/^qry_test_/), test: true, createdAt: expect.any(String), key: expect.stringMatching(/^qry_test_/) });
    expect(k.key.startsWith(k.prefix)).toBe(true);
    let list = (await b.get('/v1/account/keys')).json.data.keys;
    expect(list.map((x: any) => x.name)).toEqual(['default', 'ci runner']);
    expect(list[1]).toEqual({ id: k.id, name: 'ci runner', prefix: k.prefix, test: true, revoked: false, createdAt: k.createdAt, lastUsedAt: null });
    expect(JSON.stringify(list)).not.toContain(k.key);

    const before = Date.now();
    const call = await post(t.url, '/v1/reddit/subforum', SUBFORUM, { key: k.key });
    expect(call.status, call.text).toBe(200);
    // The last-use write happens after the answer went out.
    await expect.poll(async () => (await b.get('/v1/account/keys')).json.data.keys[1].lastUsedAt, { timeout: 3000 }).not.toBeNull();
    list = (await b.get('/v1/account/keys')).json.data.keys;
    expect(Date.parse(list[1].lastUsedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(list[0].lastUsedAt).toBeNull();

    // The call shows in the account's logs and usage.
    const logs = await b.get(`/v1/account/logs?keyId=${k.id}`);
    expect(logs.status).toBe(200);
    expect(logs.json.data).toMatchObject({ total: 1, page: 0, pageSize: 50, logs: [{ endpoint: 'reddit.subforum', apiKeyId: k.id, apiKeyName: 'ci runner', test: true, tags: ['dash'] }] });
    expect((await b.get('/v1/account/logs?keyId=key_other')).json.data.total).toBe(0);
    const usage = await b.get('/v1/account/usage?days=7&tag=dash');
    expect(usage.status).toBe(200);
    expect(usage.json.data).toMatchObject({ days: 7, tag: 'dash', calls: 1, byEndpoint: [{ endpoint: 'reddit.subforum', calls: 1 }] });
    expectError(await b.get('/v1/account/usage?days=91'), 400, 'invalidRequest');
    expectError(await b.get('/v1/account/logs?page=-1'), 400, 'invalidRequest');
    expectError(await new Browser(t.url).get('/v1/account/logs'), 401, 'unauthorized');
  });

  it('a key name is 1-50 characters: empty or longer → 400 naming name', async () => {
    const empty = await b.post('/v1/account/keys', { name: '' });
    expectError(empty, 400, 'invalidRequest');
    expect(empty.json.error.message).toMatch(/^name: /);
    expect((await b.post('/v1/account/keys', { name: 'x'.repeat(51) })).json.error.message).toBe('name: must be at most 50 characters long');
  });

  it('reveal needs the password: wrong → 403 forbidden, right → the whole key; unknown or foreign key → 404', async () => {
    const created = (await b.post('/v1/account/keys', { name: 'to reveal' })).json.data;
    const wrong = await b.post(`/v1/account/keys/${created.id}/reveal`, { password: 'not my password' });
    expectError(wrong, 403, 'forbidden');
    expect(wrong.text).not.toContain(created.key);
    const right = await b.post(`/v1/account/keys/${created.id}/reveal`, { password: PASSWORD });
    expect(right.status).toBe(200);
    expect(right.json.data).toEqual({ id: created.id, key: created.key });
    expectError(await b.post('/v1/account/keys/key_doesnotexist/reveal', { password: PASSWORD }), 404, 'notFound');
    // Someone else's key is not found from here, and their session cannot reveal ours.
    const other = new Browser(t.url);
    await other.signUp((await newInvite(t)).code, uniqueEmail(), PASSWORD);
    expectError(await other.post(`/v1/account/keys/${created.id}/reveal`, { password: PASSWORD }), 404, 'notFound');
    expectError(await b.post(`/v1/account/keys/${created.id}/reveal`, { password: PASSWORD }, { 'x-csrf-token': '' }), 403, 'forbidden');
  });

  it('revoke: the key then gets 401; listed as revoked; another account cannot revoke it', async () => {
    const created = (await b.post('/v1/account/keys', { name: 'short-lived', test: true })).json.data;
    expect((await post(t.url, '/v1/reddit/subforum', SUBFORUM, { key: created.key })).status).toBe(200);
    const other = new Browser(t.url);
    await other.signUp((await newInvite(t)).code, uniqueEmail(), PASSWORD);
    expectError(await other.post(`/v1/account/keys/${created.id}/revoke`, {}), 404, 'notFound');
    expectError(await b.post(`/v1/account/keys/${created.id}/revoke`, {}, { 'x-csrf-token': '' }), 403, 'forbidden');
    const r = await b.post(`/v1/account/keys/${created.id}/revoke`, {});
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ id: created.id, revoked: true });
    const after = await post(t.url, '/v1/reddit/subforum', SUBFORUM, { key: created.key });
    expectError(after, 401, 'unauthorized');
    const listed = (await b.get('/v1/account/keys')).json.data.keys.find((k: any) => k.id === created.id);
    expect(listed.revoked).toBe(true);
  });

  it('a key may revoke itself (quarry logout) but no other key', async () => {
    const one = (await b.post('/v1/account/keys', { name: 'one' })).json.data;
    const two = (await b.post('/v1/account/keys', { name: 'two' })).json.data;
    expectError(await post(t.url, `/v1/account/keys/${two.id}/revoke`, {}, { key: one.key }), 403, 'forbidden');
    expect((await post(t.url, `/v1/account/keys/${one.id}/revoke`, {}, { key: one.key })).status).toBe(200);
    expectError(await get(t.url, '/v1/account', { key: one.key }), 401, 'unauthorized');
    expect((await get(t.url, '/v1/account', { key: two.key })).status).toBe(200);
  });

  it('no log line holds a key, a password or a session cookie (captured at debug level)', async () => {
    const created = (await b.post('/v1/account/keys', { name: 'secret' })).json.data;
    await b.post(`/v1/account/keys/${created.id}/reveal`, { password: PASSWORD });
    await b.post(`/v1/account/keys/${created.id}/reveal`, { password: 'a wrong password' });
    await t.gateway.log.flush?.();
    const lines = t.logLines.join('\n');
    expect(t.logLines.some((l) => l.includes('/v1/account/keys/:keyId/reveal'))).toBe(true);
    for (const secret of [created.key, defaultKey.key, PASSWORD, 'a wrong password', b.cookie!.split('=')[1], b.csrf!]) {
      expect(lines, 'a secret reached the log').not.toContain(secret);
    }
  });

  it('the logger redacts the account side\'s secret fields should a body ever be logged', () => {
    const lines: string[] = [];
    const log = createLogger('info', new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
    log.info({
      body: { password: 'hunter2hunter2', codeVerifier: 'v'.repeat(43), inviteCode: 'ABCD-EFGH' },
      data: { key: 'qry_abc', apiKey: { key: 'qry_def' }, csrfToken: 'tok' },
      req: { headers: { cookie: 'quarry_session=zzz', 'x-csrf-token': 'tok2' } },
    });
    log.flush();
    const out = lines.join('');
    for (const s of ['hunter2hunter2', 'v'.repeat(43), 'ABCD-EFGH', 'qry_abc', 'qry_def', 'tok"', 'zzz', 'tok2']) expect(out).not.toContain(s);
    expect(out).toContain('[redacted]');
  });
});

describe('OpenAPI', () => {
  it('lists every account-side route, each one served, with the session cookie scheme', async () => {
    const doc = (await get(t.url, '/openapi.json')).json;
    expect(doc.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: 'quarry_session' });
    const ours = Object.entries(doc.paths as Record<string, Record<string, any>>).filter(([p]) => /^\/v1\/(auth|account|cli)\b/.test(p));
    const operations = ours.flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(operations.sort()).toEqual(
      [
        'POST /v1/auth/signup',
        'POST /v1/auth/signin',
        'POST /v1/auth/signout',
        'GET /v1/auth/session',
        'GET /v1/account',
        'GET /v1/account/keys',
        'POST /v1/account/keys',
        'POST /v1/account/keys/{keyId}/reveal',
        'POST /v1/account/keys/{keyId}/revoke',
        'GET /v1/account/usage',
        'GET /v1/account/logs',
        'GET /v1/account/request-log',
        'GET /v1/account/request-log/{requestId}',
        'POST /v1/cli/sessions',
        'GET /v1/cli/sessions/{sessionId}',
        'POST /v1/cli/sessions/{sessionId}/approve',
        'POST /v1/cli/sessions/{sessionId}/token',
        // Budgets (the lead's) may add theirs; they are not checked here.
        ...operations.filter((o) => o.includes('/v1/account/budgets')),
      ].sort(),
    );
    for (const op of operations) {
      const [method, path] = op.split(' ');
      expect(t.gateway.app.hasRoute({ method: method as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') }), op).toBe(true);
    }
    const signup = doc.paths['/v1/auth/signup'].post;
    expect(signup.requestBody.content['application/json'].schema.required).toEqual(['inviteCode', 'email', 'password']);
    expect(signup.responses['4XX'].content['application/json'].schema.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['inviteClaimed', 'inviteDisabled', 'inviteExpired', 'inviteUsedUp', 'cliSessionCompleted', 'cliSessionExists', 'cliSessionNotFound', 'invalidCliSession', 'invalidCliVerifier']),
    );
  });
});
