/**
 * Starts a real gateway on a loopback port with its own temporary data directory.
 *
 * Backends: embedded by default. With QUARRY_TEST_DATABASE_URL (postgres://…) every gateway gets a fresh
 * PostgreSQL schema (dropped at close), and with QUARRY_TEST_REDIS_URL (redis://…) its own Redis key prefix, so the
 * whole suite runs against PostgreSQL + Redis with each test isolated. See ./shared-backends.ts.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Accounts } from '../../src/identity/accounts.js';
import { loadConfig } from '../../src/config.js';
import { buildGateway, type Gateway } from '../../src/server/build.js';
import { PostgresStore } from '../../src/store/postgres/store.js';
import { attachSqliteView, sharedBackends, snapshotToSqlite } from './shared-backends.js';

export interface TestGateway {
  url: string;
  gateway: Gateway;
  accounts: Accounts;
  dataDir: string;
  logLines: string[];
  close(): Promise<void>;
}

export async function startGateway(env: Record<string, string> = {}): Promise<TestGateway> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-test-'));
  // A caller that passes its own QUARRY_DATABASE_URL / QUARRY_REDIS_URL (the scale tests) shares them on purpose.
  const backends = env.QUARRY_DATABASE_URL || env.QUARRY_REDIS_URL ? undefined : await sharedBackends();
  // A shared database needs QUARRY_SECRET (the server refuses to start without it): one per gateway unless given.
  const secret: Record<string, string> = (backends?.env.QUARRY_DATABASE_URL || env.QUARRY_DATABASE_URL) && !env.QUARRY_SECRET ? { QUARRY_SECRET: randomBytes(32).toString('hex') } : {};
  const config = loadConfig({ QUARRY_DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ...backends?.env, ...secret, ...env });
  // Child processes of this test (the operator CLI run "on the same data") must reach the same database: while the
  // gateway runs, this process's environment points at its schema, Redis prefix and secret too.
  const restoreEnv = exportEnv(backends ? { ...backends.env, ...secret } : {});
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const gateway = await buildGateway(config, { logStream });
  const store = gateway.deps.store;
  if (store instanceof PostgresStore) {
    // Tests written against the embedded store read its tables (store.db, or quarry.db after close): give them the
    // same view of the PostgreSQL schema.
    attachSqliteView(store);
    const closeGateway = gateway.close.bind(gateway);
    let snapshot: Promise<void> | undefined;
    gateway.close = () => (snapshot ??= closeGateway().then(() => snapshotToSqlite(store, path.join(dataDir, 'quarry.db'))));
  }
  const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const accounts = new Accounts(gateway.deps.store, gateway.deps.crypto);
  return {
    url: address,
    gateway,
    accounts,
    dataDir,
    logLines,
    async close() {
      await gateway.close();
      await backends?.drop();
      restoreEnv();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function exportEnv(vars: Record<string, string>): () => void {
  const saved = Object.keys(vars).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

export interface CallOptions {
  key?: string;
  headers?: Record<string, string>;
  query?: string;
  rawBody?: string;
}

export interface CallResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** POSTs a JSON body over real HTTP. */
export async function post(base: string, path: string, body: unknown, o: CallOptions = {}): Promise<CallResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  const res = await fetch(`${base}${path}${o.query ? `?${o.query}` : ''}`, {
    method: 'POST',
    headers,
    body: o.rawBody ?? JSON.stringify(body),
  });
  return toResponse(res);
}

export async function get(base: string, path: string, o: CallOptions = {}): Promise<CallResponse> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  return toResponse(await fetch(`${base}${path}`, { headers }));
}

/** Status, headers, text and the text parsed as JSON (undefined when it is not JSON). */
export async function toResponse(res: Response): Promise<CallResponse> {
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Deep search: true when any value in `v` is null, "", {} or []. */
export function hasEmptyValue(v: unknown): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0 || v.some(hasEmptyValue);
  if (typeof v === 'object') {
    const entries = Object.values(v as object);
    return entries.length === 0 || entries.some(hasEmptyValue);
  }
  return false;
}
