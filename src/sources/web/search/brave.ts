/**
 * The Brave Search API with the operator's key (QUARRY_WEB_BRAVE_API_KEY, header `X-Subscription-Token`):
 * `GET https://api.search.brave.com/res/v1/web/search?q&count(≤20)&offset(page, ≤9)&country&search_lang&freshness`.
 * `freshness` takes pd/pw/pm/py or a `YYYY-MM-DDtoYYYY-MM-DD` span. A refused key is the operator's to fix
 * (sourceUnavailable, not retryable); 429 is Brave's rate limit (sourceRefused, by the upstream client).
 */
import { QuarryError } from '../../../errors.js';
import { isoFromText, obj, objs, str } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { clean, type Window } from './filters.js';
import { fragmentText } from './html.js';
import type { Found, Hit } from './types.js';

export const BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';
const FRESHNESS: Partial<Record<Window, string>> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
const PAGE = 20;
const MAX_OFFSET = 9;

export interface BraveQuery {
  q: string;
  country?: string;
  language?: string;
  within: Window;
  from?: string;
  to?: string;
  limit: number;
}

/** `page_age` is written without a zone (2023-05-01T20:10:05): read as UTC. */
const utc = (age: string | undefined): string | undefined => (age ? isoFromText(/(?:Z|[+-]\d\d:?\d\d)$/i.test(age) ? age : `${age}Z`) : undefined);

export function normaliseBrave(body: unknown): Found & { more: boolean } {
  const o = obj(body);
  const web = obj(o?.web);
  if (!o || (o.web !== undefined && !Array.isArray(web?.results))) throw new QuarryError('sourceChanged', 'web: Brave answer without web.results');
  const hits: Hit[] = objs(web?.results).flatMap((r) => {
    const url = str(r.url);
    const title = clean(fragmentText(str(r.title)));
    if (!url || !title) return [];
    return [
      {
        url,
        title,
        snippet: fragmentText(str(r.description)),
        publishedAt: utc(str(r.page_age)),
        language: str(r.language),
        thumbnail: str(obj(r.thumbnail)?.src),
      },
    ];
  });
  const altered = str(obj(o.query)?.altered);
  return { hits, corrections: altered ? [altered] : [], more: obj(o.query)?.more_results_available === true };
}

export async function brave(ctx: SourceContext, key: string, q: BraveQuery, keepPage: (hits: Hit[]) => Hit[]): Promise<Found> {
  const kept: Hit[] = [];
  const seen = new Set<string>();
  let corrections: string[] | undefined;
  for (let offset = 0; offset <= MAX_OFFSET && kept.length < q.limit; offset++) {
    const query = new URLSearchParams({ q: q.q, count: String(Math.min(PAGE, q.limit)), offset: String(offset), result_filter: 'web' });
    if (q.country) query.set('country', q.country);
    if (q.language) query.set('search_lang', q.language.split('-')[0]);
    if (q.from || q.to) query.set('freshness', `${q.from ?? '1970-01-01'}to${q.to ?? new Date().toISOString().slice(0, 10)}`);
    else if (FRESHNESS[q.within]) query.set('freshness', FRESHNESS[q.within]!);
    const res = await ctx.http.request(
      { url: `${BRAVE_URL}?${query}`, headers: { accept: 'application/json', 'x-subscription-token': key }, maxBytes: 4 * 1024 * 1024, passStatuses: [401, 403, 422] },
      ctx.signal,
    );
    if (res.status === 401 || res.status === 403) {
      throw new QuarryError('sourceUnavailable', 'web: Brave refused the key in QUARRY_WEB_BRAVE_API_KEY', { retryable: false });
    }
    if (res.status === 422) throw new QuarryError('invalidRequest', 'query: Brave could not take this search (HTTP 422)', { retryable: false });
    const found = normaliseBrave(res.json());
    corrections ??= found.corrections;
    const fresh = found.hits.filter((h) => !seen.has(h.url));
    for (const h of fresh) seen.add(h.url);
    kept.push(...keepPage(fresh));
    if (!fresh.length || !found.more) break;
  }
  return { hits: kept, corrections };
}
