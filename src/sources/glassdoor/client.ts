/**
 * Glassdoor as its web app reads it. Jobs: the site's GraphQL (`POST {site}/graph`, `JobSearchResultsQuery` with a
 * `gd-csrf-token` taken from a job page, a place resolved by `findPopularLocationAjax.htm`), the query and headers
 * JobSpy sends (speedyapply/JobSpy, MIT). An employer's profile and salaries: its Overview and Salary pages' Apollo
 * cache (`__NEXT_DATA__` `apolloCache`, or an `apolloState` assignment), as scrapfly/scrapfly-scrapers reads them.
 * Reviews: the employer-profile BFF (`POST /bff/employer-profile-mono/employer-reviews`) with the ids of the reviews
 * page, scrapfly's current reviews request. Glassdoor sits behind Cloudflare: its challenge is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import type { ApolloCache } from '../kit/apollo.js';
import { balancedJson, scriptJsonById, scripts } from '../kit/embedded.js';
import { arr, obj, objs, str, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const WEB = 'https://www.glassdoor.com';
const PAGE_MAX_BYTES = 12 * 1024 * 1024;
const API_MAX_BYTES = 4 * 1024 * 1024;
const PAGE_HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' };

/** The token JobSpy falls back to when a page carries none (`jobspy/glassdoor/constant.py`); a setting. */
export const DEFAULT_CSRF_TOKEN =
  'Ft6oHEWlRZrxDww95Cpazw:0pGUrkb2y3TyOpAIqF2vbPmUXoXVkD3oEGDVkvfeCerceQ5-n8mBg3BovySUIjmCPHCaW0H2nQVdqzbtsYqf4Q:wcqRqeegRUa9MVLJGyujVXB7vWFPjdaS1CtrrzJq-ok';

/** Glassdoor's site of each country (JobSpy's `Country` table). */
const SITES: Record<string, string> = {
  us: 'www.glassdoor.com', gb: 'www.glassdoor.co.uk', ca: 'www.glassdoor.ca', au: 'www.glassdoor.com.au', nz: 'www.glassdoor.co.nz',
  ie: 'www.glassdoor.ie', in: 'www.glassdoor.co.in', sg: 'www.glassdoor.sg', hk: 'www.glassdoor.com.hk', de: 'www.glassdoor.de',
  at: 'www.glassdoor.at', ch: 'de.glassdoor.ch', fr: 'www.glassdoor.fr', be: 'fr.glassdoor.be', nl: 'www.glassdoor.nl',
  es: 'www.glassdoor.es', it: 'www.glassdoor.it', mx: 'www.glassdoor.com.mx', br: 'www.glassdoor.com.br', ar: 'www.glassdoor.com.ar',
};
export const siteOf = (country: string): string => `https://${SITES[country.toLowerCase()] ?? SITES.us}`;

async function page(url: string, what: string, ctx: SourceContext): Promise<{ status: number; html: string; url: string }> {
  const res = await ctx.http.request({ url, headers: PAGE_HEADERS, maxBytes: PAGE_MAX_BYTES, passStatuses: [403, 404, 410, 429] }, ctx.signal);
  const html = res.text();
  refuseWalls('glassdoor', res.headers, html);
  if (res.status === 403 || res.status === 429) throw new QuarryError('sourceRefused', `glassdoor: Glassdoor refused the ${what} (HTTP ${res.status})`);
  return { status: res.status, html, url: res.url };
}

// Jobs.

/** The `gd-csrf-token` a job page carries (`"token": "…"`), else the setting or JobSpy's fallback. */
export async function csrfToken(site: string, ctx: SourceContext): Promise<string> {
  const { html } = await page(`${site}/Job/computer-science-jobs.htm`, 'job page', ctx);
  return /"token":\s*"([^"]{8,400})"/.exec(html)?.[1] ?? ctx.settings.CSRF_TOKEN ?? DEFAULT_CSRF_TOKEN;
}

/** A place as Glassdoor's location box resolves it: its id and type (CITY, STATE, COUNTRY). */
export async function resolveLocation(site: string, term: string, ctx: SourceContext): Promise<{ id: number; type: string }> {
  const q = new URLSearchParams({ maxLocationsToReturn: '10', term });
  const res = await ctx.http.request({ url: `${site}/findPopularLocationAjax.htm?${q}`, headers: { accept: 'application/json' }, maxBytes: API_MAX_BYTES, passStatuses: [403, 429] }, ctx.signal);
  refuseWalls('glassdoor', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `glassdoor: Glassdoor refused the location look-up (HTTP ${res.status})`);
  const items = arr(res.json());
  const first = obj(items[0]);
  if (!first) throw new QuarryError('notFound', `glassdoor: Glassdoor knows no place "${term}"`);
  const id = Number(first.locationId);
  const type = { C: 'CITY', S: 'STATE', N: 'COUNTRY' }[str(first.locationType) ?? ''] ?? str(first.locationType);
  if (!Number.isFinite(id) || !type) throw new QuarryError('sourceChanged', 'glassdoor: the location answer has no locationId or locationType');
  return { id, type };
}

/** JobSpy's `JobSearchResultsQuery`, asking only the fields its JobView fragment asks. */
export const JOB_SEARCH_QUERY = `query JobSearchResultsQuery($excludeJobListingIds: [Long!], $keyword: String, $locationId: Int, $locationType: LocationTypeEnum, $numJobsToShow: Int!, $pageCursor: String, $pageNumber: Int, $filterParams: [FilterParams], $originalPageUrl: String, $seoFriendlyUrlInput: String, $parameterUrlInput: String, $seoUrl: Boolean) {
  jobListings(contextHolder: {searchParams: {excludeJobListingIds: $excludeJobListingIds, keyword: $keyword, locationId: $locationId, locationType: $locationType, numPerPage: $numJobsToShow, pageCursor: $pageCursor, pageNumber: $pageNumber, filterParams: $filterParams, originalPageUrl: $originalPageUrl, seoFriendlyUrlInput: $seoFriendlyUrlInput, parameterUrlInput: $parameterUrlInput, seoUrl: $seoUrl, searchType: SR}}) {
    jobListings { ...JobView __typename }
    paginationCursors { cursor pageNumber __typename }
    totalJobsCount
    __typename
  }
}
fragment JobView on JobListingSearchResult {
  jobview {
    header { adOrderSponsorshipLevel ageInDays easyApply employer { id name shortName __typename } employerNameFromSearch jobLink jobTitleText locationName locationType payCurrency payPeriod payPeriodAdjustedPay { p10 p50 p90 __typename } rating sponsored __typename }
    job { description jobTitleText listingId __typename }
    overview { shortName squareLogoUrl __typename }
    __typename
  }
  __typename
}`;

export interface JobAsk {
  query?: string;
  location: { id: number; type: string };
  within: string;
  jobType?: string;
  easyApply: boolean;
}

const JOB_TYPES: Record<string, string> = { fullTime: 'fulltime', partTime: 'parttime', contract: 'contract', internship: 'internship', temporary: 'temporary' };
const DAYS: Record<string, number> = { day: 1, threeDays: 3, week: 7, month: 30 };

/** The GraphQL request of one results page (JobSpy's `_add_payload`), sorted by date as JobSpy asks. */
export function jobSearchBody(q: JobAsk, page: number, cursor: string | undefined, count: number): Obj[] {
  const days = DAYS[q.within];
  const filterParams: Obj[] = [];
  if (q.easyApply) filterParams.push({ filterKey: 'applicationType', values: '1' });
  if (days) filterParams.push({ filterKey: 'fromAge', values: String(days) });
  if (q.jobType) filterParams.push({ filterKey: 'jobType', values: JOB_TYPES[q.jobType] });
  return [
    {
      operationName: 'JobSearchResultsQuery',
      variables: {
        excludeJobListingIds: [],
        filterParams,
        keyword: q.query ?? '',
        numJobsToShow: count,
        locationType: q.location.type,
        locationId: q.location.id,
        parameterUrlInput: `IL.0,12_I${q.location.type}${q.location.id}`,
        pageNumber: page,
        pageCursor: cursor ?? null,
        fromage: days ?? null,
        sort: 'date',
      },
      query: JOB_SEARCH_QUERY,
    },
  ];
}

/** One page of `jobListings`. */
export async function jobSearch(site: string, token: string, body: Obj[], ctx: SourceContext): Promise<Obj> {
  const res = await ctx.http.request(
    {
      url: `${site}/graph`,
      method: 'POST',
      headers: {
        accept: '*/*',
        'content-type': 'application/json',
        'apollographql-client-name': 'job-search-next',
        'apollographql-client-version': ctx.settings.CLIENT_VERSION ?? '4.65.5',
        'gd-csrf-token': token,
        origin: site,
        referer: `${site}/`,
      },
      body: JSON.stringify(body),
      maxBytes: API_MAX_BYTES,
      idempotent: true,
      passStatuses: [403, 429],
    },
    ctx.signal,
  );
  refuseWalls('glassdoor', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `glassdoor: Glassdoor refused the job search (HTTP ${res.status})`);
  const answer = obj(arr(res.json())[0]) ?? obj(res.json()) ?? {};
  const errors = objs(answer.errors);
  if (errors.length) throw new QuarryError('sourceChanged', `glassdoor: GraphQL error: ${(str(errors[0].message) ?? 'unknown').slice(0, 200)}`);
  const listings = obj(obj(answer.data)?.jobListings);
  if (!listings) throw new QuarryError('sourceChanged', 'glassdoor: the answer carries no jobListings');
  return listings;
}

// Employer pages.

/** The Apollo cache a Glassdoor page embeds: `__NEXT_DATA__` props.pageProps.apolloCache, else `apolloState`. */
export function apolloCacheOf(html: string): ApolloCache | undefined {
  const fromNext = obj(obj(obj(obj(scriptJsonById(html, '__NEXT_DATA__'))?.props)?.pageProps)?.apolloCache);
  if (fromNext) return fromNext;
  for (const s of scripts(html)) {
    const at = s.text.indexOf('apolloState"');
    if (at < 0) continue;
    const brace = s.text.indexOf('{', at);
    const state = obj(balancedJson(s.text, brace));
    if (state) return state;
  }
  return undefined;
}

/** An employer page's Apollo cache; a missing employer is `notFound`. */
export async function employerPage(url: string, what: string, ctx: SourceContext): Promise<{ cache: ApolloCache; html: string }> {
  const { status, html } = await page(url, what, ctx);
  if (status === 404 || status === 410) throw new QuarryError('notFound', 'glassdoor: no such employer');
  const cache = apolloCacheOf(html);
  if (!cache) throw new QuarryError('sourceChanged', `glassdoor: the ${what} carries no Apollo cache`);
  return { cache, html };
}

export const overviewUrl = (id: string): string => `${WEB}/Overview/W-EI_IE${id}.htm`;
export const reviewsUrl = (id: string): string => `${WEB}/Reviews/W-Reviews-E${id}.htm`;
export const salariesUrl = (id: string, page: number): string => `${WEB}/Salary/W-Salaries-E${id}${page > 1 ? `_P${page}` : ''}.htm`;

/** The employer and dynamic profile ids the reviews page's scripts carry (`"employer":{"id":…,"profileId":…}`). */
export async function reviewIds(id: string, ctx: SourceContext): Promise<{ employerId: number; profileId: number }> {
  const { status, html } = await page(reviewsUrl(id), 'reviews page', ctx);
  if (status === 404 || status === 410) throw new QuarryError('notFound', `glassdoor: no employer ${id}`);
  for (const s of scripts(html)) {
    if (!s.text.includes('profileId')) continue;
    const m = /"employer"\s*:\s*(\{[^}]+\})/.exec(s.text);
    const employer = m ? obj(safeJson(m[1])) : undefined;
    const employerId = Number(employer?.id);
    const profileId = Number(employer?.profileId);
    if (Number.isFinite(employerId) && Number.isFinite(profileId)) return { employerId, profileId };
  }
  throw new QuarryError('sourceChanged', 'glassdoor: the reviews page carries no employer id and profileId');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One page of reviews from the employer-profile BFF, newest first (`data.employerReviews`). */
export async function employerReviews(ids: { employerId: number; profileId: number }, page: number, size: number, ctx: SourceContext): Promise<Obj> {
  const body = {
    applyDefaultCriteria: true,
    employerId: ids.employerId,
    employmentStatuses: ['REGULAR', 'PART_TIME'],
    jobTitle: null,
    goc: null,
    location: {},
    defaultLanguage: 'eng',
    language: 'eng',
    mlHighlightSearch: null,
    onlyCurrentEmployees: false,
    overallRating: null,
    pageSize: size,
    page,
    preferredTldId: 0,
    reviewCategories: [],
    sort: 'DATE',
    textSearch: '',
    worldwideFilter: false,
    dynamicProfileId: ids.profileId,
    useRowProfileTldForRatings: true,
    enableKeywordSearch: true,
  };
  const res = await ctx.http.request(
    {
      url: `${WEB}/bff/employer-profile-mono/employer-reviews`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: WEB, referer: reviewsUrl(String(ids.employerId)) },
      body: JSON.stringify(body),
      maxBytes: API_MAX_BYTES,
      idempotent: true,
      passStatuses: [403, 429],
    },
    ctx.signal,
  );
  refuseWalls('glassdoor', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `glassdoor: Glassdoor refused the reviews request (HTTP ${res.status})`);
  const reviews = obj(obj(obj(res.json())?.data)?.employerReviews);
  if (!reviews) throw new QuarryError('sourceChanged', 'glassdoor: the reviews answer carries no employerReviews');
  return reviews;
}
