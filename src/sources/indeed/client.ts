/**
 * Indeed (notes/upstream-platforms.md §8). Search: the mobile app's GraphQL `jobSearch` on apis.indeed.com, asked
 * with the app's public API key, which the operator supplies (QUARRY_INDEED_API_KEY) since it is Indeed's own app's
 * key; the query asks only the fields JobSpy's Indeed scraper (speedyapply/JobSpy, MIT) asks, the one public
 * description of this interface. A job: its public `/viewjob?jk=` page, read through the schema.org JobPosting it
 * embeds for search engines (no key needed).
 */
import type { INDEED } from '../../catalogue/endpoints/indeed.js';
import type { InputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import type { SourceContext } from '../types.js';

export type SearchQuery = InputOf<typeof INDEED.search>;

export const GRAPHQL = 'https://apis.indeed.com/graphql';
const KEY_SETTING = 'QUARRY_INDEED_API_KEY';
/** The iOS app's headers as JobSpy sends them; both are settings since Indeed may start refusing an old version. */
export const DEFAULT_APP_INFO = 'appv=193.1; appid=com.indeed.jobsearch; osv=16.6.1; os=ios; dtype=phone';
export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Indeed App 193.1';
const ANSWER_MAX_BYTES = 8 * 1024 * 1024;
/** Results asked per GraphQL page (JobSpy's page size). */
export const GRAPHQL_PAGE = 100;

/** Indeed's web host for a country: www for the US, uk for Great Britain, the country code elsewhere. */
export function webHost(country: string): string {
  const c = country.toLowerCase();
  return `${c === 'us' ? 'www' : c === 'gb' ? 'uk' : c}.indeed.com`;
}

/** Attribute keys of the job types and of remote work (JobSpy's constant.py). */
export const JOB_TYPE_KEYS = { fullTime: 'CF3CP', partTime: '75GKK', contract: 'NJXCK', internship: 'VDTG7' } as const;
export const REMOTE_KEY = 'DSQF7';
/** `within` as hours since the posting reached Indeed. */
const WITHIN_HOURS = { day: 24, threeDays: 72, week: 168, twoWeeks: 336, month: 720 } as const;

const RANGE = '... on Range { min max } ... on AtLeast { min } ... on AtMost { max } ... on Exactly { value }';
const JOB_SELECTION =
  'key title sourceEmployerName datePublished dateOnIndeed description { html } ' +
  'location { countryCode admin1Code city formatted { long } } ' +
  `compensation { estimated { currencyCode baseSalary { unitOfWork range { ${RANGE} } } } baseSalary { unitOfWork range { ${RANGE} } } currencyCode } ` +
  'attributes { key label } ' +
  'employer { relativeCompanyPageUrl name dossier { images { squareLogoUrl } } } ' +
  'recruit { viewJobUrl }';

/** GraphQL string literals share JSON's escapes. */
const literal = (s: string): string => JSON.stringify(s);

/**
 * The filters Indeed applies itself. Its date filter cannot be combined with attribute filters (JobSpy), so with a
 * date window the job type and remote filters are applied to the answer instead (`clientSide`).
 */
export function filtersOf(q: SearchQuery): { graphql: string; clientSide: string[] } {
  const keys = [...(q.jobType ? [JOB_TYPE_KEYS[q.jobType]] : []), ...(q.remote ? [REMOTE_KEY] : [])];
  if (q.within !== 'all') {
    return { graphql: `filters: { date: { field: "dateOnIndeed", start: "${WITHIN_HOURS[q.within]}h" } }`, clientSide: keys };
  }
  if (!keys.length) return { graphql: '', clientSide: [] };
  const list = keys.map(literal).join(', ');
  return { graphql: `filters: { composite: { filters: [{ keyword: { field: "attributes", keys: [${list}] } }] } }`, clientSide: [] };
}

/** The `jobSearch` query of one page. */
export function searchQuery(q: SearchQuery, limit: number, cursor: string | undefined): string {
  const args = [
    q.query ? `what: ${literal(q.query)}` : '',
    q.location ? `location: { where: ${literal(q.location)}, radius: ${Math.round(q.radiusKm)}, radiusUnit: KILOMETERS }` : '',
    `limit: ${limit}`,
    cursor ? `cursor: ${literal(cursor)}` : '',
    `sort: ${q.sort === 'newest' ? 'DATE' : 'RELEVANCE'}`,
    filtersOf(q).graphql,
  ].filter(Boolean);
  return `query GetJobData { jobSearch(${args.join(' ')}) { pageInfo { nextCursor } results { trackingKey job { ${JOB_SELECTION} } } } }`;
}

/** One page of `jobSearch`; GraphQL `errors` are drift (the query no longer fits Indeed's schema). */
export async function searchPage(q: SearchQuery, limit: number, cursor: string | undefined, ctx: SourceContext): Promise<unknown> {
  const key = ctx.settings.API_KEY;
  if (!key) {
    throw new QuarryError('sourceUnavailable', `indeed: search needs the Indeed app's API key; the operator has not set ${KEY_SETTING}`, {
      retryable: false,
    });
  }
  const res = await ctx.http.request(
    {
      url: GRAPHQL,
      method: 'POST',
      idempotent: true,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'indeed-api-key': key,
        'indeed-co': q.country.toUpperCase(),
        'indeed-app-info': ctx.settings.APP_INFO || DEFAULT_APP_INFO,
        'user-agent': ctx.settings.USER_AGENT || DEFAULT_USER_AGENT,
      },
      body: JSON.stringify({ query: searchQuery(q, limit, cursor) }),
      maxBytes: ANSWER_MAX_BYTES,
      passStatuses: [400, 401],
    },
    ctx.signal,
  );
  if (res.status === 401) {
    throw new QuarryError('sourceUnavailable', `indeed: Indeed refused the API key in ${KEY_SETTING}`, { retryable: false });
  }
  const body = parseJson(res);
  const errors = (body as { errors?: unknown } | undefined)?.errors;
  if (res.status === 400 || (Array.isArray(errors) && errors.length)) {
    throw new QuarryError('sourceChanged', `indeed: the job search query no longer fits Indeed's GraphQL schema (${firstMessage(errors)})`);
  }
  return body;
}

function parseJson(res: UpstreamResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    throw new QuarryError('sourceChanged', 'indeed: the job search answer is not JSON');
  }
}

function firstMessage(errors: unknown): string {
  const m = Array.isArray(errors) ? (errors[0] as { message?: unknown } | undefined)?.message : undefined;
  return typeof m === 'string' ? m.slice(0, 200) : 'HTTP 400';
}

/** A job's public page on the country's Indeed site. */
export async function viewJob(host: string, key: string, ctx: SourceContext): Promise<{ html: string; url: string }> {
  const url = `https://${host}/viewjob?jk=${key}`;
  const res = await ctx.http.request(
    { url, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' }, maxBytes: ANSWER_MAX_BYTES, passStatuses: [404, 410] },
    ctx.signal,
  );
  if (res.status === 404 || res.status === 410) throw new QuarryError('notFound', 'job: no such job on Indeed');
  return { html: res.text(), url };
}
