/**
 * Issue 35.3: instances that fail loudly, and the credit holds of a dead instance.
 *
 * - With QUARRY_DATABASE_URL set and no QUARRY_SECRET, the server, `serve --workers` and the CLI refuse to start and
 *   say what to set and how to make it (always runs: the refusal comes before any connection).
 * - Two instances with the same secret both accept a key made by the CLI.
 * - A SIGKILLed instance's credit holds come back through its expired instance lease, long before their own expiry
 *   (QUARRY_RESERVATION_TTL_SECONDS, 300 s here), while the other instance keeps serving.
 *
 * No timed assertions: waits have deadlines far above what the mechanisms need, and process starts get minutes.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { get, post } from '../helpers/gateway.js';
import { FORUM_SKIP_REASON, HAVE_FORUM_RECORDINGS, startRedditUpstream, type RedditUpstream } from '../helpers/reddit-upstream.js';
import { SHARED_SKIP_REASON, sharedBackends } from '../helpers/shared-backends.js';
import { runNode } from '../helpers/child.js';
import { ROOT, accountMoney as money, exited, sleep, startServerProcess } from './helpers.js';

const SHARED = !SHARED_SKIP_REASON;
const START_MS = 180_000;

const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
const tempDirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-instances-'));
  tempDirs.push(d);
  return d;
};
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(children.map(exited));
  for (const c of cleanups.reverse()) await c().catch(() => {});
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Runs `args` (the CLI, or the server's main) in a child process with exactly `env` over a clean environment. */
function run(args: string[], env: Record<string, string>) {
  const clean: NodeJS.ProcessEnv = { ...process.env, QUARRY_LOG_LEVEL: 'silent', ...env };
  for (const k of ['QUARRY_SECRET', 'QUARRY_DATABASE_URL', 'QUARRY_REDIS_URL', 'QUARRY_REDIS_PREFIX']) if (!(k in env)) delete clean[k];
  return runNode(['--import', 'tsx', ...args], { cwd: ROOT, env: clean, track: (c) => children.push(c) });
}

describe('an instance on a shared database without QUARRY_SECRET', () => {
  // Nothing listens there: the refusal must come before any connection is tried.
  const env = () => ({ QUARRY_DATA_DIR: tempDir(), QUARRY_DATABASE_URL: 'postgres://quarry:quarry@127.0.0.1:9/quarry', HOST: '127.0.0.1', PORT: '0' });
  const says = (stderr: string) => {
    expect(stderr).toMatch(/QUARRY_DATABASE_URL is set but QUARRY_SECRET is not/);
    expect(stderr).toMatch(/openssl rand -hex 32/);
    expect(stderr).toMatch(/set QUARRY_SECRET to it for every instance and for the CLI/);
  };

  it('the server refuses to start and says what to set and how to make it', async () => {
    const e = env();
    const r = await run(['src/server/main.ts'], e);
    expect(r.code).toBe(1);
    says(r.stderr);
    expect(r.stdout).not.toMatch(/quarry listening/);
    expect(fs.existsSync(path.join(e.QUARRY_DATA_DIR, 'secret.key'))).toBe(false);
  }, START_MS);

  it('`serve --workers 2` refuses once, in the primary, before forking', async () => {
    const r = await run(['src/cli/main.ts', 'serve', '--workers', '2'], env());
    expect(r.code).toBe(1);
    says(r.stderr);
    expect(r.stderr).not.toMatch(/worker .* exited/);
  }, START_MS);

  it('the CLI refuses too, and makes no secret of its own', async () => {
    const e = env();
    const r = await run(['src/cli/main.ts', 'accounts', 'create', '--credits', '10', '--json'], e);
    expect(r.code).toBe(1);
    says(r.stderr);
    expect(fs.existsSync(path.join(e.QUARRY_DATA_DIR, 'secret.key'))).toBe(false);
  }, START_MS);
});

describe.skipIf(!SHARED || !HAVE_FORUM_RECORDINGS)(`instances on one PostgreSQL + Redis${SHARED_SKIP_REASON}${FORUM_SKIP_REASON}`, () => {
  let upstream: RedditUpstream;
  const base = async (extra: Record<string, string> = {}) => {
    upstream ??= await startRedditUpstream();
    const backends = await sharedBackends();
    cleanups.push(() => backends.drop());
    const env = {
      ...backends.env,
      QUARRY_SECRET: randomBytes(32).toString('hex'),
      QUARRY_REDDIT_PUBLIC_URL: upstream.url,
      QUARRY_RATE_LIMIT_PER_MINUTE: '1000000',
      QUARRY_MAX_IN_FLIGHT: '1000',
      ...extra,
    };
    return { env, schema: backends.schema! };
  };
  afterAll(async () => {
    await upstream?.close();
  });
  const start = async (env: Record<string, string>) => {
    const s = await startServerProcess({ QUARRY_DATA_DIR: tempDir(), QUARRY_LOG_LEVEL: 'info', ...env });
    children.push(s.proc);
    return s;
  };

  it('two instances with the same secret both accept a key made by the CLI (with its own data directory)', async () => {
    const { env } = await base();
    const [a, b] = await Promise.all([start(env), start(env)]);
    const made = await run(['src/cli/main.ts', 'accounts', 'create', '--credits', '10', '--json'], { ...env, QUARRY_DATA_DIR: tempDir() });
    expect(made.code, made.stderr).toBe(0);
    const { apiKey } = JSON.parse(made.stdout);
    for (const s of [a, b]) {
      const usage = await get(s.url, '/v1/usage', { key: apiKey });
      expect(usage.status, usage.text).toBe(200);
      const paid = await post(s.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 2 }, { key: apiKey });
      expect(paid.status, paid.text).toBe(200);
    }
    // A key made by one instance's own secret (another one) is refused by both: the secret really is what they share.
    const other = await run(['src/cli/main.ts', 'accounts', 'create', '--credits', '10', '--json'], {
      ...env,
      QUARRY_DATA_DIR: tempDir(),
      QUARRY_SECRET: randomBytes(32).toString('hex'),
    });
    expect(other.code, other.stderr).toBe(0);
    for (const s of [a, b]) expect((await get(s.url, '/v1/usage', { key: JSON.parse(other.stdout).apiKey })).status).toBe(401);
  }, START_MS);

  it("a SIGKILLed instance's holds come back through its lease (not their 300 s expiry) while the other keeps serving", async () => {
    const { env, schema } = await base({ QUARRY_RESERVATION_TTL_SECONDS: '300' });
    const [doomed, survivor] = await Promise.all([start(env), start(env)]);
    const made = await run(['src/cli/main.ts', 'accounts', 'create', '--credits', '1000', '--json'], env);
    const { accountId, apiKey } = JSON.parse(made.stdout);

    // Twenty live calls held on the doomed instance, its upstream answering slowly.
    upstream.delayMs = 30_000;
    const held = Array.from({ length: 20 }, (_, i) =>
      post(doomed.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 1 + i, maxAge: 0 }, { key: apiKey }).catch((e: unknown) => e),
    );
    for (const deadline = Date.now() + 60_000; (await money(schema, accountId)).heldCount < 20; await sleep(50)) {
      if (Date.now() > deadline) throw new Error('the calls never held their credits');
    }
    doomed.proc.kill('SIGKILL');
    await exited(doomed.proc);
    upstream.delayMs = 0;
    const killedAt = Date.now();
    for (const r of await Promise.all(held)) expect(r).toBeInstanceOf(Error); // the connections died with it
    const atKill = await money(schema, accountId);
    expect(atKill.heldCount).toBe(20);
    expect(atKill.balance + atKill.held).toBe(atKill.ledgerSum);

    // The survivor serves throughout, and its sweep gives the dead instance's holds back once its lease ran out.
    let served = 0;
    let releasedAfterMs: number | undefined;
    for (const deadline = killedAt + 120_000; releasedAfterMs === undefined; ) {
      // Inputs the dead instance was not fetching: its coalescing locks in Redis would hold identical misses back.
      const r = await post(survivor.url, '/v1/reddit/subforum', { subforum: 'golang', limit: 30 + (served % 50), maxAge: 0 }, { key: apiKey });
      expect(r.status, r.text).toBe(200);
      served++;
      if ((await money(schema, accountId)).heldCount === 0) releasedAfterMs = Date.now() - killedAt;
      else if (Date.now() > deadline) throw new Error('the dead instance holds were never released');
      else await sleep(250);
    }
    // 120 s is the deadline of a loaded machine; the lease (15 s) and the sweep (every 5 s) make it about 20 s, and in
    // any case far below the holds' own 300 s.
    console.log(`holds of the SIGKILLed instance released ${(releasedAfterMs / 1000).toFixed(1)} s after its death; ${served} calls served meanwhile`);
    const after = await money(schema, accountId);
    expect(after.held).toBe(0);
    expect(after.balance).toBe(after.ledgerSum);
    expect(after.charged).toBe(after.logged);
    expect(after.balance).toBe(1000 - after.charged); // the dead calls were charged nothing
    expect(after.calls).toBe(served);
  }, 300_000);
});
