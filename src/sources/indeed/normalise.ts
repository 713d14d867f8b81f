/**
 * Indeed answers → job records in the shared job vocabulary: `jobSearch` results (the fields JobSpy's query asks) and
 * a posting page's schema.org JobPosting (https://schema.org/JobPosting, as Google documents it for job search:
 * https://developers.google.com/search/docs/appearance/structured-data/job-posting). Pure functions.
 */
import type { INDEED_JOB, INDEED_JOB_RESULT } from '../../catalogue/endpoints/indeed.js';
import type { TypeOf } from '../../catalogue/types.js';
import { jsonLd } from '../kit/embedded.js';
import { arr, changed, compact, isObj, isoFromMillis, isoFromText, readsOf, num, obj, objs, str, type Obj } from '../kit/read.js';
import { blockText } from '../kit/web/block-text.js';
import { parseHtml } from '../kit/web/dom.js';
import { JOB_TYPE_KEYS, REMOTE_KEY } from './client.js';

export type JobResult = TypeOf<typeof INDEED_JOB_RESULT>;
export type Job = TypeOf<typeof INDEED_JOB>;
type Salary = NonNullable<Job['salary']>;

const { need } = readsOf('indeed');

/** A posting's HTML description as plain text with its line structure (the kit's `blockText`). */
export const htmlText = (html: string | undefined): string | undefined => (html ? blockText(parseHtml(html)) : undefined);

const PERIODS: Record<string, string> = { HOUR: 'hour', DAY: 'day', WEEK: 'week', MONTH: 'month', YEAR: 'year' };
const EMPLOYMENT_BY_KEY: Record<string, string> = {
  ...Object.fromEntries(Object.entries(JOB_TYPE_KEYS).map(([type, key]) => [key, type])),
  T9BXE: 'contract',
  T65DZ: 'contract',
  '4HKF7': 'temporary',
  CJWTS: 'temporary',
};
const HYBRID_KEY = 'PAXZC';

/** `compensation`: the employer's own base salary, else Indeed's estimate. */
function salaryOf(comp: Obj | undefined): Salary | undefined {
  if (!comp) return undefined;
  const estimated = obj(comp.estimated);
  const base = obj(comp.baseSalary) ?? obj(estimated?.baseSalary);
  const range = obj(base?.range);
  const currency = str(comp.currencyCode) ?? str(estimated?.currencyCode);
  if (!range || !currency) return undefined;
  const exactly = num(range.value);
  const min = num(range.min) ?? exactly;
  const max = num(range.max) ?? exactly;
  if (min === undefined && max === undefined) return undefined;
  return compact({ currency, min, max, period: PERIODS[str(base?.unitOfWork)?.toUpperCase() ?? ''] });
}

const employment = (keys: string[]): string | undefined => keys.map((k) => EMPLOYMENT_BY_KEY[k]).find(Boolean);
const workplace = (keys: string[]): string | undefined => (keys.includes(REMOTE_KEY) ? 'remote' : keys.includes(HYBRID_KEY) ? 'hybrid' : undefined);

/** One `jobSearch` result's `job`. `host` is the country's Indeed site. */
export function jobResult(job: Obj, host: string): JobResult {
  const key = need(str(job.key), 'a search result without its job key');
  const employer = obj(job.employer);
  const location = obj(job.location);
  const keys = objs(job.attributes).map((a) => str(a.key)).filter((k): k is string => !!k);
  const companyName = str(employer?.name) ?? str(job.sourceEmployerName);
  const companyPath = str(employer?.relativeCompanyPageUrl);
  const recruitUrl = str(obj(job.recruit)?.viewJobUrl);
  return compact({
    type: 'job' as const,
    id: key,
    url: `https://${host}/viewjob?jk=${key}`,
    title: need(str(job.title), `job ${key} without a title`),
    company: companyName
      ? compact({
          name: companyName,
          url: companyPath?.startsWith('/') ? `https://${host}${companyPath}` : undefined,
          logo: str(obj(obj(obj(employer?.dossier)?.images))?.squareLogoUrl),
        })
      : undefined,
    location: location
      ? compact({
          full: str(obj(location.formatted)?.long),
          city: str(location.city),
          state: str(location.admin1Code),
          country: str(location.countryCode),
        })
      : undefined,
    description: htmlText(str(obj(job.description)?.html)),
    salary: salaryOf(obj(job.compensation)),
    postedAt: isoFromMillis(job.datePublished) ?? isoFromMillis(job.dateOnIndeed),
    employmentType: employment(keys),
    workplace: workplace(keys),
    applyUrl: recruitUrl && /^https?:\/\//i.test(recruitUrl) ? recruitUrl : undefined,
  });
}

export interface SearchPage {
  jobs: { job: JobResult; keys: string[]; salaryMax?: number }[];
  next?: string;
}

/** A `jobSearch` answer: `{data: {jobSearch: {pageInfo: {nextCursor}, results: [{job}]}}}`. */
export function searchResults(body: unknown, host: string): SearchPage {
  const search = obj(obj(obj(body)?.data)?.jobSearch);
  const results = search?.results;
  if (!search || !Array.isArray(results) || !isObj(search.pageInfo)) throw changed('indeed', 'jobSearch answer without results and pageInfo');
  const jobs = results.map((r) => {
    const job = obj(obj(r)?.job);
    if (!job) throw changed('indeed', 'a jobSearch result without its job');
    const keys = objs(job.attributes).map((a) => str(a.key)).filter((k): k is string => !!k);
    const record = jobResult(job, host);
    return { job: record, keys, salaryMax: record.salary?.max ?? record.salary?.min };
  });
  const next = str(search.pageInfo.nextCursor);
  return next ? { jobs, next } : { jobs };
}

// ---- the posting page's JobPosting ------------------------------------------------------------------------------

const EMPLOYMENT_TYPES: Record<string, string> = {
  FULL_TIME: 'fullTime', PART_TIME: 'partTime', CONTRACTOR: 'contract', TEMPORARY: 'temporary', INTERN: 'internship',
  VOLUNTEER: 'volunteer', PER_DIEM: 'perDiem', OTHER: 'other',
};

function postingSalary(v: unknown): Salary | undefined {
  const amount = obj(v);
  const value = obj(amount?.value);
  const currency = str(amount?.currency);
  if (!currency || !value) return undefined;
  const exactly = num(value.value);
  const min = num(value.minValue) ?? exactly;
  const max = num(value.maxValue) ?? exactly;
  if (min === undefined && max === undefined) return undefined;
  return compact({ currency, min, max, period: PERIODS[str(value.unitText)?.toUpperCase() ?? ''] });
}

function placeOf(v: unknown): Job['location'] {
  const place = obj(Array.isArray(v) ? v[0] : v);
  const a = obj(place?.address);
  if (!a) return undefined;
  const country = typeof a.addressCountry === 'string' ? str(a.addressCountry) : str(obj(a.addressCountry)?.name);
  const parts = { street: str(a.streetAddress), city: str(a.addressLocality), state: str(a.addressRegion), postalCode: str(a.postalCode), country };
  const full = [parts.street, parts.city, parts.state, parts.postalCode, parts.country].filter(Boolean).join(', ');
  return compact({ full: full || undefined, ...parts });
}

/** A date as written when it is a calendar day, else ISO 8601. */
const when = (v: unknown): string | undefined => {
  const s = str(v);
  return s && /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : isoFromText(s);
};

/** The posting page (`/viewjob?jk=`) through its schema.org JobPosting. */
export function jobPosting(html: string, key: string, url: string): Job {
  const posting = jsonLd(html).find((o) => arr(o['@type']).concat([o['@type']]).includes('JobPosting'));
  if (!posting) throw changed('indeed', 'job page without its schema.org JobPosting');
  const org = obj(Array.isArray(posting.hiringOrganization) ? posting.hiringOrganization[0] : posting.hiringOrganization);
  const types = arr(posting.employmentType).concat(typeof posting.employmentType === 'string' ? [posting.employmentType] : []);
  const logo = org?.logo;
  return compact({
    type: 'job' as const,
    id: key,
    url,
    title: need(str(posting.title), 'JobPosting without a title'),
    company: compact({
      name: need(str(org?.name), 'JobPosting without its hiring organization'),
      url: str(org?.sameAs) ?? str(org?.url),
      logo: typeof logo === 'string' ? str(logo) : str(obj(logo)?.contentUrl) ?? str(obj(logo)?.url),
    }),
    location: placeOf(posting.jobLocation),
    description: htmlText(str(posting.description)),
    salary: postingSalary(posting.baseSalary),
    postedAt: when(posting.datePosted),
    expiresAt: when(posting.validThrough),
    employmentType: types.map((t) => EMPLOYMENT_TYPES[String(t).toUpperCase()]).find(Boolean),
    workplace: str(posting.jobLocationType)?.toUpperCase() === 'TELECOMMUTE' ? 'remote' : undefined,
  });
}
