/**
 * docs/account-api.md "Sign-in" and "Invites", over real HTTP on loopback: sign-up with each invite error code,
 * sign-in, the cookie's flags, CSRF and Origin checks, sign-out (here and everywhere), idle and absolute expiry,
 * and the brute-force limits. Runs on SQLite, or PostgreSQL + Redis with QUARRY_TEST_DATABASE_URL/REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/identity/password.js';
import { accountSideFor } from '../../src/store/account-side.js';
import { get, startGateway, type TestGateway } from '../helpers/gateway.js';
import { Browser, PASSWORD, newInvite, uniqueEmail } from './helpers.js';

let t: TestGateway;
beforeAll(async () => {
  // These tests sign one person in many times from 127.0.0.1: the limits are the subject of their own gateway below.
  t = await startGateway({ QUARRY_SIGNIN_ATTEMPTS_PER_ADDRESS: '500', QUARRY_SIGNIN_ATTEMPTS_PER_EMAIL: '100' });
});
afterAll(() => t?.close());

function expectError(r: { status: number; json: any }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json.success).toBe(false);
  expect(r.json.error.code).toBe(code);
}

describe('sign-up with an invite', () => {
  it('creates the account with the invite credits, a working default key, the person and a session cookie', async () => {
    const invite = await newInvite(t, { credits: 250 });
    const b = new Browser(t.url);
    const email = uniqueEmail();
    const r = await b.post('/v1/auth/signup', { inviteCode: invite.code.toLowerCase().replace(/-/g, ' '), email: email.toUpperCase(), password: PASSWORD });
    expect(r.status, r.text).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    const d = r.json.data;
    expect(d.user).toEqual({ id: expect.stringMatching(/^usr_/), email });
    expect(d.account).toEqual({ id: expect.stringMatching(/^acct_/), balance: 250 });
    expect(d.apiKey).toEqual({ id: expect.stringMatching(/^key_/), name: 'default', key: expect.stringMatching(/^qry_/) });
    // The default key is a real key of that account.
    const usage = await get(t.url, '/v1/usage', { key: d.apiKey.key });
    expect(usage.status).toBe(200);
    const account = await t.gateway.deps.store.getAccount(d.account.id);
    expect(account).toMatchObject({ balance: 250, email, keys: [{ id: d.apiKey.id, name: 'default', revoked: false }] });
    // The session works.
    const s = await b.session();
    expect(s.status).toBe(200);
    expect(s.json.data).toMatchObject({ user: d.user, account: { id: d.account.id, balance: 250, billingUrl: expect.any(String) } });
    expect(s.json.data.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('sets quarry_session HttpOnly, SameSite=Lax, Path=/, with a Max-Age; not Secure on plain http from loopback', async () => {
    const invite = await newInvite(t);
    const b = new Browser(t.url);
    await b.post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD });
    expect(b.setCookies).toHaveLength(1);
    const parts = b.setCookies[0].split('; ');
    expect(parts[0]).toMatch(/^quarry_session=[A-Za-z0-9_-]{43}$/);
    expect(parts).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${14 * 24 * 3600}`]));
    expect(parts).not.toContain('Secure');
  });

  it('unknown code → 404 notFound; malformed code → 404 notFound', async () => {
    const b = new Browser(t.url);
    expectError(await b.post('/v1/auth/signup', { inviteCode: '0000-0000-0000-0000', email: uniqueEmail(), password: PASSWORD }), 404, 'notFound');
    expectError(await b.post('/v1/auth/signup', { inviteCode: 'not a code!', email: uniqueEmail(), password: PASSWORD }), 404, 'notFound');
  });

  it('disabled → 403 inviteDisabled, and works again once enabled', async () => {
    const invite = await newInvite(t);
    const side = accountSideFor(t.gateway.deps.store);
    await side.setInviteDisabled(invite.id, true);
    const b = new Browser(t.url);
    const email = uniqueEmail();
    const r = await b.post('/v1/auth/signup', { inviteCode: invite.code, email, password: PASSWORD });
    expectError(r, 403, 'inviteDisabled');
    expect(r.json.error.retryable).toBe(false);
    await side.setInviteDisabled(invite.id, false);
    expect((await b.post('/v1/auth/signup', { inviteCode: invite.code, email, password: PASSWORD })).status).toBe(200);
  });

  it('past its expiry → 410 inviteExpired', async () => {
    const invite = await newInvite(t, { expiresAt: Date.now() - 1000 });
    const r = await new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD });
    expectError(r, 410, 'inviteExpired');
  });

  it('all uses taken → 410 inviteUsedUp; the same e-mail again with the invite → 409 inviteClaimed', async () => {
    const invite = await newInvite(t, { maxUses: 2 });
    const first = uniqueEmail();
    expect((await new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: first, password: PASSWORD })).status).toBe(200);
    const again = await new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: first, password: PASSWORD });
    expectError(again, 409, 'inviteClaimed');
    expect((await new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD })).status).toBe(200);
    expectError(await new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD }), 410, 'inviteUsedUp');
    // A person who claimed a used-up invite is told they already did, not that it is used up.
    expectError(await new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: first, password: PASSWORD }), 409, 'inviteClaimed');
  });

  it('concurrent sign-ups never take more uses than the invite has', async () => {
    const invite = await newInvite(t, { maxUses: 2 });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => new Browser(t.url).post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 410, 'inviteUsedUp');
    expect((await accountSideFor(t.gateway.deps.store).inviteById(invite.id))!.uses).toBe(2);
  });

  it('an e-mail that already has an account, a short password, a bad e-mail, an unknown field → 400 invalidRequest naming the field', async () => {
    const taken = uniqueEmail();
    expect((await new Browser(t.url).post('/v1/auth/signup', { inviteCode: (await newInvite(t)).code, email: taken, password: PASSWORD })).status).toBe(200);
    const invite = await newInvite(t);
    const b = new Browser(t.url);
    const dup = await b.post('/v1/auth/signup', { inviteCode: invite.code, email: taken, password: PASSWORD });
    expectError(dup, 400, 'invalidRequest');
    expect(dup.json.error.message).toMatch(/^email: already has an account/);
    const short = await b.post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: 'short' });
    expectError(short, 400, 'invalidRequest');
    expect(short.json.error.message).toBe('password: must be at least 10 characters long');
    const badEmail = await b.post('/v1/auth/signup', { inviteCode: invite.code, email: 'nobody', password: PASSWORD });
    expect(badEmail.json.error.message).toBe('email: must be an e-mail address');
    const extra = await b.post('/v1/auth/signup', { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD, admin: true });
    expect(extra.json.error.message).toBe('admin: unknown field; this endpoint does not take it');
    // None of these took a use.
    expect((await accountSideFor(t.gateway.deps.store).inviteById(invite.id))!.uses).toBe(0);
  });
});

describe('sign-in and sessions', () => {
  let email: string;
  beforeAll(async () => {
    email = uniqueEmail();
    const r = await new Browser(t.url).post('/v1/auth/signup', { inviteCode: (await newInvite(t)).code, email, password: PASSWORD });
    expect(r.status).toBe(200);
  });

  it('wrong password and unknown e-mail both → 401 unauthorized "Wrong e-mail or password."', async () => {
    const b = new Browser(t.url);
    for (const attempt of [{ email, password: 'wrong password!' }, { email: uniqueEmail(), password: PASSWORD }]) {
      const r = await b.post('/v1/auth/signin', attempt);
      expectError(r, 401, 'unauthorized');
      expect(r.json.error.message).toBe('Wrong e-mail or password.');
      expect(b.setCookies).toEqual([]);
    }
  });

  it('the right password (e-mail in any case) signs in; no session → 401', async () => {
    const b = new Browser(t.url);
    expectError(await b.get('/v1/auth/session'), 401, 'unauthorized');
    const r = await b.signIn(email.toUpperCase(), PASSWORD);
    expect(r.status).toBe(200);
    expect(r.json.data.user.email).toBe(email);
    expect((await b.get('/v1/account')).json.data.email).toBe(email);
    // A forged cookie is no session.
    expectError(await b.get('/v1/auth/session', { cookie: `quarry_session=${'A'.repeat(43)}` }), 401, 'unauthorized');
  });

  it('a hash made at a lower cost is upgraded at the next sign-in', async () => {
    const side = accountSideFor(t.gateway.deps.store);
    const { accountId } = await t.accounts.createAccount({ credits: 0 });
    const old = uniqueEmail();
    await side.createUser({ id: `usr_old_${Date.now()}`, accountId, email: old, passwordHash: await hashPassword(PASSWORD, 14) });
    expect((await side.userByEmail(old))!.passwordHash).toMatch(/^scrypt\$14\$8\$1\$/);
    expect((await new Browser(t.url).signIn(old, PASSWORD)).status).toBe(200);
    expect((await side.userByEmail(old))!.passwordHash).toMatch(/^scrypt\$15\$8\$1\$/);
    expect((await new Browser(t.url).signIn(old, PASSWORD)).status).toBe(200);
  });

  it('signing in again replaces the session: the earlier token stops working (no fixation)', async () => {
    const a = new Browser(t.url);
    await a.signIn(email, PASSWORD);
    const first = a.cookie!;
    await a.signIn(email, PASSWORD);
    expect(a.cookie).not.toBe(first);
    expectError(await a.get('/v1/auth/session', { cookie: first }), 401, 'unauthorized');
    expect((await a.get('/v1/auth/session')).status).toBe(200);
  });

  it('CSRF: a state-changing call without the token, with a wrong one or another session\'s → 403 forbidden', async () => {
    const a = new Browser(t.url);
    await a.signIn(email, PASSWORD);
    const other = new Browser(t.url);
    await other.signIn(email, PASSWORD);
    const missing = await a.post('/v1/account/keys', { name: 'x' }, { 'x-csrf-token': '' });
    expectError(missing, 403, 'forbidden');
    expect(missing.json.error.message).toMatch(/^X-CSRF-Token: is required/);
    expectError(await a.post('/v1/account/keys', { name: 'x' }, { 'x-csrf-token': 'A'.repeat(43) }), 403, 'forbidden');
    expectError(await a.post('/v1/account/keys', { name: 'x' }, { 'x-csrf-token': other.csrf! }), 403, 'forbidden');
    expect(a.csrf).not.toBe(other.csrf);
    expect((await a.post('/v1/account/keys', { name: 'x' })).status).toBe(200);
  });

  it('Origin: a cross-site Origin → 403 even with the right token; sign-in from another site → 403', async () => {
    const a = new Browser(t.url);
    await a.signIn(email, PASSWORD);
    const evil = await a.post('/v1/account/keys', { name: 'x' }, { origin: 'https://evil.example' });
    expectError(evil, 403, 'forbidden');
    expect(evil.json.error.message).toMatch(/^Origin/);
    expectError(await a.post('/v1/auth/signout', {}, { origin: 'null' }), 403, 'forbidden');
    expectError(await new Browser(t.url, 'https://evil.example').post('/v1/auth/signin', { email, password: PASSWORD }), 403, 'forbidden');
    // No Origin at all (curl, the CLI): the CSRF token decides.
    expect((await a.post('/v1/account/keys', { name: 'y' }, { origin: '' })).status).toBe(200);
  });

  it('sign-out ends this session and clears the cookie; sign-out everywhere ends them all', async () => {
    const a = new Browser(t.url);
    const b = new Browser(t.url);
    const c = new Browser(t.url);
    for (const x of [a, b, c]) expect((await x.signIn(email, PASSWORD)).status).toBe(200);
    const aCookie = a.cookie!;
    const out = await a.post('/v1/auth/signout', {});
    expect(out.json.data).toEqual({ signedOut: 1 });
    expect(a.setCookies[0]).toMatch(/^quarry_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    expectError(await a.get('/v1/auth/session', { cookie: aCookie }), 401, 'unauthorized');
    expect((await b.session()).status).toBe(200);
    // Without the CSRF token sign-out is refused.
    expectError(await b.post('/v1/auth/signout', { everywhere: true }, { 'x-csrf-token': '' }), 403, 'forbidden');
    const everywhere = await b.post('/v1/auth/signout', { everywhere: true });
    expect(everywhere.json.data.signedOut).toBeGreaterThanOrEqual(2);
    expectError(await b.get('/v1/auth/session'), 401, 'unauthorized');
    expectError(await c.get('/v1/auth/session'), 401, 'unauthorized');
    // Signing out without a session is harmless.
    expect((await new Browser(t.url).post('/v1/auth/signout')).json.data).toEqual({ signedOut: 0 });
  });

  it('a session ends after 24 h unused and 14 days after sign-in however used', async () => {
    const deps = t.gateway.deps;
    const realNow = deps.now;
    let offset = 0;
    deps.now = () => Date.now() + offset;
    try {
      const a = new Browser(t.url);
      await a.signIn(email, PASSWORD);
      offset = 23 * 3_600_000;
      expect((await a.get('/v1/auth/session')).status).toBe(200); // used: idle clock restarts
      offset += 23 * 3_600_000;
      expect((await a.get('/v1/auth/session')).status).toBe(200);
      offset += 24 * 3_600_000 + 1000;
      expectError(await a.get('/v1/auth/session'), 401, 'unauthorized');

      offset = 0;
      const b = new Browser(t.url);
      await b.signIn(email, PASSWORD);
      // Used every 20 hours, so never idle: 16 uses reach 320 h, the 17th (340 h) is past the 336 h limit.
      for (let k = 1; k <= 16; k++) {
        offset = k * 20 * 3_600_000;
        expect((await b.get('/v1/auth/session')).status, `after ${k * 20} h`).toBe(200);
      }
      offset = 17 * 20 * 3_600_000;
      expectError(await b.get('/v1/auth/session'), 401, 'unauthorized');
    } finally {
      deps.now = realNow;
    }
  });
});

describe('the cookie is Secure wherever it may travel in the clear', () => {
  it('QUARRY_BASE_URL https → Secure; behind a trusted TLS proxy (X-Forwarded-Proto https) → Secure', async () => {
    for (const env of [{ QUARRY_BASE_URL: 'https://quarry.example' }, { QUARRY_TRUST_PROXY: 'true' }] as Record<string, string>[]) {
      const g = await startGateway(env);
      try {
        const invite = await newInvite(g);
        const b = new Browser(g.url, undefined);
        const r = await b.post(
          '/v1/auth/signup',
          { inviteCode: invite.code, email: uniqueEmail(), password: PASSWORD },
          env.QUARRY_TRUST_PROXY ? { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' } : {},
        );
        expect(r.status, r.text).toBe(200);
        expect(b.setCookies[0].split('; ')).toContain('Secure');
      } finally {
        await g.close();
      }
    }
  });
});

describe('brute force: password attempts are limited per e-mail and per address', () => {
  let g: TestGateway;
  beforeAll(async () => {
    g = await startGateway({ QUARRY_SIGNIN_ATTEMPTS_PER_EMAIL: '3', QUARRY_SIGNIN_ATTEMPTS_PER_ADDRESS: '8' });
  });
  afterAll(() => g?.close());

  it('the 4th attempt on one e-mail → 429 rateLimited with Retry-After, even with the right password', async () => {
    const email = uniqueEmail();
    expect((await new Browser(g.url).post('/v1/auth/signup', { inviteCode: (await newInvite(g)).code, email, password: PASSWORD })).status).toBe(200);
    const b = new Browser(g.url);
    for (let i = 0; i < 3; i++) expectError(await b.post('/v1/auth/signin', { email, password: `wrong password ${i}` }), 401, 'unauthorized');
    const limited = await b.post('/v1/auth/signin', { email, password: PASSWORD });
    expectError(limited, 429, 'rateLimited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(limited.json.error.retryable).toBe(true);
    expect(limited.json.error.retryAfterSeconds).toBe(retryAfter);
    expect(b.setCookies).toEqual([]);
  });

  it('attempts on many e-mails from one address → 429 after the address limit', async () => {
    const b = new Browser(g.url);
    const statuses: number[] = [];
    // The previous test spent 1 sign-up and 4 sign-ins of this address's 8.
    for (let i = 0; i < 4; i++) statuses.push((await b.post('/v1/auth/signin', { email: uniqueEmail(), password: PASSWORD })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe('requireSession, as other routes use it (budgets)', () => {
  it('works inside an encapsulated plugin: 401 without a session, CSRF on POST, the person with one', async () => {
    const { default: Fastify } = await import('fastify');
    const { authContext } = await import('../../src/identity/context.js');
    const { requireSession } = await import('../../src/identity/session-guard.js');
    const { QuarryError } = await import('../../src/errors.js');
    const app = Fastify();
    authContext(app, t.gateway.deps);
    app.setErrorHandler(async (e, _req, reply) => reply.code(e instanceof QuarryError ? e.status : 500).send({ code: (e as any).code }));
    await app.register(async (child) => {
      child.get('/who', async (request) => requireSession(request));
      child.post('/change', async (request) => requireSession(request));
    });
    const b = new Browser(t.url);
    const email = uniqueEmail();
    await b.signUp((await newInvite(t)).code, email, PASSWORD);
    try {
      expect((await app.inject({ method: 'GET', url: '/who' })).statusCode).toBe(401);
      const who = await app.inject({ method: 'GET', url: '/who', headers: { cookie: b.cookie! } });
      expect(who.json()).toEqual({ userId: expect.stringMatching(/^usr_/), accountId: expect.stringMatching(/^acct_/), email, sessionId: expect.stringMatching(/^ses_/) });
      expect((await app.inject({ method: 'POST', url: '/change', headers: { cookie: b.cookie! } })).json()).toEqual({ code: 'forbidden' });
      const ok = await app.inject({ method: 'POST', url: '/change', headers: { cookie: b.cookie!, 'x-csrf-token': b.csrf! } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
