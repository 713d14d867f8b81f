/**
 * A person's commands against a running server, over HTTP: `login --server URL`, `whoami`, `logout`. The login is
 * PKCE-style: a random verifier stays in this process, the server only ever sees its SHA-256 challenge until the
 * exchange, and the key it yields is saved owner-only in the config directory. Nothing here opens the server's data.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { cliVerificationCode, newVerifier, s256 } from '../identity/tokens.js';
import { configDir } from '../lib/data-dir.js';
import { trimEndOf } from '../lib/strings.js';
import { fail, print } from './common.js';

export interface Credentials {
  server: string;
  apiKey: string;
  keyId: string;
  name: string;
  email: string | null;
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


export function registerLoginCommands(program: Command): void {
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
