/**
 * LinkedIn's guest interface (notes/upstream-platforms.md §7): the jobs-guest search and posting fragments, the GEO
 * typeahead the job search page resolves places with, the public company, profile and post pages, and the Ad
 * Library's server-rendered search page, its paging fragment and an ad's page. No account, no cookies. Login walls (a redirect to /authwall or /login, HTTP 999) are `sourceRefused`, never an empty answer.
 */
import type { LINKEDIN } from '../../catalogue/endpoints/linkedin.js';
import type { InputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import type { SourceContext } from '../types.js';
import { adUrl, WEB } from './refs.js';

export type JobSearchQuery = InputOf<typeof LINKEDIN.jobsSearch>;
export type AdSearchQuery = InputOf<typeof LINKEDIN.adsSearch>;

const PAGE_MAX_BYTES = 4 * 1024 * 1024;
const FRAGMENT_MAX_BYTES = 2 * 1024 * 1024;
/** LinkedIn's refusal status for clients it takes for bots. */
const REFUSED = 999;
const WALL_PATHS = /^\/(?:authwall|login|uas\/login|checkpoint|signup)(?:[/?]|$)/;
const HTML_ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

/** A sign-in wall: the answer (or a redirect on the way) landed on LinkedIn's authwall, login or signup pages. */
function walled(res: UpstreamResponse): boolean {
  return [res.url, ...(res.redirects ?? []).map((r) => r.url)].some((u) => WALL_PATHS.test(new URL(u).pathname));
}

/**
 * One guest GET. 404 and 410 are `notFound` (naming `what`), 999 and walls `sourceRefused`; 403 and 429 are mapped
 * by the upstream client (`sourceRefused`).
 */
export async function guestGet(ctx: SourceContext, url: string, what: string, maxBytes = PAGE_MAX_BYTES, accept = HTML_ACCEPT): Promise<UpstreamResponse> {
  const res = await ctx.http.request(
    { url, headers: { accept, 'accept-language': 'en-US,en;q=0.9' }, maxBytes, passStatuses: [404, 410, REFUSED] },
    ctx.signal,
  );
  if (res.status === REFUSED) throw new QuarryError('sourceRefused', 'linkedin: upstream refused the request (HTTP 999)');
  if (walled(res)) throw new QuarryError('sourceRefused', 'linkedin: upstream answered with its sign-in wall');
  if (res.status === 404 || res.status === 410) throw new QuarryError('notFound', `${what}: not found on LinkedIn`);
  return res;
}

/** The guest job search's place id for a place name (the first GEO hit), or undefined when LinkedIn knows none. */
export async function geoIdFor(location: string, ctx: SourceContext): Promise<string | undefined> {
  const q = new URLSearchParams({ origin: 'jserp', typeaheadType: 'GEO', geoTypes: 'POPULATED_PLACE,ADMIN_DIVISION_2', query: location });
  const res = await guestGet(ctx, `${WEB}/jobs-guest/api/typeaheadHits?${q}`, 'location', 256 * 1024, 'application/json');
  const hits = res.json<unknown>();
  if (!Array.isArray(hits)) throw new QuarryError('sourceChanged', 'linkedin: the place typeahead answer is not a list');
  const first = hits.find((h) => h && typeof h === 'object' && /^\d{1,15}$/.test(String((h as { id?: unknown }).id ?? '')));
  return first ? String((first as { id: unknown }).id) : undefined;
}

const JOB_TYPES = { fullTime: 'F', partTime: 'P', contract: 'C', temporary: 'T', internship: 'I' } as const;
const EXPERIENCE = { internship: '1', entry: '2', associate: '3', midSenior: '4', director: '5', executive: '6' } as const;
const WORKPLACE = { onsite: '1', remote: '2', hybrid: '3' } as const;
const POSTED_WITHIN = { day: 'r86400', week: 'r604800', month: 'r2592000' } as const;

/** The guest search's query for one page starting at `start` (notes §7 mappings). */
export function searchParams(q: JobSearchQuery, geoId: string | undefined, start: number): URLSearchParams {
  const p = new URLSearchParams();
  if (q.query) p.set('keywords', q.query);
  if (q.location) p.set('location', q.location);
  if (geoId) p.set('geoId', geoId);
  if (q.within !== 'all') p.set('f_TPR', POSTED_WITHIN[q.within]);
  if (q.jobTypes.length) p.set('f_JT', q.jobTypes.map((t) => JOB_TYPES[t]).join(','));
  if (q.experience.length) p.set('f_E', q.experience.map((e) => EXPERIENCE[e]).join(','));
  if (q.workplace.length) p.set('f_WT', q.workplace.map((w) => WORKPLACE[w]).join(','));
  if (q.companyIds.length) p.set('f_C', q.companyIds.join(','));
  if (q.easyApply) p.set('f_AL', 'true');
  if (q.sort === 'newest') p.set('sortBy', 'DD');
  p.set('start', String(start));
  return p;
}

/** One page of search cards (an HTML fragment of `<li>`s; empty past the last result). */
export async function searchPage(q: JobSearchQuery, geoId: string | undefined, start: number, ctx: SourceContext): Promise<string> {
  const url = `${WEB}/jobs-guest/jobs/api/seeMoreJobPostings/search?${searchParams(q, geoId, start)}`;
  return (await guestGet(ctx, url, 'jobs', FRAGMENT_MAX_BYTES)).text();
}

/** The guest posting fragment of one job. */
export async function jobPosting(id: string, ctx: SourceContext): Promise<string> {
  return (await guestGet(ctx, `${WEB}/jobs-guest/jobs/api/jobPosting/${id}`, 'job', FRAGMENT_MAX_BYTES)).text();
}

/** A public page (company, profile, post) and the address it was finally answered from. */
export async function publicPage(url: string, what: string, ctx: SourceContext): Promise<{ html: string; url: string }> {
  const res = await guestGet(ctx, url, what);
  return { html: res.text(), url: res.url };
}

// ---- the Ad Library --------------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const bad = (field: string, what: string) => new QuarryError('invalidRequest', `${field}: ${what}`, { retryable: false });

/**
 * The Ad Library search's query, in the names its search form sends (`keyword`, `accountOwner`, `payer`,
 * `countries` as one comma list of upper-case codes, `dateOption`, `startdate`/`enddate`). `within` month and year
 * are LinkedIn's "last 30 days" and "this year"; `from`/`to` are its custom range, whose two ends it wants together:
 * a missing `to` is today, a missing `from` a year before `to`.
 */
export function adSearchParams(q: AdSearchQuery, now = Date.now()): URLSearchParams {
  if (!q.query && !q.advertiser && !q.paidBy) throw bad('query', 'give query, advertiser or paidBy: LinkedIn searches its Ad Library by at least one');
  const p = new URLSearchParams();
  if (q.query) p.set('keyword', q.query);
  if (q.advertiser) p.set('accountOwner', q.advertiser);
  if (q.paidBy) p.set('payer', q.paidBy);
  const countries = [...new Set(q.countries.map((c) => c.toUpperCase()))];
  if (countries.length) p.set('countries', countries.join(','));
  if (q.from || q.to) {
    if (q.within !== 'all') throw bad('within', 'give within or from/to, not both');
    const to = q.to ?? day(now);
    const from = q.from ?? day(Date.parse(`${to}T00:00:00Z`) - 364 * DAY_MS);
    if (from > to) throw bad('from', 'must not be after to');
    p.set('dateOption', 'custom-date-range');
    p.set('startdate', from);
    p.set('enddate', to);
  } else if (q.within === 'month') p.set('dateOption', 'last-30-days');
  else if (q.within === 'year') p.set('dateOption', 'current-year');
  return p;
}

/**
 * One page of Ad Library results: the search page itself, or, with LinkedIn's `paginationToken`, the fragment its
 * "load more" asks (`/ad-library/searchPaginationFragment`, the same query and the token).
 */
export async function adSearchPage(params: URLSearchParams, token: string | undefined, ctx: SourceContext): Promise<string> {
  const q = new URLSearchParams(params);
  if (token) q.set('paginationToken', token);
  const url = `${WEB}/ad-library/${token ? 'searchPaginationFragment' : 'search'}?${q}`;
  return (await guestGet(ctx, url, 'ads', PAGE_MAX_BYTES)).text();
}

/** An ad's page in the Ad Library. */
export async function adPage(id: string, ctx: SourceContext): Promise<string> {
  return (await guestGet(ctx, adUrl(id), 'ad')).text();
}
