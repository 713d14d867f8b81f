/**
 * Issue 38.7: the operator CLI works on the server's data, wherever it is run from, and says which data when that is
 * not the obvious one; `accounts list`, `keys list --account`, `--version`, examples in `--help`, `--export` lines
 * for `eval`, and the sign-up address in `invites create`. The real CLI from source as a child process, each run
 * with its own config directory (where the server records its data directory).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNode, type Finished } from '../helpers/child.js';
import { chooseDataDir, PACKAGE_ROOT, recordServer } from '../../src/lib/data-dir.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** tsx's loader by its address: the CLI runs from folders where `tsx` cannot be resolved by name. */
const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-cli-dir-'));
const serverData = path.join(tmp, 'server-data');
const configDir = path.join(tmp, 'config');
const elsewhere = path.join(tmp, 'elsewhere');

type Run = Finished;

/** The CLI from source, run from `cwd`, with no QUARRY_DATA_DIR unless given. */
function quarry(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, QUARRY_CONFIG_DIR: configDir, QUARRY_LOG_LEVEL: 'silent' };
  for (const name of ['QUARRY_DATA_DIR', 'QUARRY_DATABASE_URL', 'QUARRY_SECRET', 'QUARRY_BASE_URL']) delete childEnv[name];
  Object.assign(childEnv, env);
  return runNode(['--import', TSX, path.join(ROOT, 'src/cli/main.ts'), ...args], { cwd, env: childEnv });
}

beforeAll(() => {
  fs.mkdirSync(elsewhere, { recursive: true });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the CLI finds the server\'s data directory', () => {
  it('with QUARRY_DATA_DIR it uses that, silently', () => {
    expect(chooseDataDir({ QUARRY_DATA_DIR: serverData, QUARRY_CONFIG_DIR: configDir }, elsewhere)).toEqual({ dir: serverData, note: null });
  });

  it('run from another folder, it works on the data directory the server recorded and says so', async () => {
    // The server records where its data is when it starts listening (src/server/main.ts).
    const created = await quarry(['accounts', 'create', '--credits', '5', '--json'], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(created.code, created.stderr).toBe(0);
    recordServer({ dataDir: serverData, baseUrl: 'https://quarry.example.com', pid: 1, startedAt: '2026-11-27T08:00:00.000Z', storage: 'sqlite' }, { QUARRY_CONFIG_DIR: configDir });

    const list = await quarry(['accounts', 'list', '--json'], elsewhere);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json.accounts.map((a: any) => a.id)).toEqual([created.json.accountId]);
    expect(list.json.accounts[0]).toMatchObject({ balance: 5, keys: 1, revokedKeys: 0 });
    expect(list.stderr).toBe(`quarry: using ${serverData}, the data directory of the server started at 2026-11-27T08:00:00.000Z (set QUARRY_DATA_DIR to choose another)\n`);
    expect(fs.existsSync(path.join(elsewhere, 'data'))).toBe(false); // no stray database where it was run
  });

  it('with no server recorded and no database anywhere, it says loudly where it creates one (the package folder, as npm start)', () => {
    const choice = chooseDataDir({ QUARRY_CONFIG_DIR: path.join(tmp, 'no-config') }, elsewhere);
    if (fs.existsSync(path.join(PACKAGE_ROOT, 'data', 'quarry.db'))) {
      expect(choice.dir).toBe(path.join(PACKAGE_ROOT, 'data')); // a developer's checkout that has run npm start
      expect(choice.note).toContain('the data directory of npm start');
    } else {
      expect(choice).toEqual({ dir: path.join(PACKAGE_ROOT, 'data'), note: expect.stringContaining('no database yet: creating one in') });
    }
  });
});

describe('commands for people at a terminal', () => {
  it('--version prints the version; --help ends with examples', async () => {
    const v = await quarry(['--version'], elsewhere);
    expect(v.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    const help = await quarry(['--help'], elsewhere);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('eval "$(npx quarry accounts create --credits 1000 --export)"');
  });

  it('accounts create --export and keys create --test --export print lines eval can take', async () => {
    const acct = await quarry(['accounts', 'create', '--credits', '3', '--export'], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(acct.code, acct.stderr).toBe(0);
    const vars = Object.fromEntries([...acct.stdout.matchAll(/^export (\w+)='([^']*)'$/gm)].map((m) => [m[1], m[2]]));
    expect(Object.keys(vars).sort()).toEqual(['QUARRY_ACCOUNT', 'QUARRY_KEY']);
    expect(vars.QUARRY_KEY).toMatch(/^qry_/);
    expect(acct.stderr).toContain(`account ${vars.QUARRY_ACCOUNT} with 3 credits`);
    const key = await quarry(['keys', 'create', '--account', vars.QUARRY_ACCOUNT, '--test', '--export'], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(key.stdout).toMatch(/^export QUARRY_TEST_KEY='qry_test_[A-Za-z0-9_-]+'\n$/);

    const keys = await quarry(['keys', 'list', '--account', vars.QUARRY_ACCOUNT, '--json'], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.json.keys.map((k: any) => k.test)).toEqual([false, true]);
    expect(JSON.stringify(keys.json)).not.toContain(vars.QUARRY_KEY); // never a whole key
    const human = await quarry(['keys', 'list', '--account', vars.QUARRY_ACCOUNT], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(human.stdout.trim().split('\n')).toHaveLength(2);
    const none = await quarry(['keys', 'list', '--account', 'acct_nope', '--json'], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(none.code).toBe(1);
  });

  it('invites create prints the sign-up address to send, on the server\'s public address', async () => {
    const r = await quarry(['invites', 'create', '--credits', '10', '--json'], elsewhere, { QUARRY_DATA_DIR: serverData, QUARRY_BASE_URL: 'https://api.example.org/' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.signupUrl).toBe(`https://api.example.org/dashboard/signup?invite=${encodeURIComponent(r.json.code)}`);
    const human = await quarry(['invites', 'create'], elsewhere, { QUARRY_DATA_DIR: serverData });
    expect(human.stdout).toMatch(/sign-up address to send: https:\/\/quarry\.example\.com\/dashboard\/signup\?invite=/); // the recorded server's
  });
});
