/**
 * Issue 30.2 and 30.6 (log flushing): an API key in a request path never reaches a log line or an error body,
 * whatever its spelling (the router decodes percent-escapes, so `/v1/%6Dcp/%71ry_…` is the MCP path with a key),
 * and access-log lines reach stdout within a short time, so a SIGKILL loses at most that much.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOG_FLUSH_MS } from '../../src/server/logger.js';
import { get, startGateway, type TestGateway } from '../helpers/gateway.js';
import { exited, startServerProcess } from '../scale/helpers.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
});

/** One request with its request-target sent byte for byte (fetch would normalise some spellings). */
function raw(base: string, method: string, target: string): Promise<{ status: number; body: string; reqId: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: target,
        headers: method === 'POST' ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } : {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body, reqId: String(res.headers['x-request-id'] ?? '') }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? INITIALIZE : undefined);
  });
}

const pct = (c: string, lower = false) => {
  const h = c.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${lower ? h : h.toUpperCase()}`;
};
const encodeAll = (s: string, lower = false) => [...s].map((c) => pct(c, lower)).join('');

/** Every spelling of the MCP path with `key` in it that the probe tried, and more. */
function spellings(key: string): string[] {
  const rest = key.slice('qry_'.length);
  const keys = [
    key,
    `%71ry_${rest}`,
    `qry%5F${rest}`,
    `%71%72%79%5F${rest}`,
    encodeAll(key),
    encodeAll(key, true),
    `%2571ry_${rest}`, // encoded twice: the router decodes once, the log must not show it either
    `%25%37%31ry_${rest}`,
    `QRY_${rest}`,
  ];
  const prefixes = ['/v1/mcp/', '/v1/%6Dcp/', '/v1/m%63p/', '/v1/mc%70/', `/v1/${encodeAll('mcp')}/`, `/${encodeAll('v1')}/mcp/`, '/v1/%256Dcp/', '//v1/mcp/', '/v1//mcp/', '/V1/MCP/'];
  const suffixes = ['', '/', '/tools', '?x=1', ';x', '#frag', '%', '%zz', '%00'];
  const out: string[] = [];
  for (const p of prefixes) for (const k of keys) out.push(p + k);
  for (const s of suffixes) out.push(`/v1/%6Dcp/%71ry_${rest}${s}`, `/v1/mcp/${key}${s}`);
  out.push(`/v1/catalogue?apiKey=%71ry_${rest}`, `/v1/nope/%71ry_${rest}`, `/dashboard/%71ry_${rest}`);
  return out;
}

describe('a key in a request path (issue 30.2)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ QUARRY_RATE_LIMIT_PER_MINUTE: '100000', QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => gw.close());

  it('every encoding of every key-bearing path: no key in any log line or error body', async () => {
    const { accountId, apiKey } = await gw.accounts.createAccount({ credits: 5 });
    const { apiKey: testKey } = await gw.accounts.createKey({ accountId, test: true });
    const seen: { target: string; method: string; status: number; body: string; reqId: string }[] = [];
    for (const key of [apiKey, testKey]) {
      for (const target of spellings(key)) {
        for (const method of ['POST', 'GET', 'DELETE']) seen.push({ target, method, ...(await raw(gw.url, method, target)) });
      }
    }
    // The probe's own request works: the router decoded it to the MCP path and its key.
    const probe = seen.find((s) => s.method === 'POST' && s.target === `/v1/%6Dcp/%71ry_${apiKey.slice(4)}`)!;
    expect(probe.status, probe.body).toBe(200);
    expect(JSON.parse(probe.body).result.serverInfo.name).toBe('quarry');

    // Each routed request's access line is written once its response went out. (An address refused before routing,
    // a malformed escape, is answered with the rule only and has no access line.)
    const answered = seen.filter((s) => !s.body.includes('request: the address is not valid percent-encoding'));
    expect(answered.length).toBeGreaterThan(seen.length / 2);
    await vi.waitFor(() => {
      const logged = new Set(gw.logLines.map((l) => JSON.parse(l).reqId));
      expect(answered.filter((s) => !logged.has(s.reqId))).toEqual([]);
    });
    for (const key of [apiKey, testKey]) {
      const secret = key.slice('qry_'.length);
      for (const line of gw.logLines) expect(line, 'a key reached the log').not.toContain(secret);
      for (const s of seen) expect(s.body, `${s.method} ${s.target} echoed the key`).not.toContain(secret);
    }
    // The MCP lines name the route they matched, never the address they came with.
    const mcp = gw.logLines.map((l) => JSON.parse(l)).filter((o) => o.reqId === probe.reqId);
    expect(mcp).toEqual([expect.objectContaining({ method: 'POST', url: '/v1/mcp/:apiKey', status: 200 })]);
  });

  it('a path that matches no route is logged decoded and masked, and so is the 404 that names it', async () => {
    const key = 'qry_notakeybutlookslikeone0123456789';
    const r = await raw(gw.url, 'GET', `/v1/%256Dcp/%2571ry_${key.slice(4)}/x`);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body).error.message).toBe('No endpoint GET /v1/mcp/[redacted]/x; see GET /v1/catalogue.');
    await vi.waitFor(() => expect(gw.logLines.some((l) => JSON.parse(l).reqId === r.reqId)).toBe(true));
    const line = gw.logLines.map((l) => JSON.parse(l)).find((o) => o.reqId === r.reqId);
    expect(line.url).toBe('/v1/mcp/[redacted]/x');
    expect((await get(gw.url, `/v1/x/${key}`)).json.error.message).toBe('No endpoint GET /v1/x/qry_[redacted]; see GET /v1/catalogue.');
  });
});

describe.skipIf(process.platform === 'win32')('access-log lines and SIGKILL (issue 30.6)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-logflush-'));
  let server: { proc: ChildProcess; url: string } | undefined;
  afterAll(async () => {
    if (server && server.proc.exitCode === null && server.proc.signalCode === null) {
      server.proc.kill('SIGKILL');
      await exited(server.proc);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`a request's line is on stdout within ${LOG_FLUSH_MS} ms, though far from 4 KB of lines, so a SIGKILL after it loses nothing`, async () => {
    server = await startServerProcess({ QUARRY_DATA_DIR: dataDir });
    let out = '';
    server.proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const r = await get(server.url, '/v1/catalogue');
    expect(r.status).toBe(200);
    const reqId = r.headers.get('x-request-id')!;
    // One short line, nowhere near the 4 KB the writer gathers: it goes out on the flush timer.
    await vi.waitFor(() => expect(out).toContain(reqId), { timeout: 10 * LOG_FLUSH_MS, interval: 20 });
    server.proc.kill('SIGKILL');
    await exited(server.proc);
    const line = out.split('\n').find((l) => l.includes(reqId))!;
    expect(JSON.parse(line)).toMatchObject({ reqId, method: 'GET', url: '/v1/catalogue', status: 200 });
  }, 60_000); // a server process starts first
});
