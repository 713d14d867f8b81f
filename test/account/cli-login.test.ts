/**
 * docs/account-api.md "CLI login" and "Invites": every cliSession… and invalidCli… code over real HTTP, then the whole
 * login with the real CLI process (`quarry login` → approval through the HTTP routes with a session → the key saved
 * owner-only → `whoami` → `logout` revokes it), and the operator's `invites` and `users` commands on the gateway's
 * own data while it runs.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s256 } from '../../src/identity/tokens.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { Browser, PASSWORD, newInvite, uniqueEmail } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

let t: TestGateway;
let person: Browser;
let email: string;
const tempDirs: string[] = [];

beforeAll(async () => {
  t = await startGateway();
  person = new Browser(t.url);
  email = uniqueEmail();
  expect((await person.signUp((await newInvite(t, { credits: 30 })).code, email, PASSWORD)).status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

function expectError(r: { status: number; json: any }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(r.json.error.code).toBe(code);
}

const VERIFIER = 'v'.repeat(20) + 'Abc123-._~' + 'w'.repeat(20);
const start = (body: Record<string, unknown> = {}) =>
  post(t.url, '/v1/cli/sessions', { codeChallenge: s256(VERIFIER), codeChallengeMethod: 'S256', name: 'laptop', ...body });
const token = (id: string, codeVerifier = VERIFIER) => post(t.url, `/v1/cli/sessions/${id}/token`, { codeVerifier });

describe('CLI login over HTTP: each code where its name says', () => {
  it('start → approval address, 10-minute expiry, poll interval; a proposed id in use → 409 cliSessionExists', async () => {
    const r = await start();
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    expect(d.sessionId).toMatch(/^cli_[A-Za-z0-9_-]{32}$/);
    expect(d.approvalUrl).toBe(`${t.url}/dashboard/cli/${d.sessionId}`);
    expect(Date.parse(d.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(Date.parse(d.expiresAt) - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(d.pollIntervalSeconds).toBe(2);
    expect(d.verificationCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect((await person.get(`/v1/cli/sessions/${d.sessionId}`)).json.data.verificationCode).toBe(d.verificationCode);
    // Derived from the challenge: another verifier, another code.
    const other = await post(t.url, '/v1/cli/sessions', { codeChallenge: s256(VERIFIER + 'x'), codeChallengeMethod: 'S256' });
    expect(other.json.data.verificationCode).not.toBe(d.verificationCode);
    const mine = await start({ sessionId: 'my-own-session-id-1' });
    expect(mine.json.data.sessionId).toBe('my-own-session-id-1');
    expectError(await start({ sessionId: 'my-own-session-id-1' }), 409, 'cliSessionExists');
    expectError(await start({ sessionId: 'short' }), 400, 'invalidCliSession');
    const plain = await start({ codeChallengeMethod: 'plain' });
    expectError(plain, 400, 'invalidRequest');
    expect(plain.json.error.message).toBe('codeChallengeMethod: must be one of S256');
    expectError(await start({ codeChallenge: 'tooshort' }), 400, 'invalidRequest');
  });

  it('unknown id → 404 cliSessionNotFound; malformed id → 400 invalidCliSession', async () => {
    expectError(await token('cli_unknownunknownunknown'), 404, 'cliSessionNotFound');
    expectError(await person.get('/v1/cli/sessions/cli_unknownunknownunknown'), 404, 'cliSessionNotFound');
    expectError(await person.post('/v1/cli/sessions/cli_unknownunknownunknown/approve'), 404, 'cliSessionNotFound');
    expectError(await token('bad!id'), 400, 'invalidCliSession');
  });

  it('pending → 400 invalidCliSession, retryable, Retry-After 2; a wrong verifier → 400 invalidCliVerifier', async () => {
    const id = (await start()).json.data.sessionId;
    const pending = await token(id);
    expectError(pending, 400, 'invalidCliSession');
    expect(pending.json.error.retryable).toBe(true);
    expect(pending.json.error.retryAfterSeconds).toBe(2);
    expect(pending.headers.get('retry-after')).toBe('2');
    expectError(await token(id, VERIFIER + 'x'), 400, 'invalidCliVerifier');
    expectError(await token(id, 'short'), 400, 'invalidCliVerifier');
  });

  it('approve needs a session (401) and the CSRF token (403); then one exchange yields a named key of that account', async () => {
    const id = (await start()).json.data.sessionId;
    expectError(await new Browser(t.url).post(`/v1/cli/sessions/${id}/approve`), 401, 'unauthorized');
    expectError(await person.post(`/v1/cli/sessions/${id}/approve`, {}, { 'x-csrf-token': '' }), 403, 'forbidden');
    const shown = await person.get(`/v1/cli/sessions/${id}`);
    expect(shown.json.data).toMatchObject({ sessionId: id, name: 'laptop', status: 'pending' });
    const approved = await person.post(`/v1/cli/sessions/${id}/approve`);
    expect(approved.json.data).toEqual({ sessionId: id, status: 'approved' });
    expect((await person.post(`/v1/cli/sessions/${id}/approve`)).json.data.status).toBe('approved'); // same person again: fine
    const other = new Browser(t.url);
    await other.signUp((await newInvite(t)).code, uniqueEmail(), PASSWORD);
    expectError(await other.post(`/v1/cli/sessions/${id}/approve`), 409, 'cliSessionCompleted');
    // A wrong verifier stays wrong after approval.
    expectError(await token(id, VERIFIER.toUpperCase()), 400, 'invalidCliVerifier');

    const r = await token(id);
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    const account = (await person.get('/v1/account')).json.data;
    expect(d).toEqual({ apiKey: expect.stringMatching(/^qry_/), keyId: expect.stringMatching(/^key_/), name: 'laptop', accountId: account.id, email });
    expect((await get(t.url, '/v1/account', { key: d.apiKey })).json.data.key).toEqual({ id: d.keyId, name: 'laptop', test: false });
    expect((await person.get(`/v1/cli/sessions/${id}`)).json.data.status).toBe('completed');

    expectError(await token(id), 409, 'cliSessionCompleted');
    expectError(await person.post(`/v1/cli/sessions/${id}/approve`), 409, 'cliSessionCompleted');

    // Neither the issued key nor the verifier reaches the server's log.
    await t.gateway.log.flush?.();
    // The access line names the route, not the address it came with.
    expect(t.logLines.some((l) => l.includes('/v1/cli/sessions/:sessionId/token'))).toBe(true);
    expect(t.logLines.join('\n')).not.toContain(d.apiKey);
    expect(t.logLines.join('\n')).not.toContain(VERIFIER);
  });

  it('exchanges racing each other: one key, the rest 409 cliSessionCompleted', async () => {
    const id = (await start()).json.data.sessionId;
    await person.post(`/v1/cli/sessions/${id}/approve`);
    const before = (await person.get('/v1/account/keys')).json.data.keys.length;
    const answers = await Promise.all(Array.from({ length: 4 }, () => token(id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, 'cliSessionCompleted');
    expect((await person.get('/v1/account/keys')).json.data.keys.length).toBe(before + 1);
  });

  it('after 10 minutes: status expired; exchange and approval → 400 invalidCliSession, not retryable', async () => {
    const pendingId = (await start()).json.data.sessionId;
    const approvedId = (await start()).json.data.sessionId;
    await person.post(`/v1/cli/sessions/${approvedId}/approve`);
    const deps = t.gateway.deps;
    const realNow = deps.now;
    deps.now = () => Date.now() + 10 * 60_000 + 1000;
    try {
      // A session cookie would be idle-checked against the moved clock too: 10 minutes is well inside 24 h.
      for (const id of [pendingId, approvedId]) {
        expect((await person.get(`/v1/cli/sessions/${id}`)).json.data.status).toBe('expired');
        const r = await token(id);
        expectError(r, 400, 'invalidCliSession');
        expect(r.json.error.retryable).toBe(false);
      }
      expectError(await person.post(`/v1/cli/sessions/${pendingId}/approve`), 400, 'invalidCliSession');
    } finally {
      deps.now = realNow;
    }
  });
});

describe('the unauthenticated CLI calls are limited per address', () => {
  it('past QUARRY_CLI_LOGIN_CALLS_PER_MINUTE → 429 rateLimited with Retry-After', async () => {
    const g = await startGateway({ QUARRY_CLI_LOGIN_CALLS_PER_MINUTE: '5' });
    try {
      // Not in a minute's last seconds, so the fixed window cannot roll over mid-test.
      const intoMinute = Date.now() % 60_000;
      if (intoMinute > 57_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 50));
      const body = { codeChallenge: s256(VERIFIER), codeChallengeMethod: 'S256' };
      const statuses = (await Promise.all(Array.from({ length: 5 }, () => post(g.url, '/v1/cli/sessions', body)))).map((r) => r.status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await post(g.url, '/v1/cli/sessions/cli_unknownunknownunknown/token', { codeVerifier: VERIFIER });
      expectError(limited, 429, 'rateLimited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.json.error.retryable).toBe(true);
    } finally {
      await g.close();
    }
  });
});

// ---- the real CLI ---------------------------------------------------------------------------------------

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, QUARRY_DATA_DIR: t.dataDir, QUARRY_LOG_LEVEL: 'silent', ...extra };
  // On PostgreSQL the gateway helper exported its schema and its QUARRY_SECRET, which the CLI then needs.
  if (!process.env.QUARRY_TEST_DATABASE_URL) delete env.QUARRY_SECRET;
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  // The gateway helper exported its PostgreSQL schema when the suite runs on the shared backends.
  if (!process.env.QUARRY_TEST_DATABASE_URL) delete env.QUARRY_DATABASE_URL;
  return env;
}

function quarry(
  args: string[],
  o: { env?: Record<string, string>; stdin?: string; onStdout?: (text: string) => void; onStderr?: (text: string) => void } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: cliEnv(o.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
      o.onStdout?.(stdout);
    });
    child.stderr.on('data', (c) => {
      stderr += c;
      o.onStderr?.(stderr);
    });
    child.on('error', reject);
    child.stdin.end(o.stdin ?? '');
    child.on('close', (code) => {
      let json: any;
      try {
        json = JSON.parse(stdout.trim().split('\n').pop() ?? '');
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-login-'));
  tempDirs.push(d);
  return d;
}

describe('quarry login, whoami, logout (the real CLI)', () => {
  it('login prints the approval address, waits, and saves the key owner-only once approved', { timeout: 60_000 }, async () => {
    const home = tempDir();
    const configDir = path.join(home, 'cfg', 'quarry');
    const env = { QUARRY_CONFIG_DIR: configDir };
    let approval: Promise<unknown> | undefined;
    const login = quarry(['login', '--server', t.url, '--name', 'ci laptop', '--no-browser'], {
      env,
      onStdout: (text) => {
        const m = /\/dashboard\/cli\/([A-Za-z0-9_-]+)[\s\S]*the code ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(text);
        // Approve through the routes the dashboard uses, as the signed-in person would, once the codes match.
        if (m && !approval) {
          approval = person.get(`/v1/cli/sessions/${m[1]}`).then((shown) => {
            expect(shown.json.data.verificationCode).toBe(m[2]);
            return person.post(`/v1/cli/sessions/${m[1]}/approve`);
          });
        }
      },
    });
    const r = await login;
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toContain(`${t.url}/dashboard/cli/cli_`);
    expect(r.stdout).toMatch(new RegExp(`Signed in as ${email.replace(/\./g, '\\.')}: key "ci laptop"`));
    expect(((await approval) as { status: number }).status).toBe(200);

    const file = path.join(configDir, 'credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(configDir).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(saved).toEqual({ server: t.url, apiKey: expect.stringMatching(/^qry_/), keyId: expect.stringMatching(/^key_/), name: 'ci laptop', email });
    // The key is a new named key of the approving person's account.
    const keys = (await person.get('/v1/account/keys')).json.data.keys;
    expect(keys.find((k: any) => k.id === saved.keyId)).toMatchObject({ name: 'ci laptop', revoked: false });
    expect((await post(t.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5 }, { key: saved.apiKey })).status).not.toBe(401);

    // Logging in again replaces the saved key and ends the one it replaces.
    let second: Promise<unknown> | undefined;
    const again = await quarry(['login', '--server', t.url, '--name', 'ci laptop', '--no-browser', '--json'], {
      env,
      onStdout: () => {},
      onStderr: (text) => {
        const m = /\/dashboard\/cli\/([A-Za-z0-9_-]+)/.exec(text);
        if (m && !second) second = person.post(`/v1/cli/sessions/${m[1]}/approve`);
      },
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ server: t.url, name: 'ci laptop', email, credentials: file });
    expect(again.json.keyId).not.toBe(saved.keyId);
    expectError(await get(t.url, '/v1/account', { key: saved.apiKey }), 401, 'unauthorized');
    Object.assign(saved, JSON.parse(fs.readFileSync(file, 'utf8')));
    expect(saved.keyId).toBe(again.json.keyId);

    const who = await quarry(['whoami', '--json'], { env });
    expect(who.code, who.stderr).toBe(0);
    expect(who.json).toMatchObject({ server: t.url, email, keyId: saved.keyId, keyName: 'ci laptop', balance: expect.any(Number) });

    const out = await quarry(['logout'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`key ${saved.keyId} revoked`);
    expect(fs.existsSync(file)).toBe(false);
    expectError(await get(t.url, '/v1/account', { key: saved.apiKey }), 401, 'unauthorized');

    const after = await quarry(['whoami'], { env });
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('not signed in');
  });

  it('XDG_CONFIG_HOME is used when QUARRY_CONFIG_DIR is not set; an unreachable server fails clearly, saving nothing', { timeout: 60_000 }, async () => {
    const { configDir } = await import('../../src/lib/data-dir.js');
    expect(configDir({ XDG_CONFIG_HOME: '/x/cfg' } as NodeJS.ProcessEnv)).toBe('/x/cfg/quarry');
    expect(configDir({ QUARRY_CONFIG_DIR: '/y', XDG_CONFIG_HOME: '/x' } as NodeJS.ProcessEnv)).toBe('/y');
    expect(configDir({ HOME: os.homedir() } as NodeJS.ProcessEnv)).toBe(path.join(os.homedir(), '.config', 'quarry'));
    // The server cannot be reached: a clear failure, no file.
    const home = tempDir();
    const r = await quarry(['login', '--server', 'http://127.0.0.1:9', '--no-browser'], { env: { XDG_CONFIG_HOME: home } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(fs.existsSync(path.join(home, 'quarry', 'credentials.json'))).toBe(false);
  });

  it('logout when the server is unreachable still deletes the key here and says to revoke it', async () => {
    const configDir = tempDir();
    fs.writeFileSync(
      path.join(configDir, 'credentials.json'),
      JSON.stringify({ server: 'http://127.0.0.1:9', apiKey: 'qry_xxxxxxxxxxxxxxxx', keyId: 'key_gone', name: 'old', email: null }),
      { mode: 0o600 },
    );
    const r = await quarry(['logout', '--json'], { env: { QUARRY_CONFIG_DIR: configDir } });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ signedOut: true, keyId: 'key_gone', revoked: false, note: expect.stringContaining('cannot reach') });
    expect(fs.existsSync(path.join(configDir, 'credentials.json'))).toBe(false);
  });
});

describe('operator commands on the running server\'s data', () => {
  it('invites create → sign-up works with the code; disable → inviteDisabled; enable → works; list shows the uses', { timeout: 60_000 }, async () => {
    const created = await quarry(['invites', 'create', '--credits', '7', '--uses', '2', '--expires', '1h', '--json']);
    expect(created.code, created.stderr).toBe(0);
    const inv = created.json;
    expect(inv).toMatchObject({ code: expect.stringMatching(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/), id: expect.stringMatching(/^inv_/), credits: 7, maxUses: 2, uses: 0, disabled: false });
    expect(Date.parse(inv.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);

    const first = new Browser(t.url);
    const r = await first.signUp(inv.code, uniqueEmail(), PASSWORD);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.account.balance).toBe(7);

    expect((await quarry(['invites', 'disable', inv.code])).code).toBe(0);
    const email2 = uniqueEmail();
    expectError(await new Browser(t.url).post('/v1/auth/signup', { inviteCode: inv.code, email: email2, password: PASSWORD }), 403, 'inviteDisabled');
    expect((await quarry(['invites', 'enable', inv.id])).code).toBe(0);
    expect((await new Browser(t.url).post('/v1/auth/signup', { inviteCode: inv.code, email: email2, password: PASSWORD })).status).toBe(200);

    const list = await quarry(['invites', 'list', '--json']);
    const listed = list.json.invites.find((i: any) => i.id === inv.id);
    expect(listed).toMatchObject({ codePrefix: inv.code.slice(0, 4), uses: 2, maxUses: 2, disabled: false });
    expect(list.stdout).not.toContain(inv.code);
    expect((await quarry(['invites', 'disable', 'inv_nope'])).code).toBe(1);
    const badExpiry = await quarry(['invites', 'create', '--expires', 'tomorrow']);
    expect(badExpiry.code).toBe(1);
    expect(badExpiry.stderr).toContain('--expires must be');
  });

  it('users create (password on stdin) into an existing account; reset-password ends their sessions', { timeout: 60_000 }, async () => {
    const account = (await person.get('/v1/account')).json.data;
    const colleague = uniqueEmail();
    const created = await quarry(['users', 'create', '--email', colleague, '--password-stdin', '--account', account.id, '--json'], { stdin: 'first password 1\n' });
    expect(created.code, created.stderr).toBe(0);
    expect(created.json).toMatchObject({ userId: expect.stringMatching(/^usr_/), accountId: account.id, email: colleague });
    const c = new Browser(t.url);
    expect((await c.signIn(colleague, 'first password 1')).status).toBe(200);
    expect((await c.get('/v1/account')).json.data.id).toBe(account.id);
    expect((await quarry(['users', 'create', '--email', colleague, '--password', 'whatever12345', '--new-account'])).code).toBe(1);
    expect((await quarry(['users', 'create', '--email', uniqueEmail(), '--password', 'short', '--new-account'])).stderr).toContain(
      'password: must be at least 10 characters long',
    );

    const reset = await quarry(['users', 'reset-password', '--email', colleague, '--password-stdin', '--json'], { stdin: 'second password 2' });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.json).toMatchObject({ email: colleague, sessionsEnded: 1 });
    expectError(await c.get('/v1/auth/session'), 401, 'unauthorized');
    expectError(await new Browser(t.url).post('/v1/auth/signin', { email: colleague, password: 'first password 1' }), 401, 'unauthorized');
    expect((await new Browser(t.url).signIn(colleague, 'second password 2')).status).toBe(200);

    const users = await quarry(['users', 'list', '--json']);
    expect(users.json.users.map((u: any) => u.email)).toEqual(expect.arrayContaining([email, colleague]));
  });

  it('users create --new-account makes an account with a default key and the given credits', { timeout: 30_000 }, async () => {
    const e = uniqueEmail();
    const r = await quarry(['users', 'create', '--email', e, '--password', 'some password 3', '--new-account', '--credits', '12', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ email: e, credits: 12, apiKey: expect.stringMatching(/^qry_/) });
    const b = new Browser(t.url);
    expect((await b.signIn(e, 'some password 3')).status).toBe(200);
    expect((await b.get('/v1/account')).json.data).toMatchObject({ id: r.json.accountId, balance: 12 });
  });
});
