/**
 * Truth Social's Mastodon-compatible API (truthsocial.com/api). Some of it answers anonymously, the rest only to a
 * signed-in account, and Truth Social moves that line without notice: every request carries the operator's token
 * when QUARRY_TRUTHSOCIAL_ACCESS_TOKEN is set, and a request refused for want of one names it. Cloudflare walls are
 * recognised by the shared client (a challenge page is sourceRefused), as is a 403 geoblock.
 */
import { QuarryError } from '../../errors.js';
import { obj, str } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const API = 'https://truthsocial.com/api';
const TOKEN_SETTING = 'QUARRY_TRUTHSOCIAL_ACCESS_TOKEN';

const bad = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`, { retryable: false });

const USERNAME = /^[A-Za-z0-9_]{1,30}$/;
const ID = /^[0-9]{1,20}$/;

function truthUrl(input: string): URL | undefined {
  const withScheme = /^[a-z]+:\/\//i.test(input) ? input : `https://${input}`;
  if (!URL.canParse(withScheme)) return undefined;
  const u = new URL(withScheme);
  return /^(?:www\.)?truthsocial\.com$/i.test(u.hostname) ? u : undefined;
}

/** A username from itself, `@name` or a truthsocial.com profile address (`/@name`, `/users/name`). */
export function usernameOf(input: string, field = 'profile'): string {
  const t = input.trim().replace(/^@/, '');
  if (USERNAME.test(t)) return t;
  const u = /truthsocial\.com/i.test(t) ? truthUrl(t) : undefined;
  const parts = u ? u.pathname.split('/').filter(Boolean) : [];
  const name = parts[0]?.startsWith('@') ? parts[0].slice(1) : parts[0] === 'users' ? parts[1] : undefined;
  if (name && USERNAME.test(name)) return name;
  throw bad(field, 'not a Truth Social username or truthsocial.com profile address');
}

/** A post id from itself or its address (`/@name/<id>`, `/@name/posts/<id>`). */
export function postIdOf(input: string): string {
  const t = input.trim();
  if (ID.test(t)) return t;
  const u = truthUrl(t);
  const parts = u ? u.pathname.split('/').filter(Boolean) : [];
  const id = parts.at(-1);
  if (u && parts[0]?.startsWith('@') && id && ID.test(id) && (parts.length === 2 || (parts.length === 3 && parts[1] === 'posts'))) return id;
  throw bad('post', 'not a Truth Social post id or truthsocial.com post address');
}

/** One GET of the API; `what` names what was asked, for notFound. */
export async function get(ctx: SourceContext, path: string, params: Record<string, string | number | boolean | undefined>, what: string): Promise<unknown> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const token = ctx.settings.ACCESS_TOKEN;
  const res = await ctx.http.request(
    {
      url: `${API}${path}${q.size ? `?${q}` : ''}`,
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      passStatuses: [401, 404, 422],
    },
    ctx.signal,
  );
  if (res.status === 401) {
    throw new QuarryError(
      'sourceUnavailable',
      token ? `truthsocial: Truth Social refused the token in ${TOKEN_SETTING}` : `truthsocial: Truth Social answers this only to a signed-in account: set ${TOKEN_SETTING}`,
      { retryable: false },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    throw new QuarryError('sourceChanged', `truthsocial: ${path} answered something other than JSON`);
  }
  const error = str(obj(body)?.error);
  if (res.status === 404) throw new QuarryError('notFound', `${what}: not found on Truth Social${error ? ` (${error.slice(0, 200)})` : ''}`);
  if (res.status === 422) throw new QuarryError('invalidRequest', `${what}: Truth Social refused it${error ? ` (${error.slice(0, 200)})` : ''}`, { retryable: false });
  return body;
}
