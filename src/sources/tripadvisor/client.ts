/**
 * Tripadvisor's Content API (https://tripadvisor-content-api.readme.io/reference/overview), with the operator's key:
 * `GET api.content.tripadvisor.com/api/v1/location/search` (up to 10 places), `/location/{id}/details`,
 * `/location/{id}/photos` and `/location/{id}/reviews` (the 5 most recent). The key travels as the `key` query
 * parameter, as the API requires, and never appears in an error message. Tripadvisor's own pages are behind DataDome
 * and their GraphQL needs rotating query ids and a browser session, so the documented API is the upstream.
 */
import { QuarryError } from '../../errors.js';
import { obj, objs, str, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const API = 'https://api.content.tripadvisor.com/api/v1';
const MAX_BYTES = 2 * 1024 * 1024;
const KEY_SETTING = 'QUARRY_TRIPADVISOR_API_KEY';

/** The Content API's language codes: a bare tag lower-cased, a region joined by `_` (`pt_BR`, as it lists them). */
export const langOf = (language: string): string => {
  const [lang, region] = language.split(/[-_]/);
  return region ? `${lang.toLowerCase()}_${region.toUpperCase()}` : lang.toLowerCase();
};

async function get(path: string, params: Record<string, string>, ctx: SourceContext): Promise<Obj> {
  const key = ctx.settings.API_KEY;
  if (!key) {
    throw new QuarryError('sourceUnavailable', `tripadvisor: the Content API needs an API key; set ${KEY_SETTING}`, { retryable: false });
  }
  const q = new URLSearchParams({ key, ...params });
  const res = await ctx.http.request(
    { url: `${API}${path}?${q}`, headers: { accept: 'application/json' }, maxBytes: MAX_BYTES, passStatuses: [400, 401, 403, 404, 429] },
    ctx.signal,
  );
  refuseWalls('tripadvisor', res.headers, res.body);
  const answer = obj(safeJson(res.text())) ?? {};
  const message = (str(obj(answer.error)?.message) ?? str(answer.message) ?? '').slice(0, 200);
  if (res.status === 401 || res.status === 403) {
    throw new QuarryError('sourceUnavailable', `tripadvisor: the Content API refused the key (HTTP ${res.status}${message ? `: ${message}` : ''}); check ${KEY_SETTING} and the key's allowed addresses`, { retryable: false });
  }
  if (res.status === 429) throw new QuarryError('sourceRefused', 'tripadvisor: the Content API is throttling us (HTTP 429)');
  if (res.status === 404 || (res.status === 400 && /location/i.test(message))) throw new QuarryError('notFound', `tripadvisor: ${message || 'no such location'}`);
  if (res.status === 400) throw new QuarryError('invalidRequest', `tripadvisor: the Content API refused the request: ${message || 'HTTP 400'}`, { retryable: false });
  if (obj(answer.error)) throw new QuarryError('sourceChanged', `tripadvisor: the Content API answered an error: ${message}`);
  return answer;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function locationSearch(query: string, category: string, language: string, ctx: SourceContext): Promise<Obj[]> {
  const params: Record<string, string> = { searchQuery: query, language: langOf(language) };
  if (category !== 'all') params.category = category;
  const answer = await get('/location/search', params, ctx);
  if (!Array.isArray(answer.data)) throw new QuarryError('sourceChanged', 'tripadvisor: the search answered no data list');
  return objs(answer.data);
}

export async function details(id: string, language: string, currency: string, ctx: SourceContext): Promise<Obj> {
  const answer = await get(`/location/${id}/details`, { language: langOf(language), currency }, ctx);
  if (!str(answer.location_id) && typeof answer.location_id !== 'number') throw new QuarryError('sourceChanged', 'tripadvisor: the details answer has no location_id');
  return answer;
}

export async function photos(id: string, language: string, ctx: SourceContext): Promise<Obj[]> {
  const answer = await get(`/location/${id}/photos`, { language: langOf(language) }, ctx);
  return objs(answer.data);
}

export async function reviews(id: string, language: string, limit: number, offset: number, ctx: SourceContext): Promise<Obj[]> {
  const params: Record<string, string> = { language: langOf(language), limit: String(limit) };
  if (offset) params.offset = String(offset);
  const answer = await get(`/location/${id}/reviews`, params, ctx);
  if (!Array.isArray(answer.data)) throw new QuarryError('sourceChanged', 'tripadvisor: the reviews answer has no data list');
  return objs(answer.data);
}
