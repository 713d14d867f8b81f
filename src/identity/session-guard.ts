/**
 * Sessions of signed-in people: the `quarry_session` cookie, its idle and absolute expiry, and the CSRF rules of
 * docs/account-api.md. Every account route starts with `requireSession(request)`.
 *
 * CSRF: a state-changing call (anything but GET/HEAD/OPTIONS) made with a session must carry
 * `X-CSRF-Token: <token from GET /v1/auth/session>` (an HMAC of the session token, compared in constant time), and
 * when the browser sends `Origin` it must name this server. SameSite=Lax and the JSON-only bodies are further walls.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { QuarryError } from '../errors.js';
import type { AuthContext } from './context.js';
import { csrfToken, safeEqual, sessionTokenHash } from './tokens.js';

export const SESSION_COOKIE = 'quarry_session';
/** last_seen_at is written at most this often per session: a page load makes several calls. */
const TOUCH_EVERY_MS = 60_000;

export interface SignedIn {
  userId: string;
  accountId: string;
  email: string;
  /** The session's public id (`ses_…`), never its token. */
  sessionId: string;
}

interface Resolved {
  session: SignedIn;
  token: string;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const resolved = new WeakMap<FastifyRequest, Promise<Resolved | null>>();

function context(request: FastifyRequest): AuthContext {
  const ctx = request.server.quarryAuth;
  if (!ctx) throw new Error('the account side is not registered on this server (registerAuthRoutes)');
  return ctx;
}

/** The value of one cookie, or undefined. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function isLoopback(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const a = ipaddr.process(ip);
  return a.range() === 'loopback';
}

/**
 * Secure, unless the request came over plain http from loopback while the public address is not https: a
 * developer on http://localhost (or 127.0.0.1) must be able to sign in; anywhere else the cookie only travels
 * over TLS.
 */
export function cookieIsSecure(request: FastifyRequest, baseUrl: string): boolean {
  if (request.protocol === 'https' || baseUrl.startsWith('https:')) return true;
  return !isLoopback(request.ip);
}

export function setSessionCookie(reply: FastifyReply, request: FastifyRequest, token: string, maxAgeSeconds: number, baseUrl: string): void {
  const flags = [`${SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${maxAgeSeconds}`];
  if (cookieIsSecure(request, baseUrl)) flags.push('Secure');
  reply.header('set-cookie', flags.join('; '));
}

export function clearSessionCookie(reply: FastifyReply, request: FastifyRequest, baseUrl: string): void {
  const flags = [`${SESSION_COOKIE}=`, 'Path=/', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0'];
  if (cookieIsSecure(request, baseUrl)) flags.push('Secure');
  reply.header('set-cookie', flags.join('; '));
}

/**
 * When the browser names the page's origin, it must be this server (its Host, or QUARRY_BASE_URL's host); `null`
 * (sandboxed frames, some redirects) is refused. Requests without Origin (curl, the CLI, old browsers on same-origin
 * GETs) pass: the CSRF token stands guard for them.
 */
export function checkOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | undefined;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    host = undefined;
  }
  const ctx = context(request);
  const allowed = new Set<string>([new URL(ctx.deps.config.baseUrl).host.toLowerCase()]);
  if (request.headers.host) allowed.add(request.headers.host.toLowerCase());
  if (!host || !allowed.has(host)) {
    throw new QuarryError('forbidden', `Origin ${JSON.stringify(origin)} is not this server; cross-site requests are refused.`);
  }
}

async function resolve(request: FastifyRequest): Promise<Resolved | null> {
  const token = readCookie(request, SESSION_COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const ctx = context(request);
  const row = await ctx.side.findSession(sessionTokenHash(token));
  if (!row) return null;
  const now = ctx.deps.now();
  if (now >= row.expiresAt || now - row.lastSeenAt >= ctx.settings.idleMs) {
    await ctx.side.deleteSession(row.id);
    return null;
  }
  if (now - row.lastSeenAt >= TOUCH_EVERY_MS) await ctx.side.touchSession(row.id, now);
  return { token, session: { userId: row.userId, accountId: row.accountId, email: row.email, sessionId: row.id } };
}

/** The request's session (looked up once per request), or null; never throws for a missing one. */
export function currentSession(request: FastifyRequest): Promise<Resolved | null> {
  let p = resolved.get(request);
  if (!p) {
    p = resolve(request);
    resolved.set(request, p);
  }
  return p;
}

/** The CSRF token of the request's session (for GET /v1/auth/session). */
export function csrfTokenFor(request: FastifyRequest, sessionToken: string): string {
  return csrfToken(context(request).csrfKey, sessionToken);
}

/**
 * The signed-in person, or 401 `unauthorized`; on state-changing methods (unless `csrf: false`) also the CSRF
 * token and the Origin, else 403 `forbidden`.
 */
export async function requireSession(request: FastifyRequest, options: { csrf?: boolean } = {}): Promise<SignedIn> {
  const found = await currentSession(request);
  if (!found) throw new QuarryError('unauthorized', 'Sign in first: no session, or it has expired.');
  const csrf = options.csrf ?? !SAFE_METHODS.has(request.method);
  if (csrf) {
    checkOrigin(request);
    const sent = request.headers['x-csrf-token'];
    if (typeof sent !== 'string' || sent === '') {
      throw new QuarryError('forbidden', 'X-CSRF-Token: is required on this call (the csrfToken of GET /v1/auth/session).');
    }
    if (!safeEqual(sent, csrfTokenFor(request, found.token))) {
      throw new QuarryError('forbidden', 'X-CSRF-Token: does not match this session; reload the page.');
    }
  }
  return found.session;
}
