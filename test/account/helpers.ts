/**
 * A small browser stand-in for the account side's tests: keeps the `quarry_session` cookie like a browser would
 * and sends the CSRF token it read from GET /v1/auth/session.
 */
import { createInvite } from '../../src/identity/invites.js';
import { accountSideFor } from '../../src/store/account-side.js';
import { toResponse, type CallResponse, type TestGateway } from '../helpers/gateway.js';

export type Answer = CallResponse;

export class Browser {
  cookie: string | undefined;
  csrf: string | undefined;
  /** The raw Set-Cookie headers of the last answer. */
  setCookies: string[] = [];

  constructor(readonly base: string, readonly origin: string | undefined = base) {}

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const h: Record<string, string> = { ...headers };
    if (body !== undefined) h['content-type'] ??= 'application/json';
    if (this.cookie && !('cookie' in h)) h.cookie = this.cookie;
    if (this.origin && method !== 'GET' && !('origin' in h)) h.origin = this.origin;
    if (this.csrf && method !== 'GET' && !('x-csrf-token' in h)) h['x-csrf-token'] = this.csrf;
    for (const [k, v] of Object.entries(h)) if (v === '') delete h[k];
    const res = await fetch(this.base + path, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    this.setCookies = res.headers.getSetCookie();
    for (const c of this.setCookies) {
      const m = /^quarry_session=([^;]*)/.exec(c);
      if (!m) continue;
      this.cookie = m[1] && !/Max-Age=0\b/.test(c) ? `quarry_session=${m[1]}` : undefined;
    }
    return toResponse(res);
  }

  get(path: string, headers?: Record<string, string>) {
    return this.call('GET', path, undefined, headers);
  }

  post(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.call('POST', path, body, headers);
  }

  /** Reads the session (and its CSRF token); returns the answer. */
  async session(): Promise<Answer> {
    const r = await this.get('/v1/auth/session');
    if (r.status === 200) this.csrf = r.json.data.csrfToken;
    return r;
  }

  async signUp(inviteCode: string, email: string, password: string): Promise<Answer> {
    const r = await this.post('/v1/auth/signup', { inviteCode, email, password });
    if (r.status === 200) await this.session();
    return r;
  }

  async signIn(email: string, password: string): Promise<Answer> {
    const r = await this.post('/v1/auth/signin', { email, password });
    if (r.status === 200) await this.session();
    return r;
  }
}

export async function newInvite(
  t: TestGateway,
  o: { credits?: number; maxUses?: number; expiresAt?: number | null } = {},
): Promise<{ code: string; id: string }> {
  const side = accountSideFor(t.gateway.deps.store);
  const { code, invite } = await createInvite(side, t.gateway.deps.crypto, {
    credits: o.credits ?? 100,
    maxUses: o.maxUses ?? 1,
    expiresAt: o.expiresAt ?? null,
  });
  return { code, id: invite.id };
}

let n = 0;
export function uniqueEmail(): string {
  return `person${process.pid}.${++n}@example.com`;
}

export const PASSWORD = 'correct horse battery';
