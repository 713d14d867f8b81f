/**
 * The account side's commands (docs/account-api.md):
 * - operator commands on the server's data (like `accounts …`): `users create|list|reset-password`,
 *   `invites create|list|disable|enable`;
 * - a person's commands against a running server: `login --server URL`, `whoami`, `logout`. The login is
 *   PKCE-style: a random verifier stays in this process, the server only ever sees its SHA-256 challenge until the
 *   exchange, and the key it yields is saved owner-only in the config directory.
 */
import { lastServer } from '../lib/data-dir.js';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Accounts } from '../identity/accounts.js';
import { createInvite, findInvite } from '../identity/invites.js';
import { hashPassword, passwordProblem } from '../identity/password.js';
import { normaliseEmail } from '../identity/sessions.js';
import { cliVerificationCode, newVerifier, s256 } from '../identity/tokens.js';
import { newId } from '../lib/ids.js';
import type { InviteRecord } from '../store/account-side.js';
import { fail, print, withData } from './common.js';
import { trimEndOf } from '../lib/strings.js';

function wholeNumber(name: string, min: number) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number of at least ${min}`);
    return n;
  };
}

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30m`, `12h`, `7d`, `2w`, or an ISO date / date-time: the moment the invite stops working. */
export function parseExpiry(raw: string, now = Date.now()): number {
  const m = /^(\d{1,5})([mhdw])$/.exec(raw.trim());
  if (m) {
    if (Number(m[1]) === 0) throw new InvalidArgumentError('--expires must be a positive duration');
    return now + Number(m[1]) * UNITS[m[2]];
  }
  const at = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(at)) throw new InvalidArgumentError('--expires must be a duration (30m, 12h, 7d, 2w) or an ISO date such as 2027-01-31');
  if (at <= now) throw new InvalidArgumentError('--expires must be in the future');
  return at;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One trailing newline (from echo or a here-string) is not part of the password.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function passwordFrom(o: { password?: string; passwordStdin?: boolean }, json: boolean): Promise<string> {
  if (o.password !== undefined && o.passwordStdin) fail('give --password or --password-stdin, not both', json);
  const password = o.passwordStdin ? await readStdin() : o.password;
  if (password === undefined) fail('a password is needed: --password-stdin (preferred: not in shell history) or --password', json);
  const problem = passwordProblem(password);
  if (problem) fail(problem, json);
  return password;
}

function inviteView(i: InviteRecord) {
  return {
    id: i.id,
    codePrefix: i.codePrefix,
    credits: i.credits,
    maxUses: i.maxUses,
    uses: i.uses,
    expiresAt: i.expiresAt === null ? null : new Date(i.expiresAt).toISOString(),
    disabled: i.disabled,
    createdAt: new Date(i.createdAt).toISOString(),
  };
}

function inviteLine(i: InviteRecord, now = Date.now()): string {
  const state = i.disabled ? 'disabled' : i.expiresAt !== null && i.expiresAt <= now ? 'expired' : i.uses >= i.maxUses ? 'used up' : 'open';
  const expiry = i.expiresAt === null ? 'no expiry' : `expires ${new Date(i.expiresAt).toISOString()}`;
  return `${i.id} ${i.codePrefix}-… ${i.credits} credits, ${i.uses}/${i.maxUses} used, ${expiry}, ${state}`;
}

// ---- a person's credentials -------------------------------------------------------------------------------

export interface Credentials {
  server: string;
  apiKey: string;
  keyId: string;
  name: string;
  email: string | null;
}

/** The server's public address: QUARRY_BASE_URL, else the one the last started server announced, else localhost. */
function publicBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.QUARRY_BASE_URL || lastServer(env)?.baseUrl || `http://localhost:${env.PORT || 8080}`;
  return base.replace(/\/+$/, '');
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.QUARRY_CONFIG_DIR) return path.resolve(env.QUARRY_CONFIG_DIR);
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'quarry');
  return path.join(os.homedir(), '.config', 'quarry');
}

const credentialsFile = () => path.join(configDir(), 'credentials.json');

/** Written owner-only (0600 in a 0700 directory), through a temporary file and a rename so it is never half there. */
function saveCredentials(c: Credentials): string {
  const dir = configDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  const file = credentialsFile();
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(c, null, 2) + '\n', { mode: 0o600, flag: 'w' });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

function loadCredentials(): Credentials | null {
  let text: string;
  try {
    text = fs.readFileSync(credentialsFile(), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  const c = JSON.parse(text) as Credentials;
  if (typeof c.server !== 'string' || typeof c.apiKey !== 'string' || typeof c.keyId !== 'string') {
    throw new Error(`${credentialsFile()} is not a Quarry credentials file; delete it and run quarry login`);
  }
  return c;
}

interface ApiAnswer {
  status: number;
  body: { success?: boolean; data?: any; error?: { code: string; message: string; retryable?: boolean; retryAfterSeconds?: number } };
}

async function api(server: string, method: string, route: string, o: { body?: unknown; key?: string } = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.body !== undefined) headers['content-type'] = 'application/json';
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  const res = await fetch(server + route, {
    method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: { error: { code: 'notQuarry', message: `the server answered ${res.status} without a Quarry envelope` } } };
  }
}

function serverUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new InvalidArgumentError('--server must be an address such as https://quarry.example.com');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new InvalidArgumentError('--server must be an http(s) address');
  return u.origin + trimEndOf(u.pathname, '/');
}

/** Opens the address in a browser when there is a screen to show it on; never fails for lack of one. */
function openBrowser(url: string): boolean {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : process.env.DISPLAY || process.env.WAYLAND_DISPLAY ? 'xdg-open' : null;
  if (!command) return false;
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- commands ---------------------------------------------------------------------------------------------

export function registerAccountSideCommands(program: Command): void {
  const users = program.command('users').description('people who sign in to the dashboard');
  users
    .command('create')
    .description('create a person who signs in with e-mail and password, in an account or a new one')
    .requiredOption('--email <email>', 'their e-mail address (their sign-in name)')
    .option('--password <password>', 'the password (prefer --password-stdin: it stays out of shell history)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--account <id>', 'the account they belong to')
    .option('--new-account', 'create an account (with its default key) for them')
    .option('--credits <n>', 'starting balance of the new account', wholeNumber('--credits', 0), 0)
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; password?: string; passwordStdin?: boolean; account?: string; newAccount?: boolean; credits: number; json?: boolean }) => {
      const json = !!o.json;
      if (!!o.account === !!o.newAccount) fail('give exactly one of --account <id> and --new-account', json);
      const email = normaliseEmail(o.email);
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) fail('--email must be an e-mail address', json);
      const password = await passwordFrom(o, json);
      const r = await withData(async ({ store, side, accounts }) => {
        if (await side.userByEmail(email)) return { error: `a person with e-mail ${email} exists already` };
        const passwordHash = await hashPassword(password);
        let accountId = o.account;
        let created: Awaited<ReturnType<Accounts['createAccount']>> | undefined;
        if (accountId) {
          if (!(await store.getAccount(accountId))) return { error: `no account with id ${accountId}` };
        } else {
          created = await accounts.createAccount({ credits: o.credits, email });
          accountId = created.accountId;
        }
        const userId = newId('usr');
        if ((await side.createUser({ id: userId, accountId, email, passwordHash })) === 'emailTaken') {
          if (created) await store.revokeKey(created.keyId);
          return { error: `a person with e-mail ${email} exists already` };
        }
        return { userId, accountId, email, ...(created ? { keyId: created.keyId, apiKey: created.apiKey, credits: created.credits } : {}) };
      });
      if ('error' in r) fail(r.error!, json);
      const human = [`person ${r.userId} <${r.email}> in account ${r.accountId}`];
      if (r.apiKey) human.push(`new account with ${r.credits} credits; default key ${r.keyId}: ${r.apiKey}`, '(store the key now; it is shown once here)');
      print(json, r, human.join('\n'));
    });

  users
    .command('list')
    .description('every person, with their account')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const list = await withData(({ side }) => side.listUsers());
      const view = list.map((u) => ({ id: u.id, email: u.email, accountId: u.accountId, createdAt: new Date(u.createdAt).toISOString() }));
      print(!!o.json, { users: view }, view.length ? view.map((u) => `${u.id} <${u.email}> account ${u.accountId}`).join('\n') : 'no people yet');
    });

  users
    .command('reset-password')
    .description("set a person's password and end every session they have")
    .requiredOption('--email <email>', 'their e-mail address')
    .option('--password <password>', 'the new password (prefer --password-stdin)')
    .option('--password-stdin', 'read the new password from standard input')
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; password?: string; passwordStdin?: boolean; json?: boolean }) => {
      const json = !!o.json;
      const email = normaliseEmail(o.email);
      const password = await passwordFrom(o, json);
      const r = await withData(async ({ side }) => {
        const user = await side.userByEmail(email);
        if (!user) return null;
        await side.setPassword(user.id, await hashPassword(password));
        return { userId: user.id, email, sessionsEnded: await side.deleteUserSessions(user.id) };
      });
      if (!r) fail(`no person with e-mail ${email}`, json);
      print(json, r, `password of ${email} changed; ${r.sessionsEnded} session(s) ended`);
    });

  const invites = program.command('invites').description('invite codes people sign up with');
  invites
    .command('create')
    .description('create an invite code (shown once: only its hash is kept)')
    .option('--credits <n>', 'credits the new account starts with', wholeNumber('--credits', 0), 0)
    .option('--uses <n>', 'how many people can sign up with it', wholeNumber('--uses', 1), 1)
    .option('--expires <when>', 'a duration (30m, 12h, 7d, 2w) or an ISO date; none by default')
    .option('--json', 'print one JSON object')
    .action(async (o: { credits: number; uses: number; expires?: string; json?: boolean }) => {
      const expiresAt = o.expires === undefined ? null : parseExpiry(o.expires);
      const r = await withData(({ side, crypto }) => createInvite(side, crypto, { credits: o.credits, maxUses: o.uses, expiresAt }));
      const signupUrl = `${publicBaseUrl()}/dashboard/signup?invite=${encodeURIComponent(r.code)}`;
      print(
        !!o.json,
        { code: r.code, signupUrl, ...inviteView(r.invite) },
        `invite ${r.invite.id}: ${r.code}\n${inviteLine(r.invite)}\nsign-up address to send: ${signupUrl}\n(copy the code now; it is shown once here)`,
      );
    });

  invites
    .command('list')
    .description('every invite (codes are not shown again, only their first characters)')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const list = await withData(({ side }) => side.listInvites());
      print(!!o.json, { invites: list.map(inviteView) }, list.length ? list.map((i) => inviteLine(i)).join('\n') : 'no invites yet');
    });

  for (const disabled of [true, false]) {
    invites
      .command(`${disabled ? 'disable' : 'enable'} <codeOrId>`)
      .description(disabled ? 'stop an invite from being used (inviteDisabled)' : 'let a disabled invite be used again')
      .option('--json', 'print one JSON object')
      .action(async (codeOrId: string, o: { json?: boolean }) => {
        const r = await withData(async ({ side, crypto }) => {
          const invite = await findInvite(side, crypto, codeOrId);
          if (!invite) return null;
          await side.setInviteDisabled(invite.id, disabled);
          return (await side.inviteById(invite.id))!;
        });
        if (!r) fail(`no invite ${codeOrId}`, !!o.json);
        print(!!o.json, inviteView(r), `invite ${r.id} ${disabled ? 'disabled' : 'enabled'}`);
      });
  }

  program
    .command('login')
    .description('sign this computer in: approve in the dashboard, get a key of your own saved in your config directory')
    .requiredOption('--server <url>', 'the Quarry server, e.g. https://quarry.example.com', serverUrl)
    .option('--name <name>', 'name of the key this login creates', `cli-${os.hostname()}`.slice(0, 50))
    .option('--no-browser', 'only print the approval address')
    .option('--json', 'print one JSON object at the end (the address still goes to stderr)')
    .action(async (o: { server: string; name: string; browser: boolean; json?: boolean }) => {
      const json = !!o.json;
      const verifier = newVerifier();
      let started: ApiAnswer;
      try {
        started = await api(o.server, 'POST', '/v1/cli/sessions', {
          body: { codeChallenge: s256(verifier), codeChallengeMethod: 'S256', name: o.name },
        });
      } catch (e) {
        fail(`cannot reach ${o.server}: ${(e as Error).message}`, json);
      }
      if (started.status !== 200) fail(`${o.server} refused the login: ${started.body.error?.message ?? started.status}`, json);
      const { sessionId, approvalUrl, expiresAt, pollIntervalSeconds } = started.body.data as {
        sessionId: string;
        approvalUrl: string;
        expiresAt: string;
        pollIntervalSeconds: number;
      };
      const out = json ? process.stderr : process.stdout;
      out.write(`To sign in, open this address, sign in if asked and approve "${o.name}":\n\n  ${approvalUrl}\n\n`);
      out.write(`Approve only if the page shows the code ${cliVerificationCode(s256(verifier))}.\n`);
      if (o.browser && openBrowser(approvalUrl)) out.write('(opened in your browser)\n');
      out.write(`Waiting for approval (until ${new Date(expiresAt).toLocaleTimeString()})…\n`);
      const deadline = Date.parse(expiresAt);
      const interval = Math.max(1, pollIntervalSeconds) * 1000;
      for (;;) {
        await sleep(interval);
        let r: ApiAnswer;
        try {
          r = await api(o.server, 'POST', `/v1/cli/sessions/${encodeURIComponent(sessionId)}/token`, { body: { codeVerifier: verifier } });
        } catch (e) {
          if (Date.now() > deadline) fail(`cannot reach ${o.server}: ${(e as Error).message}`, json);
          continue; // a network blip while waiting: ask again
        }
        if (r.status === 200) {
          const d = r.body.data as { apiKey: string; keyId: string; name: string; accountId: string; email: string | null };
          const previous = loadCredentials();
          const file = saveCredentials({ server: o.server, apiKey: d.apiKey, keyId: d.keyId, name: d.name, email: d.email });
          // The key this login replaces would otherwise stay valid with nobody holding it: it ends itself.
          if (previous && previous.keyId !== d.keyId) {
            await api(previous.server, 'POST', `/v1/account/keys/${encodeURIComponent(previous.keyId)}/revoke`, { key: previous.apiKey, body: {} }).catch(() => {});
          }
          print(json, { server: o.server, keyId: d.keyId, name: d.name, accountId: d.accountId, email: d.email, credentials: file }, `Signed in${d.email ? ` as ${d.email}` : ''}: key "${d.name}" (${d.keyId}) saved to ${file}`);
          return;
        }
        const err = r.body.error;
        if (err?.code === 'invalidCliSession' && err.retryable && Date.now() < deadline) continue;
        if (err?.code === 'rateLimited' && Date.now() < deadline) {
          await sleep((err.retryAfterSeconds ?? 1) * 1000);
          continue;
        }
        fail(err ? `${err.code}: ${err.message}` : `the server answered ${r.status}`, json);
      }
    });

  program
    .command('whoami')
    .description('who the saved key signs in as, checked with the server')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const json = !!o.json;
      const c = loadCredentials();
      if (!c) fail('not signed in: run quarry login --server URL', json);
      let r: ApiAnswer;
      try {
        r = await api(c.server, 'GET', '/v1/account', { key: c.apiKey });
      } catch (e) {
        fail(`cannot reach ${c.server}: ${(e as Error).message}`, json);
      }
      if (r.status === 401) fail(`the saved key ${c.keyId} no longer works on ${c.server} (revoked?); run quarry login again`, json);
      if (r.status !== 200) fail(r.body.error?.message ?? `the server answered ${r.status}`, json);
      const a = r.body.data as { id: string; email: string | null; balance: number };
      const email = a.email ?? c.email;
      print(
        json,
        { server: c.server, accountId: a.id, email, balance: a.balance, keyId: c.keyId, keyName: c.name },
        `${email ?? 'account'} (account ${a.id}) on ${c.server}\nbalance ${a.balance} credits; key "${c.name}" (${c.keyId})`,
      );
    });

  program
    .command('logout')
    .description('revoke the saved key on the server (when reachable) and delete it here')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const json = !!o.json;
      const c = loadCredentials();
      if (!c) {
        print(json, { signedOut: false }, 'not signed in; nothing to do');
        return;
      }
      let revoked = false;
      let note = '';
      try {
        const r = await api(c.server, 'POST', `/v1/account/keys/${encodeURIComponent(c.keyId)}/revoke`, { key: c.apiKey, body: {} });
        revoked = r.status === 200 || r.status === 401; // 401: it no longer works anyway
        if (!revoked) note = r.body.error?.message ?? `the server answered ${r.status}`;
      } catch (e) {
        note = `cannot reach ${c.server}: ${(e as Error).message}`;
      }
      fs.rmSync(credentialsFile(), { force: true });
      const human = revoked
        ? `signed out: key ${c.keyId} revoked and deleted from this computer`
        : `signed out here; the key ${c.keyId} could not be revoked (${note}): revoke it in the dashboard`;
      print(json, { signedOut: true, keyId: c.keyId, revoked, ...(note ? { note } : {}) }, human);
    });
}
