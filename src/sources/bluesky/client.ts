/**
 * Bluesky's XRPC lexicon, asked of the official AppView keyless (`public.api.bsky.app`), and of the operator's own
 * account for post search, which Bluesky stopped serving to anonymous callers in 2025: a session made with
 * QUARRY_BLUESKY_HANDLE and QUARRY_BLUESKY_APP_PASSWORD on QUARRY_BLUESKY_SERVICE (bsky.social unless set), cached per
 * process until its access token nears expiry.
 */
import { createHash } from 'node:crypto';
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { isObj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const APPVIEW = 'https://public.api.bsky.app';
const DEFAULT_SERVICE = 'https://bsky.social';
const SESSION_SETTINGS = 'QUARRY_BLUESKY_HANDLE and QUARRY_BLUESKY_APP_PASSWORD';
/** Renew this long before the access token says it expires. */
const TOKEN_MARGIN_MS = 60_000;

const bad = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`, { retryable: false });

// ---- References ------------------------------------------------------------------------------------------------------

const DID = /^did:(?:plc:[a-z2-7]{24}|web:[a-z0-9.:%-]{1,253})$/i;
const HANDLE = /^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
const RKEY = /^[A-Za-z0-9._:~-]{1,512}$/;

/** A DID or a handle (lower-cased), from itself, `@handle` or a bsky.app profile address; undefined when none. */
function actorIn(input: string): { actor: string; rest: string[] } | undefined {
  const t = input.trim().replace(/^@/, '');
  if (DID.test(t)) return { actor: t, rest: [] };
  if (HANDLE.test(t) && !/^https?:/i.test(t) && !t.includes('/')) return { actor: t.toLowerCase(), rest: [] };
  if (t.startsWith('at://')) {
    const [actor, ...rest] = t.slice(5).split('/');
    return DID.test(actor) || HANDLE.test(actor) ? { actor: DID.test(actor) ? actor : actor.toLowerCase(), rest } : undefined;
  }
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  if (!URL.canParse(withScheme)) return undefined;
  const u = new URL(withScheme);
  if (!/^(?:www\.)?bsky\.app$/i.test(u.hostname)) return undefined;
  const [first, actor, ...rest] = u.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (first !== 'profile' || !actor) return undefined;
  return DID.test(actor) ? { actor, rest } : HANDLE.test(actor) ? { actor: actor.toLowerCase(), rest } : undefined;
}

/** The account a `profile` (or `author`) field names: a handle or a DID. */
export function actorOf(input: string, field = 'profile'): string {
  const found = actorIn(input);
  if (!found) throw bad(field, 'not a Bluesky handle, DID or bsky.app profile address');
  return found.actor;
}

/** A record named by an at:// URI (`at://actor/collection/rkey`) or a bsky.app address (`/profile/actor/<kind>/rkey`). */
function recordRef(input: string, field: string, collection: string, webKind: string): { actor: string; rkey: string } {
  const found = actorIn(input);
  const isAt = input.trim().startsWith('at://');
  const [kind, rkey, ...more] = found?.rest ?? [];
  if (!found || more.length || !rkey || !RKEY.test(rkey) || kind !== (isAt ? collection : webKind)) {
    throw bad(field, `not a bsky.app ${webKind} address or at:// URI of an ${collection} record`);
  }
  return { actor: found.actor, rkey };
}

export const postRef = (input: string) => recordRef(input, 'post', 'app.bsky.feed.post', 'post');
export const feedRef = (input: string) => recordRef(input, 'feed', 'app.bsky.feed.generator', 'feed');
export const isDid = (actor: string): boolean => DID.test(actor);

// ---- Requests --------------------------------------------------------------------------------------------------------

/** XRPC errors come as 400 (or 401) with `{error, message}`: read them here rather than as a generic failure. */
const PASS = [400, 401];

function xrpcError(res: UpstreamResponse): { error?: string; message?: string } {
  try {
    const body = JSON.parse(res.text()) as unknown;
    return isObj(body) ? { error: str(body.error), message: str(body.message) } : {};
  } catch {
    return {};
  }
}

/** A 200's JSON object, or the error the XRPC answer names: `what` says what was asked, for notFound. */
function answer(res: UpstreamResponse, what: string): Obj {
  if (res.status === 200) {
    const body = res.json();
    if (!isObj(body)) throw new QuarryError('sourceChanged', 'bluesky: an answer that is not a JSON object');
    return body;
  }
  const { error, message } = xrpcError(res);
  const said = message ? ` (${message.slice(0, 200)})` : '';
  if (error === 'NotFound' || /not found|could not (?:find|locate)|unable to resolve/i.test(message ?? '')) {
    throw new QuarryError('notFound', `${what}: not found on Bluesky${said}`);
  }
  if (res.status === 401) throw new QuarryError('sourceRefused', `bluesky: the AppView asks for a signed-in account${said}`);
  throw new QuarryError('invalidRequest', `bluesky: Bluesky refused the request${error ? ` ${error}` : ''}${said}`, { retryable: false });
}

async function get(ctx: SourceContext, base: string, method: string, params: URLSearchParams, headers: Record<string, string> = {}): Promise<UpstreamResponse> {
  return ctx.http.request({ url: `${base}/xrpc/${method}?${params}`, headers: { accept: 'application/json', ...headers }, passStatuses: PASS }, ctx.signal);
}

/** One keyless AppView query. */
export async function appview(ctx: SourceContext, method: string, params: Record<string, string | number | undefined>, what: string): Promise<Obj> {
  return answer(await get(ctx, APPVIEW, method, query(params)), what);
}

function query(params: Record<string, string | number | undefined>): URLSearchParams {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  return q;
}

/** A handle's DID (AT URIs are asked by DID). */
export async function didOf(ctx: SourceContext, actor: string, field: string): Promise<string> {
  if (isDid(actor)) return actor;
  const body = await appview(ctx, 'com.atproto.identity.resolveHandle', { handle: actor }, field);
  const did = str(body.did);
  if (!did || !DID.test(did)) throw new QuarryError('sourceChanged', 'bluesky: resolveHandle answered no DID');
  return did;
}

// ---- The operator's session ------------------------------------------------------------------------------------------

interface Session {
  service: string;
  token: string;
  expiresAt: number;
}

/** Process-wide, keyed by a hash of the credentials: Bluesky limits session creation per account. */
const sessions = new Map<string, Promise<Session>>();

const trimSlash = (s: string) => s.replace(/\/+$/, '');

function expiryOf(jwt: string): number {
  try {
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    if (typeof claims.exp === 'number') return claims.exp * 1000 - TOKEN_MARGIN_MS;
  } catch {
    // an opaque token: assume an hour, as Bluesky's access tokens last about two
  }
  return Date.now() + 3_600_000;
}

async function createSession(ctx: SourceContext, service: string, handle: string, password: string): Promise<Session> {
  const res = await ctx.http.request({
    url: `${service}/xrpc/com.atproto.server.createSession`,
    method: 'POST',
    idempotent: true,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ identifier: handle, password }),
    passStatuses: PASS,
  });
  if (res.status !== 200) {
    const { message } = xrpcError(res);
    throw new QuarryError('sourceUnavailable', `bluesky: the account in ${SESSION_SETTINGS} was refused${message ? ` (${message.slice(0, 200)})` : ''}`, { retryable: false });
  }
  const token = str(res.json<Obj>()?.accessJwt);
  if (!token) throw new QuarryError('sourceChanged', 'bluesky: createSession answered no accessJwt');
  return { service, token, expiresAt: expiryOf(token) };
}

async function session(ctx: SourceContext, stale?: string): Promise<Session> {
  const handle = ctx.settings.HANDLE;
  const password = ctx.settings.APP_PASSWORD;
  if (!handle || !password) {
    throw new QuarryError('sourceUnavailable', `bluesky: post search needs a Bluesky account: set ${SESSION_SETTINGS} (an app password)`, { retryable: false });
  }
  const service = trimSlash(ctx.settings.SERVICE || DEFAULT_SERVICE);
  const key = createHash('sha256').update(`${service}\n${handle}\n${password}`).digest('hex');
  const cached = sessions.get(key);
  if (cached) {
    const s = await cached.catch(() => undefined);
    if (s && s.token !== stale && s.expiresAt > Date.now()) return s;
    if (sessions.get(key) === cached) sessions.delete(key);
  }
  // No caller signal: the session is shared, one caller going away must not fail the others.
  const pending = createSession(ctx, service, handle, password);
  sessions.set(key, pending);
  pending.catch(() => {
    if (sessions.get(key) === pending) sessions.delete(key);
  });
  return pending;
}

/** One query as the operator's account, through its service; an expired token is renewed once. */
export async function signedIn(ctx: SourceContext, method: string, params: Record<string, string | number | undefined>, what: string): Promise<Obj> {
  const first = await session(ctx);
  let res = await get(ctx, first.service, method, query(params), { authorization: `Bearer ${first.token}` });
  if (res.status === 401) {
    const again = await session(ctx, first.token);
    res = await get(ctx, again.service, method, query(params), { authorization: `Bearer ${again.token}` });
    if (res.status === 401) throw new QuarryError('sourceUnavailable', `bluesky: the session of ${SESSION_SETTINGS} was refused twice`, { retryable: false });
  }
  return answer(res, what);
}
