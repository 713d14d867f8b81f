/** Shared pieces of the scale-out tests: a private redis-server, a TCP proxy that can be cut, server processes. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminQuery } from '../helpers/shared-backends.js';

export const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const exited = (proc: ChildProcess) =>
  new Promise<void>((r) => (proc.exitCode !== null || proc.signalCode !== null ? r() : proc.once('exit', () => r())));

/** A redis-server of our own on a random loopback port (this test stops it; the shared one stays up). */
export async function startPrivateRedis(): Promise<{ url: string; port: number; stop(): Promise<void>; start(): Promise<void> }> {
  const port = await freePort();
  let proc: ChildProcess | undefined;
  const start = async () => {
    proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((r) => {
        const c = net.connect(port, '127.0.0.1', () => (c.destroy(), r(true)));
        c.once('error', () => r(false));
      });
      if (ok) return;
      await sleep(50);
    }
    throw new Error('private redis-server did not start');
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    async stop() {
      if (!proc) return;
      proc.kill('SIGKILL');
      await exited(proc);
      proc = undefined;
    },
  };
}

/**
 * A TCP proxy in front of PostgreSQL. `cut()` kills every open connection and refuses new ones (as a database that
 * went down); `restore()` lets connections through again (the database is back).
 */
export async function startTcpProxy(targetHost: string, targetPort: number): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) return client.destroy();
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      open = false;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore() {
      open = true;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Starts `src/server/main.ts` (or the CLI with `args`) in a child process; resolves with its address. */
export function startServerProcess(env: Record<string, string>, args: string[] = ['src/server/main.ts']): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', ...args], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /"address":"([^"]+)"/.exec(out);
      if (m) {
        proc.stdout!.off('data', onData);
        proc.stdout!.resume();
        resolve({ proc, url: m[1]! });
      }
    };
    proc.stdout!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`server exited before listening (${code}): ${out.slice(-500)}`)));
  });
}

/** An account's balance, holds, ledger and call log, read from its PostgreSQL schema. */
export async function accountMoney(schema: string, accountId: string) {
  const one = async (sql: string) => (await adminQuery(sql, [accountId], schema)).rows[0] as Record<string, number>;
  return {
    balance: (await one('SELECT balance AS v FROM accounts WHERE id = $1')).v!,
    held: (await one("SELECT coalesce(sum(amount), 0) AS v FROM reservations WHERE account_id = $1 AND state = 'held'")).v!,
    heldCount: (await one("SELECT count(*) AS v FROM reservations WHERE account_id = $1 AND state = 'held'")).v!,
    ledgerSum: (await one('SELECT coalesce(sum(delta), 0) AS v FROM ledger WHERE account_id = $1')).v!,
    charged: (await one("SELECT coalesce(-sum(delta), 0) AS v FROM ledger WHERE account_id = $1 AND kind = 'charge'")).v!,
    charges: (await one("SELECT count(*) AS v FROM ledger WHERE account_id = $1 AND kind = 'charge'")).v!,
    logged: (await one('SELECT coalesce(sum(credits), 0) AS v FROM calls WHERE account_id = $1 AND NOT test')).v!,
    calls: (await one('SELECT count(*) AS v FROM calls WHERE account_id = $1 AND NOT test')).v!,
    testCalls: (await one('SELECT count(*) AS v FROM calls WHERE account_id = $1 AND test')).v!,
    unmatched: (
      await one("SELECT count(*) AS v FROM calls c WHERE c.account_id = $1 AND NOT c.test AND (SELECT count(*) FROM ledger l WHERE l.kind = 'charge' AND l.ref = c.id) <> 1")
    ).v!,
  };
}
