/**
 * CONTRACT.md "Operator CLI" and "Keys", SPEC.md "Authentication": the real CLI as a child process, on its own data
 * directory and on the data directory of a running gateway ("works while the server runs, on the same data").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode, type Finished } from '../helpers/child.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** How long the bin/quarry.js test waits for `npm run build` before skipping itself. */
const BUILD_BUDGET_MS = 25_000;

type Run = Finished;

function childEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, QUARRY_DATA_DIR: dataDir, QUARRY_LOG_LEVEL: 'silent' };
  // The secret and storage must come from where the gateway under test reads them: the data directory, or the
  // PostgreSQL database the test helper put in the environment when the suite runs on the shared backends.
  // On PostgreSQL the gateway helper exported its schema and its QUARRY_SECRET, which the CLI then needs.
  if (!process.env.QUARRY_TEST_DATABASE_URL) delete env.QUARRY_SECRET;
  if (!process.env.QUARRY_TEST_DATABASE_URL) delete env.QUARRY_DATABASE_URL;
  return env;
}

function run(args: string[], dataDir: string): Promise<Run> {
  return runNode(args, { cwd: ROOT, env: childEnv(dataDir) });
}

/** The CLI from source, as `npx quarry` runs it after a build. */
const quarry = (dataDir: string, ...args: string[]) => run(['--import', 'tsx', 'src/cli/main.ts', ...args], dataDir);

function expectOk(r: Run): void {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.code).toBe(0);
}

/** `--json` prints exactly one JSON object on stdout. */
function expectOneJsonObject(r: Run): void {
  expect(r.stdout.trim().split('\n')).toHaveLength(1);
  expect(r.json).toBeTypeOf('object');
  expect(Array.isArray(r.json)).toBe(false);
}

const tempDirs: string[] = [];
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-cli-'));
  tempDirs.push(d);
  return d;
}

let build: { child: ChildProcess; done: Promise<number | null> } | undefined;
let dataDir: string;

beforeAll(() => {
  dataDir = tempDir();
  // `npm run build` runs in the background while the other tests run; only the bin/quarry.js test waits for it.
  // Its own process group, so a build that overruns can be stopped with its tsc child (and only those).
  const child = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore', detached: true });
  const done = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(-1));
    child.on('close', (code) => resolve(code));
  });
  build = { child, done };
});

afterAll(async () => {
  if (build) {
    const finished = await Promise.race([build.done.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20_000))]);
    if (!finished && build.child.pid !== undefined) {
      try {
        process.kill(-build.child.pid);
      } catch {
        build.child.kill();
      }
    }
  }
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
}, 30_000);

describe('Operator CLI', () => {
  // One account, built up command by command; `accounts show` at the end sees every change.
  let acct: any;
  let ci: any;
  let test: any;
  beforeAll(async () => {
    const r = await quarry(dataDir, 'accounts', 'create', '--credits', '50', '--email', 'a@b.c', '--json');
    expectOk(r);
    expectOneJsonObject(r);
    acct = r.json;
  });

  it('accounts create --credits N --email E --json prints accountId, keyId, apiKey (qry_) and credits', () => {
    expect(acct.accountId).toMatch(/^acct_[A-Za-z0-9_-]+$/);
    expect(acct.keyId).toMatch(/^key_[A-Za-z0-9_-]+$/);
    expect(acct.apiKey).toMatch(/^qry_[A-Za-z0-9_-]+$/);
    expect(acct.apiKey.startsWith('qry_test_')).toBe(false);
    expect(acct.credits).toBe(50);
  });

  it('keys create --account ID --name NAME --json prints keyId and apiKey; --test makes a qry_test_ key', async () => {
    const [named, testKey] = await Promise.all([
      quarry(dataDir, 'keys', 'create', '--account', acct.accountId, '--name', 'ci', '--json'),
      quarry(dataDir, 'keys', 'create', '--account', acct.accountId, '--test', '--json'),
    ]);
    expectOk(named);
    expectOneJsonObject(named);
    expect(named.json.keyId).toMatch(/^key_/);
    expect(named.json.apiKey).toMatch(/^qry_[A-Za-z0-9_-]+$/);
    expect(named.json.apiKey.startsWith('qry_test_')).toBe(false);
    expectOk(testKey);
    expectOneJsonObject(testKey);
    expect(testKey.json.apiKey).toMatch(/^qry_test_[A-Za-z0-9_-]+$/);
    ci = named.json;
    test = testKey.json;
  });

  it('keys revoke KEYID revokes the key', async () => {
    const r = await quarry(dataDir, 'keys', 'revoke', ci.keyId);
    expectOk(r);
    expect(r.stdout).toContain(ci.keyId);
  });

  it('credits add --account ID --amount N raises the balance', async () => {
    const r = await quarry(dataDir, 'credits', 'add', '--account', acct.accountId, '--amount', '25', '--json');
    expectOk(r);
    expectOneJsonObject(r);
    expect(r.json.balance).toBe(75);
  });

  it('accounts show ID --json prints the balance and keys (ids, names, prefixes), never a whole key', async () => {
    const r = await quarry(dataDir, 'accounts', 'show', acct.accountId, '--json');
    expectOk(r);
    expectOneJsonObject(r);
    expect(r.json.accountId).toBe(acct.accountId);
    expect(r.json.email).toBe('a@b.c');
    expect(r.json.balance).toBe(75);
    const keys = new Map<string, any>(r.json.keys.map((k: any) => [k.id, k]));
    expect([...keys.keys()].sort()).toEqual([acct.keyId, ci.keyId, test.keyId].sort());
    expect(keys.get(acct.keyId)).toMatchObject({ name: 'default', revoked: false });
    expect(keys.get(ci.keyId)).toMatchObject({ name: 'ci', revoked: true });
    expect(keys.get(test.keyId)).toMatchObject({ test: true, revoked: false });
    for (const [id, whole] of [[acct.keyId, acct.apiKey], [ci.keyId, ci.apiKey], [test.keyId, test.apiKey]]) {
      const prefix: string = keys.get(id).prefix;
      expect(prefix.startsWith('qry_')).toBe(true);
      expect(whole.startsWith(prefix)).toBe(true);
      expect(prefix.length).toBeLessThan(whole.length - 8);
      expect(r.stdout).not.toContain(whole);
    }
    expect(keys.get(test.keyId).prefix.startsWith('qry_test_')).toBe(true);
  });

  it('an unknown account (or key) exits with code 1 and a message', async () => {
    const runs = await Promise.all([
      quarry(dataDir, 'accounts', 'show', 'acct_nope', '--json'),
      quarry(dataDir, 'keys', 'create', '--account', 'acct_nope'),
      quarry(dataDir, 'credits', 'add', '--account', 'acct_nope', '--amount', '5'),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no account with id acct_nope/);
    }
    // With --json the failure is still one JSON object on stdout.
    expect(runs[0].json).toEqual({ error: 'no account with id acct_nope' });
  });

  it('--credits must be a whole number of at least 0: -3 and abc are rejected', async () => {
    const runs = await Promise.all([
      quarry(dataDir, 'accounts', 'create', '--credits', '-3', '--json'),
      quarry(dataDir, 'accounts', 'create', '--credits', 'abc', '--json'),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/--credits/);
      expect(r.stdout).not.toMatch(/apiKey/);
    }
  });
});

describe('works while the server runs, on the same data', () => {
  let gw: TestGateway;
  let acct: any;
  let ci: any;
  let test: any;
  beforeAll(async () => {
    gw = await startGateway();
    acct = (await quarry(gw.dataDir, 'accounts', 'create', '--credits', '50', '--json')).json;
    [ci, test] = (
      await Promise.all([
        quarry(gw.dataDir, 'keys', 'create', '--account', acct.accountId, '--name', 'ci', '--json'),
        quarry(gw.dataDir, 'keys', 'create', '--account', acct.accountId, '--test', '--json'),
      ])
    ).map((r) => r.json);
  });
  afterAll(() => gw.close());

  it('a key created by the CLI authenticates at once; after keys revoke the same key gets 401 unauthorized', async () => {
    for (const k of [acct.apiKey, ci.apiKey]) {
      const ok = await get(gw.url, '/v1/logs', { key: k });
      expect(ok.status).toBe(200);
      expect(ok.json.logs).toEqual([]);
    }

    expectOk(await quarry(gw.dataDir, 'keys', 'revoke', ci.keyId));
    const refused = await get(gw.url, '/v1/logs', { key: ci.apiKey });
    expect(refused.status).toBe(401);
    expect(refused.json.success).toBe(false);
    expect(refused.json.error.code).toBe('unauthorized');
    const call = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5 }, { key: ci.apiKey });
    expect(call.status).toBe(401);
    expect(call.json.error.code).toBe('unauthorized');

    // The account's other key is untouched.
    expect((await get(gw.url, '/v1/logs', { key: acct.apiKey })).status).toBe(200);
  });

  it('credits added by the CLI are visible to the server; a test-mode call leaves the balance untouched', async () => {
    expect(test.apiKey).toMatch(/^qry_test_/);
    const call = await post(gw.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 5 }, { key: test.apiKey });
    expect(call.status).toBe(200);
    expect(call.json.creditsUsed).toBe(2);

    const added = await quarry(gw.dataDir, 'credits', 'add', '--account', acct.accountId, '--amount', '25', '--json');
    expectOk(added);
    expect(added.json.balance).toBe(75);
    expect((await gw.gateway.deps.store.getAccount(acct.accountId))?.balance).toBe(75);

    const show = await quarry(gw.dataDir, 'accounts', 'show', acct.accountId, '--json');
    expectOk(show);
    expect(show.json.balance).toBe(75);

    // The server logged the CLI-created key's call against the CLI-created account.
    const logs = await get(gw.url, '/v1/logs', { key: test.apiKey });
    expect(logs.json.logs.map((l: any) => [l.id, l.apiKeyId])).toEqual([[call.json.requestId, test.keyId]]);
  });
});

describe('budgets from the CLI, while the server runs', () => {
  let gw: TestGateway;
  let acct: any;
  beforeAll(async () => {
    gw = await startGateway();
    acct = (await quarry(gw.dataDir, 'accounts', 'create', '--credits', '50', '--json')).json;
  });
  afterAll(() => gw.close());

  it('budgets set|list|delete: the server sees a budget at once (usage, quotes); bad specs exit 1 naming the rule', async () => {
    const set = await quarry(gw.dataDir, 'budgets', 'set', '--account', acct.accountId, '--tag', 'nightly', '--period', 'day', '--limit', '1', '--json');
    expectOk(set);
    expect(set.json).toMatchObject({ scope: 'tag', target: 'nightly', period: 'day', limitCredits: 1 });
    const usage = await get(gw.url, '/v1/usage', { key: acct.apiKey });
    expect(usage.json.data.budgets).toMatchObject([{ id: set.json.id, remainingCredits: 1 }]);
    const quote = await post(gw.url, '/v1/quote', { endpoint: 'reddit.subforum', input: { subforum: 'golang', tags: ['nightly'] } }, { key: acct.apiKey });
    expect(quote.json.data.canPay).toBe(false);

    const keyBudget = await quarry(gw.dataDir, 'budgets', 'set', '--account', acct.accountId, '--key', acct.keyId, '--period', 'month', '--limit', '100', '--json');
    expectOk(keyBudget);
    const list = await quarry(gw.dataDir, 'budgets', 'list', '--account', acct.accountId, '--json');
    expect(list.json.budgets.map((b: any) => [b.scope, b.period])).toEqual([['tag', 'day'], ['key', 'month']]);
    expectOk(await quarry(gw.dataDir, 'budgets', 'delete', set.json.id, '--account', acct.accountId, '--json'));
    expect((await quarry(gw.dataDir, 'budgets', 'list', '--account', acct.accountId, '--json')).json.budgets).toHaveLength(1);

    const both = await quarry(gw.dataDir, 'budgets', 'set', '--account', acct.accountId, '--key', acct.keyId, '--tag', 'x', '--period', 'day', '--limit', '1');
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/exactly one of --key or --tag/);
    const stranger = await quarry(gw.dataDir, 'budgets', 'set', '--account', acct.accountId, '--key', 'key_nope', '--period', 'day', '--limit', '1');
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toMatch(/target: no key key_nope in this account/);
    const period = await quarry(gw.dataDir, 'budgets', 'set', '--account', acct.accountId, '--tag', 'x', '--period', 'week', '--limit', '1');
    expect(period.stderr).toMatch(/period: must be "day" or "month"/);
  });
});

describe('npx quarry (bin/quarry.js, running dist/)', () => {
  it('bin/quarry.js runs the built CLI: accounts create and accounts show --json', async (ctx) => {
    const code = await Promise.race([build!.done, new Promise<'slow'>((r) => setTimeout(() => r('slow'), BUILD_BUDGET_MS))]);
    if (code === 'slow') ctx.skip(`npm run build took longer than ${BUILD_BUDGET_MS / 1000} s`);
    if (!fs.existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) ctx.skip(`npm run build produced no dist/cli/main.js (exit ${code})`);

    const dir = tempDir();
    const bin = (...args: string[]) => run([path.join('bin', 'quarry.js'), ...args], dir);
    const r = await bin('accounts', 'create', '--credits', '7', '--json');
    expectOk(r);
    expectOneJsonObject(r);
    expect(r.json).toMatchObject({ credits: 7 });
    expect(r.json.apiKey).toMatch(/^qry_/);
    const show = await bin('accounts', 'show', r.json.accountId, '--json');
    expectOk(show);
    expect(show.json.balance).toBe(7);
    expect(show.stdout).not.toContain(r.json.apiKey);
  }, BUILD_BUDGET_MS + 15_000);
});
