/**
 * Glassdoor's job listings, employer cache entities, reviews and salary estimates as the shared work records. Pure
 * functions. Ratings are on 5; pay periods (ANNUAL, HOURLY, MONTHLY, WEEKLY, DAILY) become `year`, `hour`, `month`,
 * `week`, `day`; review times carry no zone and are read as UTC; a job's date is today less Glassdoor's age in days.
 */
import type { GLASSDOOR_COMPANY, GLASSDOOR_JOB, GLASSDOOR_REVIEW, GLASSDOOR_SALARY } from '../../catalogue/endpoints/glassdoor.js';
import type { TypeOf } from '../../catalogue/types.js';
import { entitiesOf, resolveRefs, type ApolloCache } from '../kit/apollo.js';
import { htmlText } from '../kit/html-text.js';
import { changed, compact, int, isObj, need, num, obj, objs, str, type Obj } from '../kit/read.js';

export type GlassdoorJob = TypeOf<typeof GLASSDOOR_JOB>;
export type GlassdoorCompany = TypeOf<typeof GLASSDOOR_COMPANY>;
export type GlassdoorReview = TypeOf<typeof GLASSDOOR_REVIEW>;
export type GlassdoorSalary = TypeOf<typeof GLASSDOOR_SALARY>;

const PERIODS: Record<string, string> = { ANNUAL: 'year', YEARLY: 'year', HOURLY: 'hour', MONTHLY: 'month', WEEKLY: 'week', DAILY: 'day' };
const idOf = (v: unknown): string | undefined => str(v) ?? (typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
/** Glassdoor writes "no rating" as a negative number (-0.1). */
const rating5 = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && n > 0 && n <= 5 ? n : undefined;
};
const share = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && n >= 0 && n <= 1 ? n : undefined;
};

// Jobs.

export function jobs(listings: Obj, site: string, now = Date.now()): { jobs: GlassdoorJob[]; total?: number; cursors: Map<number, string> } {
  if (!Array.isArray(listings.jobListings)) throw changed('glassdoor', 'jobListings without a list');
  const cursors = new Map<number, string>();
  for (const c of objs(listings.paginationCursors)) {
    const n = int(c.pageNumber);
    if (n !== undefined && str(c.cursor)) cursors.set(n, str(c.cursor)!);
  }
  return { jobs: objs(listings.jobListings).map((l) => job(l, site, now)), total: int(listings.totalJobsCount), cursors };
}

function job(listing: Obj, site: string, now: number): GlassdoorJob {
  const view = need(obj(listing.jobview), 'glassdoor', 'job listing without jobview');
  const header = obj(view.header) ?? {};
  const body = obj(view.job) ?? {};
  const employer = obj(header.employer) ?? {};
  const id = need(idOf(body.listingId), 'glassdoor', 'job without listingId');
  const employerId = idOf(employer.id);
  const pay = obj(header.payPeriodAdjustedPay);
  const period = PERIODS[str(header.payPeriod) ?? ''];
  const age = int(header.ageInDays);
  const place = str(header.locationName);
  const [city, state] = place && place !== 'Remote' ? place.split(/,\s*/) : [];
  return compact({
    type: 'job' as const,
    id,
    url: `${site}/job-listing/j?jl=${id}`,
    title: need(str(body.jobTitleText) ?? str(header.jobTitleText), 'glassdoor', 'job without a title'),
    description: htmlText(str(body.description)),
    company: compact({
      name: need(str(header.employerNameFromSearch) ?? str(employer.name) ?? str(employer.shortName), 'glassdoor', 'job without an employer name'),
      id: employerId,
      url: employerId ? `${site}/Overview/W-EI_IE${employerId}.htm` : undefined,
      logo: str(obj(view.overview)?.squareLogoUrl),
    }),
    location: place ? compact({ full: place, city: place === 'Remote' ? undefined : city, state: place === 'Remote' ? undefined : state }) : undefined,
    workplace: place === 'Remote' ? 'remote' : undefined,
    salary: pay && period && (num(pay.p10) !== undefined || num(pay.p90) !== undefined)
      ? compact({ currency: str(header.payCurrency) ?? 'USD', min: num(pay.p10), max: num(pay.p90), period })
      : undefined,
    postedAt: age !== undefined && age >= 0 ? new Date(now - age * 86_400_000).toISOString().slice(0, 10) : undefined,
    isEasyApply: header.easyApply === true ? true : undefined,
    companyRating: rating5(header.rating),
    isSponsored: header.sponsored === true ? true : undefined,
  }) as GlassdoorJob;
}

// An employer.

export function company(cache: ApolloCache, id: string): GlassdoorCompany {
  const employer = entitiesOf(cache, 'Employer').find((e) => idOf(e.id) === id) ?? undefined;
  const e = need(employer, 'glassdoor', `the page's cache holds no Employer:${id}`);
  const ratings = obj(e.ratings) ?? {};
  // The reviews summary (`employerReviews…` in ROOT_QUERY) carries the full ratings when the employer's own is thin.
  const summary = Object.entries(obj(cache.ROOT_QUERY) ?? {}).flatMap(([k, v]) => (k.startsWith('employerReviews') ? [obj(resolveRefs(cache, v))] : []))[0];
  const full = obj(summary?.ratings) ?? ratings;
  const counts = obj(e.counts) ?? {};
  const ceo = obj(e.ceo) ?? obj(full.ratedCeo);
  const overall = rating5(full.overallRating ?? ratings.overallRating);
  const aspects: [string, unknown][] = [
    ['Culture and values', full.cultureAndValuesRating],
    ['Diversity and inclusion', full.diversityAndInclusionRating],
    ['Work/life balance', full.workLifeBalanceRating],
    ['Senior management', full.seniorManagementRating],
    ['Compensation and benefits', full.compensationAndBenefitsRating],
    ['Career opportunities', full.careerOpportunitiesRating],
  ];
  const links = obj(e.links) ?? {};
  const logo = str(e['squareLogoUrl({"size":"LARGE"})']) ?? str(e.squareLogoUrl);
  return compact({
    type: 'company' as const,
    id,
    url: str(links.overviewUrl) ? new URL(str(links.overviewUrl)!, 'https://www.glassdoor.com').href : `https://www.glassdoor.com/Overview/W-EI_IE${id}.htm`,
    name: need(str(e.shortName) ?? str(e.name), 'glassdoor', 'employer without a name'),
    avatar: logo,
    banner: str(obj(e.coverPhoto)?.hiResUrl),
    website: str(e.website),
    location: str(e.headquarters),
    rating: overall !== undefined ? compact({ value: overall, max: 5, count: int(full.reviewCount) ?? int(counts.reviewCount) }) : undefined,
    subratings: aspects.flatMap(([name, v]) => (rating5(v) !== undefined ? [{ name, value: rating5(v)! }] : [])),
    recommendShare: share(full.recommendToFriendRating),
    ceoApprovalShare: share(full.ceoRating),
    businessOutlookShare: share(full.businessOutlookRating),
    ceo: str(ceo?.name) ? compact({ name: str(ceo!.name)!, title: str(ceo!.title), avatar: str(ceo!['photoUrl({"size":"LARGE"})']) ?? str(ceo!.photoUrl) }) : undefined,
    reviews: int(counts.reviewCount),
    salaries: int(counts.salaryCount),
    interviews: int(counts.interviewCount),
    benefits: int(counts.benefitCount),
    photos: int(counts.photoCount),
    jobs: int(obj(counts.globalJobCount)?.jobCount),
  }) as GlassdoorCompany;
}

// Reviews.

const SUBRATINGS: [string, string][] = [
  ['Career opportunities', 'ratingCareerOpportunities'],
  ['Compensation and benefits', 'ratingCompensationAndBenefits'],
  ['Culture and values', 'ratingCultureAndValues'],
  ['Diversity and inclusion', 'ratingDiversityAndInclusion'],
  ['Senior management', 'ratingSeniorLeadership'],
  ['Work/life balance', 'ratingWorkLifeBalance'],
];

const lower = (v: unknown): string | undefined => str(v)?.toLowerCase();
/** A time without a zone, as UTC. */
function utc(v: unknown): string | undefined {
  const s = str(v);
  if (!s || !/^\d{4}-\d{2}-\d{2}/.test(s)) return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export function reviews(answer: Obj, employerId: string): { reviews: GlassdoorReview[]; pages?: number; total?: number } {
  if (!Array.isArray(answer.reviews)) throw changed('glassdoor', 'employerReviews without reviews');
  return {
    reviews: objs(answer.reviews).map((r) => {
      const id = need(idOf(r.reviewId), 'glassdoor', 'review without reviewId');
      const recommend = str(r.ratingRecommendToFriend);
      return compact({
        type: 'review' as const,
        id,
        rating: need(rating5(r.ratingOverall), 'glassdoor', 'review without ratingOverall'),
        ratingMax: 5,
        title: str(r.summary),
        pros: str(r.pros),
        cons: str(r.cons),
        advice: str(r.advice),
        createdAt: utc(r.reviewDateTime),
        language: str(r.languageId),
        helpful: int(r.countHelpful),
        jobTitle: str(obj(r.jobTitle)?.text),
        location: str(obj(r.location)?.name),
        isCurrentJob: typeof r.isCurrentJob === 'boolean' ? r.isCurrentJob : undefined,
        employmentStatus: lower(r.employmentStatus),
        yearsEmployed: int(r.lengthOfEmployment),
        recommends: recommend === 'POSITIVE' ? true : recommend === 'NEGATIVE' ? false : undefined,
        ceoApproval: lower(r.ratingCeo),
        businessOutlook: lower(r.ratingBusinessOutlook),
        subratings: SUBRATINGS.flatMap(([name, key]) => (rating5(r[key]) !== undefined ? [{ name, value: rating5(r[key])! }] : [])),
      }) as GlassdoorReview;
    }),
    pages: int(answer.numberOfPages),
    total: int(answer.filteredReviewsCount) ?? int(answer.allReviewsCount),
  };
}

// Salaries.

const percentile = (stats: unknown, ident: string): number | undefined =>
  num(objs(obj(stats)?.percentiles).find((p) => str(p.ident)?.toUpperCase() === ident)?.value);

function range(stats: unknown, currency: string, period: string) {
  const min = percentile(stats, 'P10');
  const max = percentile(stats, 'P90');
  return min !== undefined || max !== undefined ? compact({ currency, min, max, period }) : undefined;
}

export function salaries(estimates: Obj): { salaries: GlassdoorSalary[]; pages?: number; total?: number } {
  if (!Array.isArray(estimates.results)) throw changed('glassdoor', 'aggregatedSalaryEstimates without results');
  return {
    salaries: objs(estimates.results).flatMap((r) => {
      const currency = str(obj(r.currency)?.code) ?? 'USD';
      // Glassdoor's estimates are yearly pay unless the result names its period.
      const period = PERIODS[str(r.payPeriod) ?? ''] ?? 'year';
      const base = range(r.basePayStatistics, currency, period);
      if (!base) return [];
      return [
        compact({
          type: 'salary' as const,
          title: need(str(obj(r.jobTitle)?.text), 'glassdoor', 'salary without a job title'),
          jobTitleId: idOf(obj(r.jobTitle)?.id),
          salary: base,
          median: percentile(r.basePayStatistics, 'P50'),
          totalPay: range(r.totalPayStatistics, currency, period),
          additionalPay: range(r.totalAdditionalPayStatistics, currency, period),
          submissions: int(r.salaryCount),
        }) as GlassdoorSalary,
      ];
    }),
    pages: int(estimates.numPages),
    total: int(estimates.jobTitleCount),
  };
}

/** The `aggregatedSalaryEstimates…` entry of a Salary page's ROOT_QUERY, resolved. */
export function salaryEstimates(cache: ApolloCache): Obj {
  for (const [k, v] of Object.entries(obj(cache.ROOT_QUERY) ?? {})) {
    if (!k.startsWith('aggregatedSalaryEstimates')) continue;
    const r = resolveRefs(cache, v);
    if (isObj(r) && Array.isArray(r.results)) return r;
  }
  throw changed('glassdoor', 'the Salary page carries no aggregatedSalaryEstimates');
}
