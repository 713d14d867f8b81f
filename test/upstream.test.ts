import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../src/errors.js';
import { createUpstreamClient, type UpstreamOptions } from '../src/upstream/client.js';
import { createSsrfGuard, isReservedAddress } from '../src/upstream/ssrf.js';
import { failure } from './helpers/failure.js';

/** Hits per path+query, and the most requests the server saw at once on /slow-ok. */
const hits = new Map<string, number>();
let active = 0;
let maxActive = 0;
let base = '';

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const key = `${req.method} ${url.pathname}${url.search}`;
  const n = (hits.get(key) ?? 0) + 1;
  hits.set(key, n);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  switch (url.pathname) {
    case '/ok':
      return json(200, { ok: true, method: req.method });
    case '/hang':
      return; // never answers
    case '/hang-body':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
      return; // headers sent, body stalls
    case '/flaky': // 503 first, then 200
      return n === 1 ? json(503, { error: 'busy' }) : json(200, { ok: true, attempt: n });
    case '/throttled':
      return n === 1 ? json(429, {}, { 'retry-after': url.searchParams.get('after') ?? '0' }) : json(200, { ok: true });
    case '/forbidden':
      return json(403, { message: 'Forbidden' });
    case '/challenge':
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<html><title>Just a moment...</title><script src="/cdn-cgi/challenge-platform/x.js"></script></html>');
    case '/cloudflare-passed': // an ordinary page Cloudflare let through, with its detection script
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><title>Shop</title><script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script><p>ok</p></html>');
    case '/missing':
      return json(404, { reason: 'nope' });
    case '/big':
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no content-length to trust
      for (let i = 0; i < 4; i++) res.write('x'.repeat(512));
      return res.end();
    case '/big-declared':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      return res.end('x'.repeat(4096));
    case '/bad-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"not": json');
    case '/gzip':
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      return res.end(gzipSync(JSON.stringify({ zipped: true })));
    case '/bad-gzip':
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      return res.end('definitely not gzip');
    case '/slow-ok':
      active++;
      maxActive = Math.max(maxActive, active);
      setTimeout(() => {
        active--;
        json(200, { ok: true });
      }, 40);
      return;
    case '/redirect': {
      const left = Number(url.searchParams.get('n'));
      if (left <= 0) return json(200, { landed: true });
      res.writeHead(302, { location: `/redirect?n=${left - 1}` });
      return res.end();
    }
    case '/to-private':
      res.writeHead(302, { location: 'http://10.0.0.1/secret' });
      return res.end();
    default:
      return json(404, {});
  }
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const clients: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

function client(opts: Partial<UpstreamOptions> = {}) {
  const c = createUpstreamClient({ source: 'test', timeoutMs: 200, retries: 2, retryBaseMs: 1, ...opts });
  clients.push(c);
  return c;
}

describe('upstream client: failures map to source codes', () => {
  it('times out waiting for headers → sourceTimeout', async () => {
    const t0 = Date.now();
    const err = await failure(client({ retries: 0 }).request({ url: `${base}/hang` }));
    expect(err.code).toBe('sourceTimeout');
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('the timeout also covers a stalled body', async () => {
    const err = await failure(client({ retries: 0 }).request({ url: `${base}/hang-body` }));
    expect(err.code).toBe('sourceTimeout');
  });

  it('retries a 503 for GET and succeeds', async () => {
    const res = await client().request({ url: `${base}/flaky?case=get` });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ ok: true, attempt: 2 });
    expect(hits.get('GET /flaky?case=get')).toBe(2);
  });

  it('does not retry a non-idempotent POST', async () => {
    const err = await failure(client().request({ url: `${base}/flaky?case=post`, method: 'POST', body: '{}' }));
    expect(err.code).toBe('sourceUnavailable');
    expect(err.message).toContain('503');
    expect(hits.get('POST /flaky?case=post')).toBe(1);
  });

  it('retries a 429 after a short Retry-After, and gives up at once on a long one', async () => {
    const res = await client().request({ url: `${base}/throttled?after=0` });
    expect(res.status).toBe(200);
    const err = await failure(client().request({ url: `${base}/throttled?after=3600` }));
    expect(err.code).toBe('sourceRefused');
    expect(err.retryAfterSeconds).toBe(3600);
    expect(hits.get('GET /throttled?after=3600')).toBe(1);
  });

  it('403 → sourceRefused, not retried', async () => {
    const err = await failure(client().request({ url: `${base}/forbidden` }));
    expect(err.code).toBe('sourceRefused');
    expect(hits.get('GET /forbidden')).toBe(1);
  });

  it('a page Cloudflare let through, carrying its detection script, is an answer, not a challenge', async () => {
    const res = await client().request({ url: `${base}/cloudflare-passed` });
    expect(res.status).toBe(200);
    expect(res.text()).toContain('<p>ok</p>');
  });

  it('a bot-challenge page → sourceRefused', async () => {
    const err = await failure(client().request({ url: `${base}/challenge` }));
    expect(err.code).toBe('sourceRefused');
  });

  it('other 4xx → sourceUnavailable with the status, unless passed through', async () => {
    const err = await failure(client().request({ url: `${base}/missing` }));
    expect(err.code).toBe('sourceUnavailable');
    expect(err.message).toContain('404');
    const res = await client().request({ url: `${base}/missing`, passStatuses: [404] });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ reason: 'nope' });
  });

  it('an answer over the byte cap → sourceChanged (streamed and declared)', async () => {
    for (const path of ['/big', '/big-declared']) {
      const err = await failure(client({ maxBytes: 1024 }).request({ url: `${base}${path}` }));
      expect(err.code).toBe('sourceChanged');
      expect(err.message).toContain('larger than 1024 bytes');
    }
  });

  it('unparseable JSON → sourceChanged', async () => {
    const res = await client().request({ url: `${base}/bad-json` });
    expect(() => res.json()).toThrow(QuarryError);
    try {
      res.json();
    } catch (e) {
      expect((e as QuarryError).code).toBe('sourceChanged');
    }
  });

  it('a refused connection → sourceUnavailable', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await failure(client({ retries: 0 }).request({ url: `http://127.0.0.1:${port}/` }));
    expect(err.code).toBe('sourceUnavailable');
  });

  it('decodes gzip bodies; a corrupt one → sourceChanged', async () => {
    const res = await client().request({ url: `${base}/gzip` });
    expect(res.json()).toEqual({ zipped: true });
    const err = await failure(client().request({ url: `${base}/bad-gzip` }));
    expect(err.code).toBe('sourceChanged');
  });
});

describe('upstream client: limits', () => {
  it('never runs more than `concurrency` requests at once', async () => {
    maxActive = 0;
    const c = client({ concurrency: 2, timeoutMs: 2000 });
    await Promise.all(Array.from({ length: 7 }, () => c.request({ url: `${base}/slow-ok` })));
    expect(maxActive).toBe(2);
  });

  it('a queued request leaves the queue when its caller aborts', async () => {
    const c = client({ concurrency: 1, timeoutMs: 2000 });
    const first = c.request({ url: `${base}/slow-ok` });
    const ac = new AbortController();
    const second = c.request({ url: `${base}/slow-ok` }, ac.signal);
    ac.abort();
    const err = await failure(second);
    expect(err.code).toBe('sourceUnavailable');
    await first;
  });

  it('follows up to 5 redirects, refuses a 6th', async () => {
    const res = await client().request({ url: `${base}/redirect?n=5` });
    expect(res.json()).toEqual({ landed: true });
    expect(res.url).toBe(`${base}/redirect?n=0`);
    const err = await failure(client().request({ url: `${base}/redirect?n=6` }));
    expect(err.code).toBe('sourceUnavailable');
    expect(err.message).toContain('more than 5');
  });
});

describe('SSRF guard', () => {
  it('refuses loopback when user-supplied, allows it when allow-listed', async () => {
    hits.delete('GET /ok?ssrf=1');
    const err = await failure(client().request({ url: `${base}/ok?ssrf=1`, userSupplied: true }));
    expect(err.code).toBe('invalidRequest');
    expect(err.message).toBe('url: points to a private or reserved address');
    expect(err.retryable).toBe(false);
    expect(hits.get('GET /ok?ssrf=1')).toBeUndefined();
    const res = await client({ ssrfAllow: ['127.0.0.1'] }).request({ url: `${base}/ok?ssrf=1`, userSupplied: true });
    expect(res.status).toBe(200);
  });

  it('refuses cloud metadata even when its range is allow-listed', async () => {
    for (const allow of [[], ['169.254.0.0/16']]) {
      const err = await failure(client({ ssrfAllow: allow }).request({ url: 'http://169.254.169.254/latest/meta-data/', userSupplied: true }));
      expect(err.code).toBe('invalidRequest');
    }
  });

  it('refuses a redirect from an allowed host to a private address before connecting', async () => {
    const err = await failure(
      client({ ssrfAllow: ['127.0.0.0/8'] }).request({ url: `${base}/to-private`, userSupplied: true }),
    );
    expect(err.code).toBe('invalidRequest');
    expect(err.message).toBe('url: points to a private or reserved address');
  });

  it('refuses IPv4-mapped IPv6 loopback', async () => {
    const err = await failure(client().request({ url: 'http://[::ffff:127.0.0.1]/', userSupplied: true }));
    expect(err.code).toBe('invalidRequest');
  });

  it('refuses other schemes and credentials in the URL', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'http://user:pw@example.com/', 'not a url']) {
      const err = await failure(client().request({ url, userSupplied: true }));
      expect(err.code).toBe('invalidRequest');
    }
  });

  it('refuses at connect time: a name resolving to loopback never gets a socket', async () => {
    hits.delete('GET /ok?connect=1');
    const guard = createSsrfGuard([]);
    const agent = new Agent({ connect: { lookup: guard.lookup } });
    const port = (server.address() as AddressInfo).port;
    const err = await request(`http://localhost:${port}/ok?connect=1`, { dispatcher: agent }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await agent.close();
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).code).toBe('invalidRequest');
    expect(hits.get('GET /ok?connect=1')).toBeUndefined();
  });

  it('an allow-listed host name passes both checks', async () => {
    const port = (server.address() as AddressInfo).port;
    const res = await client({ ssrfAllow: ['localhost'] }).request({ url: `http://localhost:${port}/ok`, userSupplied: true });
    expect(res.status).toBe(200);
  });

  it('classifies reserved ranges', () => {
    const reserved = [
      '10.0.0.1', '172.16.0.1', '192.168.1.1', '127.0.0.1', '0.0.0.0', '169.254.169.254', '100.64.0.1',
      '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1',
      '::ffff:10.0.0.1', '::ffff:127.0.0.1', '64:ff9b::a00:1',
    ];
    for (const ip of reserved) expect(isReservedAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '64:ff9b::808:808']) {
      expect(isReservedAddress(ip), ip).toBe(false);
    }
  });
});
