/**
 * Upwork's public job search as its visitor web app reads it: the GraphQL API (`POST www.upwork.com/api/graphql/v1`)
 * authorised with the visitor token Upwork sets on any page (`visitor_gql_token` cookie, `oauth2v2_…`), as
 * asaniczka/Upwork-Job-Scraper and the clients adapted from it call it: `VisitorJobSearch` (`visitorJobSearchV1`,
 * offset paging) and `GetVisitorJobDetails` (`jobPubDetails`). The operator may set the token instead of letting
 * Quarry take one from the home page. Upwork sits behind Cloudflare: its challenge is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { obj, objs, str, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const WEB = 'https://www.upwork.com';
export const GRAPHQL = `${WEB}/api/graphql/v1`;
const MAX_BYTES = 6 * 1024 * 1024;
const TOKEN_SETTING = 'QUARRY_UPWORK_VISITOR_TOKEN';

/** The visitor token: the operator's setting, else the cookie Upwork's home page sets. */
export async function visitorToken(ctx: SourceContext): Promise<{ token: string; fromSetting: boolean }> {
  if (ctx.settings.VISITOR_TOKEN) return { token: ctx.settings.VISITOR_TOKEN, fromSetting: true };
  const res = await ctx.http.request({ url: `${WEB}/`, headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.9' }, maxBytes: 4 * 1024 * 1024, passStatuses: [403, 429] }, ctx.signal);
  refuseWalls('upwork', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `upwork: Upwork refused the home page (HTTP ${res.status})`);
  const token = /(?:^|[\s,;])visitor_gql_token=(oauth2v2_[A-Za-z0-9_-]{8,200})/.exec(res.headers['set-cookie'] ?? '')?.[1];
  if (!token) throw new QuarryError('sourceRefused', `upwork: Upwork set no visitor token; set ${TOKEN_SETTING}`);
  return { token, fromSetting: false };
}

const SEARCH_QUERY = `query VisitorJobSearch($requestVariables: VisitorJobSearchV1Request!) {
  search { universalSearchNuxt { visitorJobSearchV1(request: $requestVariables) {
    paging { total offset count }
    results {
      id title description
      ontologySkills { uid prefLabel }
      jobTile { job {
        id ciphertext: cipherText jobType weeklyRetainerBudget hourlyBudgetMax hourlyBudgetMin hourlyEngagementType contractorTier
        sourcingTimestamp createTime publishTime
        hourlyEngagementDuration { rid label weeks }
        fixedPriceAmount { isoCurrencyCode amount }
        fixedPriceEngagementDuration { id rid label weeks }
      } }
    }
  } } }
}`;

const JOB_QUERY = `query GetVisitorJobDetails($id: String!, $isLoggedIn: Boolean) {
  jobPubDetails(jobId: $id, isLoggedIn: $isLoggedIn) {
    id
    opening {
      id postedOn description urlToShorten
      duration { label }
      budget { amount currencyCode }
      extendedBudgetInfo { hourlyBudgetMin hourlyBudgetMax amount currencyCode }
      info { title type contractorTier }
      clientActivity { totalApplicants totalInterviews hireRate }
    }
    buyer { numReviews rating totalSpent totalHires stats { score } location { country } }
  }
}`;

async function graphql(alias: string, body: Obj, token: { token: string; fromSetting: boolean }, ctx: SourceContext): Promise<Obj> {
  const res = await ctx.http.request(
    {
      url: `${GRAPHQL}?alias=${alias}`,
      method: 'POST',
      headers: {
        accept: '*/*',
        'content-type': 'application/json',
        authorization: `Bearer ${token.token}`,
        'x-upwork-accept-language': 'en-US',
        origin: WEB,
        referer: `${WEB}/nx/search/jobs/`,
      },
      body: JSON.stringify(body),
      maxBytes: MAX_BYTES,
      idempotent: true,
      passStatuses: [401, 403, 429],
    },
    ctx.signal,
  );
  refuseWalls('upwork', res.headers, res.body);
  if (res.status === 401) {
    if (token.fromSetting) throw new QuarryError('sourceUnavailable', `upwork: Upwork refused the visitor token; renew ${TOKEN_SETTING}`, { retryable: false });
    throw new QuarryError('sourceRefused', 'upwork: Upwork refused the visitor token it had just issued (HTTP 401)');
  }
  if (res.status !== 200) throw new QuarryError('sourceRefused', `upwork: Upwork refused the request (HTTP ${res.status})`);
  const answer = obj(res.json()) ?? {};
  const errors = objs(answer.errors);
  if (errors.length && !obj(answer.data)) {
    const message = (str(errors[0].message) ?? 'unknown').slice(0, 200);
    if (/not ?found|does not exist/i.test(message)) throw new QuarryError('notFound', `upwork: ${message}`);
    throw new QuarryError('sourceChanged', `upwork: GraphQL error: ${message}`);
  }
  return obj(answer.data) ?? {};
}

export interface SearchAsk {
  query?: string;
  sort: 'relevance' | 'newest';
}

/** One page of `visitorJobSearchV1` from `offset`. */
export async function searchPage(q: SearchAsk, offset: number, count: number, token: { token: string; fromSetting: boolean }, ctx: SourceContext): Promise<Obj> {
  // `recency` is the sort the known clients send; relevance is Upwork's order when none is named.
  const requestVariables: Obj = { ...(q.sort === 'newest' ? { sort: 'recency' } : {}), highlight: false, paging: { offset, count } };
  if (q.query) requestVariables.userQuery = q.query;
  const data = await graphql('visitorJobSearch', { query: SEARCH_QUERY, variables: { requestVariables } }, token, ctx);
  const search = obj(obj(obj(data.search)?.universalSearchNuxt)?.visitorJobSearchV1);
  if (!search || !Array.isArray(search.results)) throw new QuarryError('sourceChanged', 'upwork: the search answered no visitorJobSearchV1 results');
  return search;
}

/** One job post's `jobPubDetails`; a job Upwork does not show is `notFound`. */
export async function jobDetails(ciphertext: string, token: { token: string; fromSetting: boolean }, ctx: SourceContext): Promise<Obj> {
  const data = await graphql('gql-query-get-visitor-job-details', { query: JOB_QUERY, variables: { id: ciphertext, isLoggedIn: false } }, token, ctx);
  const details = obj(data.jobPubDetails);
  if (!details) throw new QuarryError('notFound', `upwork: no public job ${ciphertext}`);
  return details;
}
