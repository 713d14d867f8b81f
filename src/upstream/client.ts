/**
 * The one HTTP client sources use: timeouts, bounded retries, a per-source concurrency cap, a byte cap, manual
 * redirects, the SSRF guard, and the mapping of every failure onto the spec's source* codes.
 * Create one client per source: the concurrency cap lives in the instance.
 */
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { Agent, ProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';
import { QuarryError, isQuarryError } from '../errors.js';
import { createSsrfGuard, type SsrfGuard } from './ssrf.js';
import type { UpstreamClient, UpstreamRedirect, UpstreamRequest, UpstreamResponse } from './types.js';

export interface UpstreamOptions {
  /** Source id, used in error messages. */
  source: string;
  timeoutMs?: number;
  retries?: number;
  concurrency?: number;
  proxyUrl?: string;
  userAgent?: string;
  maxBytes?: number;
  /** Hosts, addresses or CIDRs exempt from the SSRF guard (tests, operator-internal services). */
  ssrfAllow?: string[];
  /** Resolvers (`host:port`) for name look-ups of user-supplied addresses; empty means the system's. */
  dnsServers?: string[];
  /** Base of the full-jitter backoff (ms). */
  retryBaseMs?: number;
  /** Longest Retry-After honoured before a retry; a longer one fails at once with retryAfterSeconds. */
  maxRetryAfterMs?: number;
  /**
   * QUARRY_UPSTREAM_OVERRIDES: upstream host → base address that answers for it (a mirror, or a test double). Path
   * and query are kept; the request still passes the SSRF guard, so the base must be allowed (QUARRY_OUTBOUND_ALLOW).
   */
  overrides?: ReadonlyMap<string, string>;
}

export type ClosableUpstreamClient = UpstreamClient & { close(): Promise<void> };

export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

const MAX_REDIRECTS = 5;
const BACKOFF_CAP_MS = 5_000;
const ERROR_BODY_PEEK = 32 * 1024;
/**
 * Only markers that appear on bot walls, not on ordinary pages that happen to embed a captcha widget. Cloudflare also
 * injects /cdn-cgi/challenge-platform/scripts/jsd/ into pages it lets through: only its challenge paths (`/h/`) and
 * the challenge page's own title count.
 */
const CHALLENGE_MARKERS = [
  '/cdn-cgi/challenge-platform/h/',
  '<title>just a moment...</title>',
  'cf-chl-',
  'px-captcha',
  'captcha-delivery.com',
  'detected unusual traffic',
  'whoa there, pardner',
  'blocked by network security',
];

/** A failed attempt: the error to surface, and whether another attempt may help. */
class Failure {
  constructor(
    readonly error: QuarryError,
    readonly retry: boolean,
    readonly retryAfterMs?: number,
  ) {}
}

class Semaphore {
  private active = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(private readonly max: number) {}

  acquire(signal?: AbortSignal): Promise<void> {
    if (this.active < this.max) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const i = this.waiters.indexOf(grant);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal?.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  /** Hands the slot straight to the next waiter, so the count never dips below the queue. */
  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}

export function createUpstreamClient(options: UpstreamOptions): ClosableUpstreamClient {
  const source = options.source;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retries = options.retries ?? 2;
  const maxBytes = options.maxBytes ?? 8 * 1024 * 1024;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
  const retryBaseMs = options.retryBaseMs ?? 300;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 5_000;
  const semaphore = new Semaphore(options.concurrency ?? 8);
  const guard: SsrfGuard = createSsrfGuard(options.ssrfAllow ?? [], options.dnsServers ?? []);
  const connectTimeout = Math.min(timeoutMs, 10_000);

  // Through a proxy the proxy resolves names, so only the pre-flight check applies there.
  const proxy = options.proxyUrl ? new ProxyAgent({ uri: options.proxyUrl }) : undefined;
  const plain: Dispatcher = proxy ?? new Agent({ connect: { timeout: connectTimeout } });
  const guarded: Dispatcher = proxy ?? new Agent({ connect: { timeout: connectTimeout, lookup: guard.lookup } });

  const overrides = new Map([...(options.overrides ?? new Map<string, string>())].map(([host, base]) => [host.toLowerCase(), new URL(base)]));

  /** The URL a request for `url` is sent to: `url` itself, or its path and query on an override's base. */
  function overridden(url: URL): URL {
    const base = overrides.get(url.host.toLowerCase()) ?? overrides.get(url.hostname.toLowerCase());
    if (!base) return url;
    return new URL(base.pathname.replace(/\/+$/, '') + url.pathname + url.search, base);
  }

  async function request(req: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamResponse> {
    const method = req.method ?? 'GET';
    const idempotent = req.idempotent ?? method !== 'POST';
    const attempts = idempotent ? retries + 1 : 1;
    if (!URL.canParse(req.url)) throw new QuarryError('invalidRequest', 'url: not a valid address', { retryable: false });
    for (let attempt = 0; ; attempt++) {
      const outcome = await attemptOnce(req, signal);
      if (!(outcome instanceof Failure)) return outcome;
      if (!outcome.retry || attempt + 1 >= attempts) throw outcome.error;
      let wait = Math.random() * Math.min(BACKOFF_CAP_MS, retryBaseMs * 2 ** attempt);
      if (outcome.retryAfterMs !== undefined) {
        if (outcome.retryAfterMs > maxRetryAfterMs) throw outcome.error;
        wait = outcome.retryAfterMs;
      }
      await sleep(wait, signal).catch(() => {
        throw cancelled(signal);
      });
    }
  }

  async function attemptOnce(req: UpstreamRequest, callerSignal?: AbortSignal): Promise<UpstreamResponse | Failure> {
    try {
      await semaphore.acquire(callerSignal);
    } catch {
      return new Failure(cancelled(callerSignal), false);
    }
    const limitMs = req.timeoutMs ?? timeoutMs;
    const timer = AbortSignal.timeout(limitMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timer]) : timer;
    try {
      return await exchange(req, signal);
    } catch (e) {
      if (e instanceof Failure) return e;
      if (callerSignal?.aborted) return new Failure(cancelled(callerSignal), false);
      if (timer.aborted) return new Failure(timeoutError(limitMs), true);
      return classify(e, limitMs);
    } finally {
      semaphore.release();
    }
  }

  /** One request plus its redirect chain. Throws Failure for mapped statuses, anything else for transport errors. */
  async function exchange(req: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const cap = req.maxBytes ?? maxBytes;
    const pass = req.passStatuses ?? [];
    let url = new URL(req.url);
    let method: 'GET' | 'POST' | 'HEAD' = req.method ?? 'GET';
    let body = req.body;
    const headers = buildHeaders(req.headers);
    const redirects: UpstreamRedirect[] = [];
    for (let hop = 0; ; hop++) {
      // The address the request goes to: the upstream's own, or the base an operator (or a test) put in its place.
      const target = overridden(url);
      const checked = req.userSupplied || target !== url;
      if (checked) await abortable(guard.check(target), signal).catch((e: unknown) => {
        // An operator's override the guard refuses is a configuration problem, not the caller's bad address.
        if (req.userSupplied || target === url) throw e;
        const why = `${source}: the upstream override ${target.origin} for ${url.host} is not allowed by QUARRY_OUTBOUND_ALLOW`;
        throw new Failure(new QuarryError('sourceUnavailable', why, { retryable: false }), false);
      });
      else if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Failure(new QuarryError('sourceUnavailable', `${source}: upstream redirected to a non-web address`), false);
      }
      if (target !== url) headers['x-forwarded-host'] = url.host;
      else delete headers['x-forwarded-host'];
      const res = await undiciRequest(target, {
        dispatcher: checked ? guarded : plain,
        method,
        headers,
        body,
        signal,
      });
      const status = res.statusCode;
      const location = header(res.headers, 'location');
      if (status >= 300 && status < 400 && location && !pass.includes(status)) {
        await res.body.dump().catch(() => undefined);
        // A mirror's absolute redirect to itself stands for the upstream host it answers for.
        const back = target !== url ? new URL(location, target) : undefined;
        const resolved = back && back.origin === target.origin ? new URL(back.pathname + back.search, url) : new URL(location, url);
        if (hop >= MAX_REDIRECTS) {
          throw new Failure(
            new QuarryError('sourceUnavailable', `${source}: upstream redirected more than ${MAX_REDIRECTS} times`),
            false,
          );
        }
        const next = resolved;
        redirects.push({ url: url.href, status });
        // Never carry credentials to another origin.
        if (next.origin !== url.origin) {
          delete headers.authorization;
          delete headers.cookie;
        }
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
        }
        url = next;
        continue;
      }
      if (pass.includes(status) || (status >= 200 && status < 300)) {
        const buf = method === 'HEAD' ? Buffer.alloc(0) : await readBody(res, cap, true);
        const resHeaders = flatHeaders(res.headers);
        if (!pass.includes(status) && isChallenge(resHeaders, buf)) throw refused('answered with a bot challenge page', false);
        return makeResponse(status, url.href, resHeaders, buf, redirects);
      }
      const peek = await readBody(res, Math.min(cap, ERROR_BODY_PEEK), false).catch(() => Buffer.alloc(0));
      throw statusFailure(status, flatHeaders(res.headers), peek);
    }
  }

  function statusFailure(status: number, headers: Record<string, string>, peek: Buffer): Failure {
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    const extras = retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
    if (isChallenge(headers, peek, true)) return refused(`answered HTTP ${status} with a bot challenge page`, false);
    if (status === 403) return refused('refused the request (HTTP 403)', false);
    if (status === 429) return refused('is throttling us (HTTP 429)', true, retryAfterMs, extras);
    if (status >= 500) {
      return new Failure(new QuarryError('sourceUnavailable', `${source}: upstream answered HTTP ${status}`, extras), true, retryAfterMs);
    }
    return new Failure(new QuarryError('sourceUnavailable', `${source}: upstream answered HTTP ${status}`), false);
  }

  function refused(what: string, retry: boolean, retryAfterMs?: number, extras = {}): Failure {
    return new Failure(new QuarryError('sourceRefused', `${source}: upstream ${what}`, extras), retry, retryAfterMs);
  }

  function timeoutError(ms: number): QuarryError {
    return new QuarryError('sourceTimeout', `${source}: upstream did not answer within ${ms} ms`);
  }

  function cancelled(signal?: AbortSignal): QuarryError {
    if (isQuarryError(signal?.reason)) return signal.reason;
    return new QuarryError('sourceUnavailable', `${source}: request cancelled before the upstream answered`);
  }

  /** Transport errors. Only the errno-style code is shown: raw messages can echo URLs with tokens. */
  function classify(e: unknown, ms: number): Failure {
    const own = findInChain(e, isQuarryError);
    if (own) return new Failure(own, false);
    const code = findInChain(e, (x): x is { code: string } => typeof (x as { code?: unknown })?.code === 'string')?.code;
    if (code && /TIMEOUT|ETIMEDOUT/.test(code)) return new Failure(timeoutError(ms), true);
    if (code?.startsWith('Z_') || code === 'ERR_ZLIB') {
      return new Failure(new QuarryError('sourceChanged', `${source}: upstream answer could not be decompressed`), false);
    }
    const shown = code && /^[A-Z0-9_]+$/.test(code) ? ` (${code})` : '';
    return new Failure(new QuarryError('sourceUnavailable', `${source}: upstream could not be reached${shown}`), true);
  }

  function makeResponse(
    status: number,
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    redirects: UpstreamRedirect[] = [],
  ): UpstreamResponse {
    return {
      status,
      url,
      headers,
      redirects,
      body,
      text: () => body.toString('utf8'),
      json<T = unknown>(): T {
        try {
          return JSON.parse(body.toString('utf8')) as T;
        } catch {
          throw new QuarryError('sourceChanged', `${source}: upstream answer is not valid JSON`);
        }
      },
    };
  }

  /** Streams the body under a hard cap; `strict` makes overflow an error, otherwise the body is truncated. */
  async function readBody(res: Dispatcher.ResponseData, cap: number, strict: boolean): Promise<Buffer> {
    // Destroying an undici body emits an abort error; without a listener it would crash the process.
    res.body.on('error', () => undefined);
    const encoding = (header(res.headers, 'content-encoding') ?? 'identity').toLowerCase().trim();
    const declared = Number(header(res.headers, 'content-length'));
    if (strict && encoding === 'identity' && declared > cap) {
      res.body.destroy();
      throw oversize(cap);
    }
    const stream = decoder(res.body, encoding);
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for await (const chunk of stream) {
        const buf = chunk as Buffer;
        if (total + buf.length > cap) {
          if (strict) throw oversize(cap);
          chunks.push(buf.subarray(0, cap - total));
          total = cap;
          break;
        }
        chunks.push(buf);
        total += buf.length;
      }
    } finally {
      // Stops the download at once when we leave early.
      stream.destroy();
      res.body.destroy();
    }
    return Buffer.concat(chunks, total);
  }

  function oversize(cap: number): Failure {
    return new Failure(new QuarryError('sourceChanged', `${source}: upstream answer larger than ${cap} bytes`), false);
  }

  function buildHeaders(given: Record<string, string> = {}): Record<string, string> {
    const out: Record<string, string> = {
      'user-agent': userAgent,
      accept: '*/*',
      'accept-encoding': 'gzip, deflate, br',
    };
    for (const [k, v] of Object.entries(given)) out[k.toLowerCase()] = v;
    return out;
  }

  return {
    request,
    async close() {
      await Promise.all([...new Set([plain, guarded])].map((d) => d.close()));
    },
  };
}

function decoder(body: Readable, encoding: string): Readable {
  const make =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip
      : encoding === 'deflate'
        ? zlib.createInflate
        : encoding === 'br'
          ? zlib.createBrotliDecompress
          : undefined;
  if (!make) return body;
  return pipeline(body, make(), () => undefined).on('error', () => undefined);
}

function isChallenge(headers: Record<string, string>, body: Buffer, anyCaptcha = false): boolean {
  if (!(headers['content-type'] ?? '').includes('html')) return false;
  const text = body.subarray(0, ERROR_BODY_PEEK).toString('utf8').toLowerCase();
  if (anyCaptcha && text.includes('captcha')) return true;
  return CHALLENGE_MARKERS.some((m) => text.includes(m));
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function findInChain<T>(e: unknown, test: (x: unknown) => x is T): T | undefined {
  for (let cur = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (test(cur)) return cur;
  }
  return undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Lets the timeout interrupt work that takes no signal (DNS look-ups). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
