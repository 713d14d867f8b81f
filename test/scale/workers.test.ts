/**
 * `quarry serve --workers N` (node:cluster) and the operator CLI against a shared PostgreSQL. The refusal on the
 * embedded store always runs; the rest skips unless QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL are set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { get } from '../helpers/gateway.js';
import { SHARED_SKIP_REASON, sharedBackends, type Backends } from '../helpers/shared-backends.js';
import { ROOT, exited, freePort } from './helpers.js';

const tempDirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-workers-'));
  tempDirs.push(d);
  return d;
};
const children: ChildProcess[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const c of cleanups) await c().catch(() => {});
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const clean: NodeJS.ProcessEnv = { ...process.env, QUARRY_LOG_LEVEL: 'silent', ...env };
    if (!env.QUARRY_DATABASE_URL) delete clean.QUARRY_DATABASE_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: ROOT, env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('serve --workers on the embedded store', () => {
  it('refuses N > 1 with a clear message (one process owns the SQLite file)', async () => {
    const r = await cli(['serve', '--workers', '2'], { QUARRY_DATA_DIR: tempDir(), PORT: '0' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--workers 2 needs a shared database: set QUARRY_DATABASE_URL/);
  });
});

describe.skipIf(!!SHARED_SKIP_REASON)(`serve --workers and the CLI on PostgreSQL + Redis${SHARED_SKIP_REASON}`, () => {
  let backends: Backends;
  let env: Record<string, string>;

  it('3 workers share one port and one database; a key made by the CLI works at once and its revocation too', async () => {
    backends = await sharedBackends();
    cleanups.push(() => backends.drop());
    const port = await freePort();
    env = { ...backends.env, QUARRY_DATA_DIR: tempDir(), QUARRY_SECRET: randomBytes(32).toString('hex'), HOST: '127.0.0.1', PORT: String(port) };
    const acct = JSON.parse((await cli(['accounts', 'create', '--credits', '10', '--json'], env)).stdout);
    expect(acct.apiKey).toMatch(/^qry_/);

    const server = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--workers', '3'], {
      cwd: ROOT,
      env: { ...process.env, ...env, QUARRY_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(server);
    await new Promise<void>((resolve, reject) => {
      let n = 0;
      server.stdout!.on('data', (d: Buffer) => {
        n += (d.toString().match(/quarry listening/g) ?? []).length;
        if (n >= 3) resolve();
      });
      server.once('exit', (code) => reject(new Error(`serve --workers exited (${code})`)));
    });
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 12; i++) expect((await get(url, '/healthz')).status).toBe(200);

    const k = JSON.parse((await cli(['keys', 'create', '--account', acct.accountId, '--test', '--json'], env)).stdout);
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(url, '/v1/logs', { key: k.apiKey })));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect((await cli(['keys', 'revoke', k.keyId], env)).code).toBe(0);
    const refused = await Promise.all(Array.from({ length: 12 }, () => get(url, '/v1/logs', { key: k.apiKey })));
    expect(refused.map((r) => r.status)).toEqual(Array(12).fill(401)); // every worker heard of it (NOTIFY)

    expect((await cli(['credits', 'add', '--account', acct.accountId, '--amount', '5', '--json'], env)).code).toBe(0);
    const shown = JSON.parse((await cli(['accounts', 'show', acct.accountId, '--json'], env)).stdout);
    expect(shown.balance).toBe(15);
    expect((await get(url, '/v1/logs', { key: acct.apiKey })).status).toBe(200);

    server.kill('SIGTERM');
    await exited(server);
    expect(server.exitCode).toBe(0);
  }, 60_000);
});
