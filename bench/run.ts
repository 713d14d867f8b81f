/**
 * `npm run bench`: throughput and p99 of a paid cache-hit data call (key, validation, limits, billing, cache and
 * logging all on) against a bare Fastify hello-world route, in the same run. Each server is pinned to CPU 0, the
 * load generator (autocannon, another process) to CPU 1; rounds are interleaved and medians reported, the ratio as the
 * median of the rounds' own ratios.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedditUpstream, FORUM_DIR } from '../test/helpers/reddit-upstream.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 50;
const pinned = (cpu: number, cmd: string[]) => (spawnSync('taskset', ['-c', '0', 'true']).status === 0 ? ['taskset', '-c', String(cpu), ...cmd] : cmd);

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
  const proc = spawn(bin, args, { cwd: root, env: { ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  proc.stdout!.resume(); // logging stays on (as an operator runs it, into a pipe); its lines are read and dropped
  const url = `http://127.0.0.1:${port}`;
  await ready(proc, url, what);
  return { proc, url };
}

/** The bare Fastify server, which prints its address whatever the log level. */
function startBare(cmd: string[]): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const [bin, ...args] = cmd;
    const proc = spawn(bin, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /LISTENING (\S+)/.exec(buf);
      if (m) {
        proc.stdout!.removeAllListeners('data');
        proc.stdout!.resume();
        resolve({ proc, url: m[1] });
      }
    });
    proc.once('exit', (code) => reject(new Error(`bare server exited early (${code})`)));
  });
}

interface Load {
  rps: number;
  p99: number;
  non2xx: number;
}

/** autocannon in its own process on CPU 1; spawned asynchronously so this process keeps draining server logs. */
function load(
  url: string,
  opts: { method?: string; body?: string; headers?: Record<string, string> } = {},
  seconds = DURATION,
): Promise<Load> {
  const args = [path.join(root, 'node_modules/autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(seconds), '-j'];
  if (opts.method) args.push('-m', opts.method);
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}=${v}`);
  if (opts.body) args.push('-b', opts.body);
  args.push(url);
  const [bin, ...rest] = pinned(1, [process.execPath, ...args]);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (err += d));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon failed: ${err}`));
      const r = JSON.parse(out);
      resolve({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx + r.errors });
    });
  });
}

/** utime+stime of a process, in seconds (Linux); undefined elsewhere. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks; USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

async function measured(pid: number | undefined, run: () => Promise<Load>): Promise<Load & { cpu?: number }> {
  const before = cpuSeconds(pid);
  const r = await run();
  const after = cpuSeconds(pid);
  return { ...r, cpu: before === undefined || after === undefined ? undefined : (after - before) / DURATION };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!fs.existsSync(FORUM_DIR)) {
    console.log(`bench skipped: ${FORUM_DIR} (the recorded upstream responses) is not beside this clone`);
    return;
  }
  const upstream = await startRedditUpstream();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-'));
  const env = {
    QUARRY_DATA_DIR: dataDir,
    QUARRY_RATE_LIMIT_PER_MINUTE: '1000000000',
    QUARRY_REDDIT_PUBLIC_URL: upstream.url,
    QUARRY_REDDIT_OAUTH_URL: upstream.url,
    QUARRY_REDDIT_AUTH_URL: upstream.url,
    QUARRY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
  };
  const created = spawnSync(process.execPath, ['bin/quarry.js', 'accounts', 'create', '--credits', '1000000000', '--json'], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  const { apiKey } = JSON.parse(created.stdout);

  const bare = await startBare(pinned(0, [process.execPath, 'bench/bare-server.mjs']));
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=.bench'] : [];
  const quarry = await startQuarry(pinned(0, [process.execPath, ...profile, 'dist/server/main.js']), { ...process.env, ...env }, 'quarry');
  const body = JSON.stringify({ subforum: 'popular', limit: Number(process.env.BENCH_LIMIT ?? 1), tags: ['bench'] });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  const warm = await fetch(`${quarry.url}/v1/reddit/subforum`, { method: 'POST', headers, body });
  if (warm.status !== 200) throw new Error(`warm-up call failed: ${warm.status} ${await warm.text()}`);
  const hit = await fetch(`${quarry.url}/v1/reddit/subforum`, { method: 'POST', headers, body });
  if (hit.headers.get('x-cache') !== 'hit') throw new Error('second call was not a cache hit');

  // Warm-up (not counted): lets the JIT settle on both servers' hot paths.
  await load(`${bare.url}/hello`, {}, 2);
  await load(`${quarry.url}/v1/reddit/subforum`, { method: 'POST', body, headers }, 2);

  const bareRuns: (Load & { cpu?: number })[] = [];
  const validatedRuns: (Load & { cpu?: number })[] = [];
  const paidRuns: (Load & { cpu?: number })[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (process.env.BENCH_ONLY === 'paid') {
      paidRuns.push(await measured(quarry.proc.pid, () => load(`${quarry.url}/v1/reddit/subforum`, { method: 'POST', body, headers })));
      continue;
    }
    bareRuns.push(await measured(bare.proc.pid, () => load(`${bare.url}/hello`)));
    validatedRuns.push(
      await measured(bare.proc.pid, () => load(`${bare.url}/validated`, { method: 'POST', body, headers: { 'content-type': 'application/json' } })),
    );
    paidRuns.push(await measured(quarry.proc.pid, () => load(`${quarry.url}/v1/reddit/subforum`, { method: 'POST', body, headers })));
  }
  bare.proc.kill('SIGTERM');
  quarry.proc.kill('SIGTERM');
  await new Promise((r) => quarry.proc.once('exit', r));
  await upstream.close();

  const summary = (runs: (Load & { cpu?: number })[]) => {
    const rps = median(runs.map((r) => r.rps));
    const cpu = runs.every((r) => r.cpu !== undefined) ? median(runs.map((r) => r.cpu!)) : undefined;
    return { rps, p99: median(runs.map((r) => r.p99)), cpu, usPerReq: cpu === undefined ? undefined : (cpu * 1e6) / rps };
  };
  if (process.env.BENCH_ONLY === 'paid') {
    const p = summary(paidRuns);
    console.log(`paid only: rps ${p.rps.toFixed(0)} p99 ${p.p99} ms, ${p.usPerReq?.toFixed(0)} µs/request`);
    return;
  }
  const b = summary(bareRuns);
  const p = summary(paidRuns);
  const v = summary(validatedRuns);
  const cpuText = (x: { cpu?: number; usPerReq?: number }) =>
    x.cpu === undefined ? '' : `  server CPU ${(x.cpu * 100).toFixed(0)}%, ${x.usPerReq!.toFixed(0)} µs/request`;
  const failures = paidRuns.reduce((n, r) => n + r.non2xx, 0);
  console.log(`rounds ${ROUNDS} x ${DURATION}s, ${CONNECTIONS} connections, server on CPU 0, autocannon on CPU 1`);
  console.log(`bare fastify GET /hello            rps ${b.rps.toFixed(0).padStart(7)}  p99 ${b.p99} ms   runs ${bareRuns.map((r) => r.rps.toFixed(0)).join(', ')}${cpuText(b)}`);
  console.log(`fastify validated POST, 2 KB JSON  rps ${v.rps.toFixed(0).padStart(7)}  p99 ${v.p99} ms   runs ${validatedRuns.map((r) => r.rps.toFixed(0)).join(', ')}${cpuText(v)}`);
  console.log(`paid cache-hit POST reddit.subforum rps ${p.rps.toFixed(0).padStart(7)}  p99 ${p.p99} ms   runs ${paidRuns.map((r) => r.rps.toFixed(0)).join(', ')}  non-2xx ${failures}${cpuText(p)}`);
  // Each round's ratio is taken between runs seconds apart, so the machine's drift (this VM's speed wanders by tens
  // of percent over minutes) cancels within a round; the median over rounds is the figure.
  const perRound = paidRuns.map((r, i) => r.rps / bareRuns[i].rps);
  const ratio = median(perRound);
  console.log(
    `ratio paid/bare ${ratio.toFixed(3)} (median of the rounds' ratios ${perRound.map((x) => x.toFixed(3)).join(', ')}; goal >= 0.4: ${ratio >= 0.4 ? 'met' : 'missed'}); validated-POST/bare ${median(validatedRuns.map((r, i) => r.rps / bareRuns[i].rps)).toFixed(3)}; p99 goal < 50 ms: ${p.p99 < 50 ? 'met' : 'missed'}`,
  );
  fs.rmSync(dataDir, { recursive: true, force: true });
  await scaleOut();
}

/**
 * Scale-out section: cache-hit throughput of `quarry serve --workers 1|2|4` on PostgreSQL + Redis against the
 * embedded mode (one process), in the same run and on the same unpinned CPUs (workers and autocannon share the
 * machine's cores, so read the figures relative to each other). Runs only when QUARRY_TEST_DATABASE_URL and
 * QUARRY_TEST_REDIS_URL are set (the same variables as the test suite).
 */
async function scaleOut() {
  const dbUrl = process.env.QUARRY_TEST_DATABASE_URL;
  const redisUrl = process.env.QUARRY_TEST_REDIS_URL;
  if (!dbUrl || !redisUrl) {
    console.log('scale-out bench skipped: set QUARRY_TEST_DATABASE_URL and QUARRY_TEST_REDIS_URL (PostgreSQL + Redis) to compare 1, 2 and 4 workers with the embedded mode');
    return;
  }
  const upstream = await startRedditUpstream();
  const id = `bench_${Date.now()}`;
  const u = new URL(dbUrl);
  u.searchParams.set('schema', id);
  const base = {
    QUARRY_RATE_LIMIT_PER_MINUTE: '1000000000',
    QUARRY_REDDIT_PUBLIC_URL: upstream.url,
    QUARRY_SECRET: randomBytes(32).toString('hex'),
    QUARRY_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
  };
  const embeddedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-emb-'));
  const setups: { name: string; workers: number; env: Record<string, string> }[] = [
    { name: 'embedded (SQLite + memory), 1 process', workers: 1, env: { ...base, QUARRY_DATA_DIR: embeddedDir } },
    ...[1, 2, 4].map((workers) => ({
      name: `PostgreSQL + Redis, ${workers} worker${workers > 1 ? 's' : ''}`,
      workers,
      env: { ...base, QUARRY_DATA_DIR: embeddedDir + '-pg', QUARRY_DATABASE_URL: u.toString(), QUARRY_REDIS_URL: redisUrl, QUARRY_REDIS_PREFIX: `${id}:` },
    })),
  ];
  const clean = (env: Record<string, string>) => {
    const e: Record<string, string | undefined> = { ...process.env, ...env };
    if (!env.QUARRY_DATABASE_URL) delete e.QUARRY_DATABASE_URL;
    if (!env.QUARRY_REDIS_URL) delete e.QUARRY_REDIS_URL;
    return e;
  };
  const keys = new Map<string, string>();
  for (const s of setups) {
    const mode = s.env.QUARRY_DATABASE_URL ? 'pg' : 'embedded';
    if (keys.has(mode)) continue;
    const created = spawnSync(process.execPath, ['bin/quarry.js', 'accounts', 'create', '--credits', '1000000000', '--json'], {
      cwd: root,
      env: clean(s.env),
      encoding: 'utf8',
    });
    keys.set(mode, JSON.parse(created.stdout).apiKey);
  }
  const body = JSON.stringify({ subforum: 'popular', limit: Number(process.env.BENCH_LIMIT ?? 1), tags: ['bench'] });
  const rows: string[] = [];
  for (const s of setups) {
    // Ready once one worker answers: the others join while the warm-up load runs.
    const { proc, url } = await startQuarry([process.execPath, 'bin/quarry.js', 'serve', '--workers', String(s.workers)], clean(s.env), s.name);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${keys.get(s.env.QUARRY_DATABASE_URL ? 'pg' : 'embedded')}` };
    for (let i = 0; i < 2; i++) await fetch(`${url}/v1/reddit/subforum`, { method: 'POST', headers, body }).then((r) => r.text());
    await load(`${url}/v1/reddit/subforum`, { method: 'POST', body, headers }, 2);
    const runs: Load[] = [];
    for (let i = 0; i < ROUNDS; i++) runs.push(await load(`${url}/v1/reddit/subforum`, { method: 'POST', body, headers }));
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    const failures = runs.reduce((n, r) => n + r.non2xx, 0);
    rows.push(
      `${s.name.padEnd(40)} rps ${median(runs.map((r) => r.rps)).toFixed(0).padStart(7)}  p99 ${median(runs.map((r) => r.p99))} ms   runs ${runs.map((r) => r.rps.toFixed(0)).join(', ')}  non-2xx ${failures}`,
    );
  }
  await upstream.close();
  fs.rmSync(embeddedDir, { recursive: true, force: true });
  fs.rmSync(embeddedDir + '-pg', { recursive: true, force: true });
  spawnSync('psql', [dbUrl, '-qc', `DROP SCHEMA IF EXISTS ${id} CASCADE`], { stdio: 'ignore' });
  console.log(`scale-out: paid cache-hit POST reddit.subforum, ${ROUNDS} x ${DURATION}s, ${CONNECTIONS} connections, unpinned on ${os.cpus().length} CPUs`);
  for (const r of rows) console.log(r);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
