/**
 * `npm run bench`, the gateway part (bench/parse.ts measures document conversion).
 *
 * Paid cache hits against a bare Fastify server in the same run: a hello-world GET (the baseline every ratio is
 * taken against) and a schema-validated POST answering 2 KB; Quarry's paid hit of `reddit.subforum` with one item
 * and at the endpoint's default `limit` (`golang`, 25 posts, about 26 KB), with a live key and with a test key (key,
 * rate limit, validation, cache, billing or the test-call record, request log, JSON access log: all on). Each server is
 * pinned to CPU 0, the load generator (autocannon, its own process) to CPU 1; rounds are interleaved, and a row's
 * ratio is the median of its rounds' own ratios against the bare GET of the same round (runs seconds apart, so the
 * machine's drift cancels), given with their spread; beside it the same ratio by CPU time per request.
 *
 * Scale-out on PostgreSQL + Redis (when QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL are set): `quarry serve
 * --workers 1` and `--workers 2`, both running at once on one schema, the 26 KB paid hit for one hot account and
 * spread over 100 accounts, rounds interleaved; the ratio is 2 workers over 1 in the same round.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedditUpstream, FORUM_DIR } from '../test/helpers/reddit-upstream.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open.js';
import { Accounts } from '../src/identity/accounts.js';
import { keyCrypto, serverSecret } from '../src/identity/secret.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const ONLY = process.env.BENCH_ONLY; // 'gateway' or 'scale'
const CONNECTIONS = 50;
const SPREAD_ACCOUNTS = 100;
const canPin = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
const pinned = (cpus: string, cmd: string[]) => (canPin ? ['taskset', '-c', cpus, ...cmd] : cmd);

/** The paid calls measured: one item, and the endpoint's default limit (25 posts, about 26 KB answered). */
const ONE_ITEM = JSON.stringify({ subforum: 'popular', limit: 1, tags: ['bench'] });
const DEFAULT_LIMIT = JSON.stringify({ subforum: 'golang', tags: ['bench'] });

/** A free loopback port, so that a server is told its address instead of logging it (BENCH_LOG_LEVEL may silence it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });
}

/** Resolves once `${url}/readyz` answers 200 (the server's storage too), rejects when the process exits first. */
async function ready(proc: ChildProcess, url: string, what: string): Promise<void> {
  let exited: number | null | undefined;
  proc.once('exit', (code) => (exited = code));
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    if (exited !== undefined) throw new Error(`${what}: server exited early (${exited})`);
    const status = await fetch(`${url}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return;
  }
  throw new Error(`${what}: not ready after 60 s`);
}

/** Quarry's server run by `cmd` in `env` (the whole environment) on a free port, once ready. */
async function startQuarry(cmd: string[], env: Record<string, string | undefined>, what: string): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort();
  const [bin, ...args] = cmd;
  const proc = spawn(bin!, args, { cwd: root, env: { ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  proc.stdout!.resume(); // logging stays on (as an operator runs it, into a pipe); its lines are read and dropped
  const url = `http://127.0.0.1:${port}`;
  await ready(proc, url, what);
  return { proc, url };
}

/** The bare Fastify server, which prints its address whatever the log level. */
function startBare(cmd: string[]): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const [bin, ...args] = cmd;
    const proc = spawn(bin!, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /LISTENING (\S+)/.exec(buf);
      if (m) {
        proc.stdout!.removeAllListeners('data');
        proc.stdout!.resume();
        resolve({ proc, url: m[1]! });
      }
    });
    proc.once('exit', (code) => reject(new Error(`bare server exited early (${code})`)));
  });
}

interface Target {
  name: string;
  url: string;
  /** The server's processes, whose CPU time is counted (a `serve --workers` primary and its workers). */
  pids: () => number[];
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Sent in turn, one per request (as the authorization header). */
  keys?: string[];
}

interface Run {
  rps: number;
  p99: number;
  non2xx: number;
  /** Server CPU time over the run's length (1 = one core busy). */
  cpu?: number;
}

/** bench/load.mjs (autocannon) in its own process on CPU 1; spawned asynchronously so this process keeps draining server logs. */
function load(t: Target, seconds = DURATION): Promise<Run> {
  const opts = { url: t.url, connections: CONNECTIONS, seconds, method: t.method, body: t.body, headers: t.headers, keys: t.keys };
  const [bin, ...rest] = pinned('1', [process.execPath, path.join(root, 'bench/load.mjs'), JSON.stringify(opts)]);
  return new Promise((resolve, reject) => {
    const child = spawn(bin!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator failed: ${err}`))));
  });
}

/** utime+stime of a process, in seconds (Linux); undefined elsewhere. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks; USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** A process and its children (a `serve --workers` primary and its workers), Linux. */
function withChildren(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    const kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return [pid, ...kids.flatMap((k) => withChildren(k))];
  } catch {
    return [pid];
  }
}

async function measured(t: Target): Promise<Run> {
  const pids = t.pids();
  const before = pids.map(cpuSeconds);
  const r = await load(t);
  const after = pids.map(cpuSeconds);
  const ok = before.every((x) => x !== undefined) && after.every((x) => x !== undefined);
  return { ...r, cpu: ok ? after.reduce((s, a, i) => s + a! - before[i]!, 0) / DURATION : undefined };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;

function row(name: string, runs: Run[], extra = ''): string {
  const rps = median(runs.map((r) => r.rps));
  const cpu = runs.every((r) => r.cpu !== undefined) ? median(runs.map((r) => r.cpu!)) : undefined;
  const cpuText = cpu === undefined ? '' : `  CPU ${(cpu * 100).toFixed(0)}%, ${((cpu * 1e6) / rps).toFixed(0)} µs/req`;
  const failures = runs.reduce((n, r) => n + r.non2xx, 0);
  return `${name.padEnd(44)} rps ${rps.toFixed(0).padStart(6)}  p99 ${String(median(runs.map((r) => r.p99))).padStart(3)} ms${cpuText}  non-2xx ${failures}  runs ${runs.map((r) => r.rps.toFixed(0)).join(', ')}${extra}`;
}

/** The JSON a CLI command prints (`--json`), or an error with what it said. */
function cli(args: string[], env: Record<string, string | undefined>): any {
  const r = spawnSync(process.execPath, ['bin/quarry.js', ...args, '--json'], { cwd: root, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`quarry ${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A call that must be a cache hit after its first time: made twice, checked. */
async function warm(url: string, body: string, key: string): Promise<number> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  await fetch(`${url}/v1/reddit/subforum`, { method: 'POST', headers, body }).then((r) => r.text());
  const r = await fetch(`${url}/v1/reddit/subforum`, { method: 'POST', headers, body });
  const text = await r.text();
  if (r.status !== 200 || r.headers.get('x-cache') !== 'hit') throw new Error(`not a cache hit: ${r.status} ${r.headers.get('x-cache')} ${text.slice(0, 300)}`);
  return Buffer.byteLength(text);
}

async function gateway() {
  const upstream = await startRedditUpstream();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    QUARRY_DATA_DIR: dataDir,
    QUARRY_RATE_LIMIT_PER_MINUTE: '1000000000',
    QUARRY_REDDIT_PUBLIC_URL: upstream.url,
    QUARRY_REDDIT_OAUTH_URL: upstream.url,
    QUARRY_REDDIT_AUTH_URL: upstream.url,
    QUARRY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  };
  delete env.QUARRY_DATABASE_URL;
  delete env.QUARRY_REDIS_URL;
  const account = cli(['accounts', 'create', '--credits', '1000000000'], env);
  const testKey = cli(['keys', 'create', '--account', account.accountId, '--test'], env).apiKey as string;

  const bare = await startBare(pinned('0', [process.execPath, 'bench/bare-server.mjs']));
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=.bench'] : [];
  const quarry = await startQuarry(pinned('0', [process.execPath, ...profile, 'dist/server/main.js']), env, 'quarry');
  const sizes = [await warm(quarry.url, ONE_ITEM, account.apiKey), await warm(quarry.url, DEFAULT_LIMIT, account.apiKey), await warm(quarry.url, DEFAULT_LIMIT, testKey)];

  const paid = (name: string, body: string, key: string): Target => ({
    name,
    url: `${quarry.url}/v1/reddit/subforum`,
    pids: () => withChildren(quarry.proc.pid),
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  });
  const baseline: Target = { name: 'bare Fastify GET /hello', url: `${bare.url}/hello`, pids: () => withChildren(bare.proc.pid) };
  const targets: Target[] = [
    baseline,
    { name: 'bare Fastify validated POST, 2 KB', url: `${bare.url}/validated`, pids: baseline.pids, method: 'POST', body: ONE_ITEM, headers: { 'content-type': 'application/json' } },
    paid(`paid hit, 1 item (${sizes[0]} B), live key`, ONE_ITEM, account.apiKey),
    paid(`paid hit, 25 items (${sizes[1]} B), live key`, DEFAULT_LIMIT, account.apiKey),
    paid(`paid hit, 25 items (${sizes[2]} B), test key`, DEFAULT_LIMIT, testKey),
  ];

  // Warm-up (not counted): lets the JIT settle on both servers' hot paths.
  for (const t of targets) await load(t, 2);
  const runs = targets.map((): Run[] => []);
  for (let i = 0; i < ROUNDS; i++) for (const [j, t] of targets.entries()) runs[j]!.push(await measured(t));
  bare.proc.kill('SIGTERM');
  quarry.proc.kill('SIGTERM');
  await new Promise((r) => quarry.proc.once('exit', r));
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log(`gateway: ${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections, ${canPin ? 'servers on CPU 0, load on CPU 1' : 'unpinned (no taskset)'}`);
  const goals: string[] = [];
  for (const [j, t] of targets.entries()) {
    if (j === 0) {
      console.log(row(t.name, runs[0]!));
      continue;
    }
    const ratios = runs[j]!.map((r, i) => r.rps / runs[0]![i]!.rps);
    // CPU per request against the baseline's, round by round: the rate ratio two servers would show, each saturating
    // its core. On a shared machine the load generator often cannot saturate the bare server, and the rate ratio then
    // flatters Quarry; this one does not depend on it.
    const cpuRatios = runs[j]!.every((r, i) => r.cpu && runs[0]![i]!.cpu)
      ? runs[j]!.map((r, i) => runs[0]![i]!.cpu! / runs[0]![i]!.rps / (r.cpu! / r.rps))
      : undefined;
    const cpuText = cpuRatios ? `, by CPU ${median(cpuRatios).toFixed(3)} (rounds ${range(cpuRatios)})` : '';
    console.log(row(t.name, runs[j]!, `  ratio ${median(ratios).toFixed(3)} (rounds ${range(ratios)})${cpuText}`));
    if (t.name.includes('25 items')) {
      const p99 = median(runs[j]!.map((r) => r.p99));
      const worst = Math.min(median(ratios), cpuRatios ? median(cpuRatios) : Infinity);
      goals.push(`${t.name.split(', ').pop()}: ratio >= 0.3 ${worst >= 0.3 ? 'met' : 'missed'}, p99 < 20 ms ${p99 < 20 ? 'met' : 'missed'}`);
    }
  }
  console.log(`goals for the 25-item hit (the lower of the two ratios): ${goals.join('; ')}`);
}

/**
 * 1 and 2 workers on PostgreSQL + Redis, both started at once on one schema and measured in turn. On a 2-core
 * machine they cannot be pinned apart from the load: `--workers 1` (primary and worker) is pinned to CPU 0 and its
 * load to CPU 1, as in the gateway part; `--workers 2` has both CPUs and its load is still pinned to CPU 1, so its
 * second worker shares that core with the load generator. PostgreSQL and Redis are unpinned.
 */
async function scaleOut() {
  const dbUrl = process.env.QUARRY_TEST_DATABASE_URL;
  const redisUrl = process.env.QUARRY_TEST_REDIS_URL;
  if (!dbUrl || !redisUrl) {
    console.log('scale-out bench skipped: set QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL (PostgreSQL + Redis) to compare 1 and 2 workers');
    return;
  }
  const upstream = await startRedditUpstream();
  const id = `bench_${Date.now()}`;
  const u = new URL(dbUrl);
  u.searchParams.set('schema', id);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-pg-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    QUARRY_DATA_DIR: dataDir,
    QUARRY_RATE_LIMIT_PER_MINUTE: '1000000000',
    QUARRY_REDDIT_PUBLIC_URL: upstream.url,
    QUARRY_SECRET: randomBytes(32).toString('hex'),
    QUARRY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    QUARRY_DATABASE_URL: u.toString(),
    QUARRY_REDIS_URL: redisUrl,
    QUARRY_REDIS_PREFIX: `${id}:`,
  };
  // The accounts, made as the CLI makes them (same store, same secret): one hot, and 100 to spread the load over.
  const config = loadConfig(env);
  const store = openStore(config);
  const accounts = new Accounts(store, keyCrypto(serverSecret(config)));
  const hot = (await accounts.createAccount({ credits: 1_000_000_000 })).apiKey;
  const spread: string[] = [];
  for (let i = 0; i < SPREAD_ACCOUNTS; i++) spread.push((await accounts.createAccount({ credits: 1_000_000_000 })).apiKey);
  await store.close();

  const serve = (workers: number, cpus: string) =>
    startQuarry(pinned(cpus, [process.execPath, 'bin/quarry.js', 'serve', '--workers', String(workers)]), env, `${workers} worker(s)`);
  const servers = [await serve(1, '0'), await serve(2, '0,1')];
  // Both worker processes of --workers 2 must be answering before load (ready once one is): each account's first hit too.
  for (const s of servers) for (const k of [hot, ...spread]) await warm(s.url, DEFAULT_LIMIT, k);
  const target = (s: { proc: ChildProcess; url: string }, workers: number, keys: string[]): Target => ({
    name: `${workers} worker${workers > 1 ? 's' : ''}, ${keys.length > 1 ? `${keys.length} accounts` : 'one hot account'}`,
    url: `${s.url}/v1/reddit/subforum`,
    pids: () => withChildren(s.proc.pid),
    method: 'POST',
    body: DEFAULT_LIMIT,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[0]}` },
    keys,
  });
  const targets = [target(servers[0]!, 1, [hot]), target(servers[1]!, 2, [hot]), target(servers[0]!, 1, spread), target(servers[1]!, 2, spread)];
  for (const t of targets) await load(t, 2);
  const runs = targets.map((): Run[] => []);
  for (let i = 0; i < ROUNDS; i++) for (const [j, t] of targets.entries()) runs[j]!.push(await measured(t));
  for (const s of servers) s.proc.kill('SIGTERM');
  await Promise.all(servers.map((s) => new Promise((r) => (s.proc.exitCode === null ? s.proc.once('exit', r) : r(null)))));
  await upstream.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  spawnSync('psql', [dbUrl, '-qc', `DROP SCHEMA IF EXISTS ${id} CASCADE`], { stdio: 'ignore' });

  console.log(
    `scale-out: 26 KB paid hit on PostgreSQL + Redis, ${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections; ` +
      (canPin ? '--workers 1 on CPU 0, --workers 2 on CPUs 0-1, load on CPU 1, PostgreSQL and Redis unpinned' : 'unpinned (no taskset)'),
  );
  for (const [j, t] of targets.entries()) console.log(row(t.name, runs[j]!));
  for (const [one, two, what] of [[0, 1, 'one hot account'], [2, 3, `${SPREAD_ACCOUNTS} accounts`]] as const) {
    const ratios = runs[two]!.map((r, i) => r.rps / runs[one]![i]!.rps);
    console.log(`2 workers / 1 worker, ${what}: ${median(ratios).toFixed(2)} (rounds ${range(ratios)}; goal >= 1.5: ${median(ratios) >= 1.5 ? 'met' : 'missed'})`);
  }
}

async function main() {
  if (!fs.existsSync(FORUM_DIR)) {
    console.log(`bench skipped: ${FORUM_DIR} (the recorded upstream responses) is not beside this clone`);
    return;
  }
  if (ONLY !== 'scale') await gateway();
  if (ONLY !== 'gateway') await scaleOut();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
