/**
 * Issue 38.2 and 38.4: the first run guides. The real server as a child process: at a terminal (a pseudo-terminal
 * made by util-linux `script`) it prints a banner whose addresses all answer; through a pipe it prints none; a taken
 * port is one sentence, not a stack trace. Over HTTP: a browser at `/` goes to the dashboard, an API client gets
 * the addresses; `/billing` is a page (the operator's note, or how credits are had here).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startGateway, type TestGateway } from '../helpers/gateway.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const HAVE_SCRIPT = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

interface Started {
  output: () => string;
  /** Resolves at the next output. */
  changed: () => Promise<void>;
  stop: () => Promise<number | null>;
  exited: Promise<number | null>;
}

/** The server from source; `tty` runs it under a pseudo-terminal. Resolves once `text` appears in its output. */
function startServer(env: Record<string, string>, tty: boolean): Started {
  const cmd = `${JSON.stringify(process.execPath)} --import tsx src/server/main.ts`;
  const child = tty
    ? spawn('script', ['-qfec', cmd, '/dev/null'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
    : spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiting: (() => void)[] = [];
  const take = (c: Buffer) => {
    out += c;
    for (const w of waiting.splice(0)) w();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return {
    output: () => out,
    changed: () => new Promise<void>((r) => waiting.push(r)),
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Waits for `text` in the output (by default the log line that says the server listens), or for the process to end. */
async function ready(s: Started, text: RegExp = /quarry listening/): Promise<void> {
  let done = false;
  void s.exited.then(() => (done = true));
  while (!done && !text.test(s.output())) await Promise.race([s.changed(), s.exited]);
}

function serverEnv(port: number, dataDir: string): Record<string, string> {
  return { PORT: String(port), HOST: '127.0.0.1', QUARRY_DATA_DIR: dataDir, QUARRY_CONFIG_DIR: path.join(dataDir, 'config'), QUARRY_LOG_LEVEL: 'info', QUARRY_BASE_URL: `http://127.0.0.1:${port}`, QUARRY_DATABASE_URL: '', QUARRY_REDIS_URL: '' };
}

describe('start-up', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-start-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it.skipIf(!HAVE_SCRIPT)('at a terminal: a banner naming the API, the dashboard, the docs and the next command, each address answering', async () => {
    const port = await freePort();
    const s = startServer(serverEnv(port, dataDir), true);
    try {
      await ready(s, /Stop with Ctrl-C/); // the banner's last line
      const out = s.output();
      expect(out).toContain('Quarry is running.');
      expect(out).toContain('npx quarry accounts create --credits 1000 --export');
      const base = `http://127.0.0.1:${port}`;
      for (const address of [`${base}/v1/catalogue`, `${base}/dashboard/`, `${base}/openapi.json`]) {
        expect(out).toContain(address);
        expect((await get(address, '')).status, address).toBe(200);
      }
    } finally {
      await s.stop();
    }
  }, 60_000);

  it('through a pipe (a service, a log collector): no banner, the JSON log lines only', async () => {
    const port = await freePort();
    const s = startServer(serverEnv(port, dataDir), false);
    await ready(s);
    await s.stop(); // all the output there is, the shutdown lines included
    expect(s.output()).toContain('shutting down');
    expect(s.output()).not.toContain('Quarry is running.');
    for (const line of s.output().trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
  }, 60_000);

  it('a port in use is one sentence naming the port and the way out, exit 1, no stack trace', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const s = startServer(serverEnv(port, dataDir), false);
      expect(await s.exited).toBe(1);
      const out = s.output();
      expect(out).toContain(`quarry: port ${port} is already in use`);
      expect(out).toContain(`PORT=${port + 1} npm start`);
      expect(out).not.toMatch(/\n\s+at /); // no stack frames
    } finally {
      blocker.close();
    }
  }, 60_000);

  it('a bad setting is one sentence too', async () => {
    const s = startServer({ ...serverEnv(await freePort(), dataDir), QUARRY_RATE_LIMIT_PER_MINUTE: 'lots' }, false);
    expect(await s.exited).toBe(1);
    expect(s.output().trim()).toBe('quarry: could not start: QUARRY_RATE_LIMIT_PER_MINUTE must be an integer of at least 1, got "lots"');
  }, 60_000);
});

describe('GET / and GET /billing', () => {
  let gw: TestGateway;
  let noted: TestGateway;
  beforeAll(async () => {
    gw = await startGateway();
    noted = await startGateway({ QUARRY_BILLING_NOTE: 'Credits are €10 per 10,000.\n\nWrite to billing@example.com or see https://example.com/prices.' });
  });
  afterAll(async () => {
    await gw?.close();
    await noted?.close();
  });

  it('a browser at / goes to the dashboard; an API client gets the addresses', async () => {
    const browser = await fetch(`${gw.url}/`, { headers: { accept: 'text/html,application/xhtml+xml' }, redirect: 'manual' });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/dashboard/');
    const api = await get(gw.url, '/');
    expect(api.status).toBe(200);
    expect(api.json.data).toMatchObject({ catalogue: '/v1/catalogue', openapi: '/openapi.json', dashboard: '/dashboard/' });
  });

  it('billingUrl leads to a real page: how credits are had on this server, by default', async () => {
    const r = await fetch(`${gw.url}/billing`, { headers: { accept: 'text/html' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await r.text();
    expect(html).toContain('added by the people who run it');
    expect(html).toContain('npx quarry credits add --account ID --amount N');
    expect(html).toContain('QUARRY_BILLING_NOTE');
    // The billingUrl an insufficientCredits error names is this page.
    const a = await gw.accounts.createAccount({ credits: 0 });
    const poor = await fetch(`${gw.url}/v1/reddit/subforum`, { method: 'POST', headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' }, body: '{"subforum":"golang"}' });
    const billingUrl = new URL(((await poor.json()) as any).error.billingUrl);
    expect(billingUrl.pathname).toBe('/billing');
  });

  it("shows the operator's note, escaped, its addresses as links; JSON on request", async () => {
    const html = await (await fetch(`${noted.url}/billing`)).text();
    expect(html).toContain('<p>Credits are €10 per 10,000.</p>');
    expect(html).toContain('<a href="mailto:billing@example.com">billing@example.com</a>');
    expect(html).toContain('<a href="https://example.com/prices">https://example.com/prices</a>.');
    expect(html).not.toContain('npx quarry credits add');
    const json = await get(noted.url, '/billing', { headers: { accept: 'application/json' } });
    expect(json.json.data).toMatchObject({ configured: true });
    expect(json.json.data.note).toContain('billing@example.com');
  });
});
