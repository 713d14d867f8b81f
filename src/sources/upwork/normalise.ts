/**
 * Upwork's job tiles and job details as the shared job record. Pure functions. Amounts come as numbers or numeric
 * strings in US dollars unless a currency is named; `jobType` HOURLY or FIXED becomes `contractType`; Upwork's
 * search answer highlights terms with `H^…^H` markers, which are removed.
 */
import type { UPWORK_JOB } from '../../catalogue/endpoints/upwork.js';
import type { TypeOf } from '../../catalogue/types.js';
import { money } from '../kit/money.js';
import { changed, compact, int, isoFromText, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import { WEB } from './client.js';

export type UpworkJob = TypeOf<typeof UPWORK_JOB>;

const plain = (v: unknown): string | undefined => str(typeof v === 'string' ? v.replace(/H\^|\^H/g, '') : v);
const positive = (v: unknown): number | undefined => {
  const n = num(v);
  return n !== undefined && n > 0 ? n : undefined;
};
const contractType = (v: unknown): string | undefined => ({ HOURLY: 'hourly', FIXED: 'fixed' })[str(v)?.toUpperCase() ?? ''];
/** Upwork's tier names ("ExpertLevel", "INTERMEDIATE") in lower case without "level". */
const tier = (v: unknown): string | undefined => str(v)?.replace(/_?level$/i, '').toLowerCase() || undefined;

function rate(min: unknown, max: unknown, currency: string) {
  const lo = positive(min);
  const hi = positive(max);
  return lo !== undefined || hi !== undefined ? compact({ currency, min: lo, max: hi, period: 'hour' }) : undefined;
}

export function searchResults(search: Obj): { jobs: UpworkJob[]; total?: number } {
  if (!Array.isArray(search.results)) throw changed('upwork', 'visitorJobSearchV1 without results');
  return { jobs: objs(search.results).map(tile), total: int(obj(search.paging)?.total) };
}

function tile(r: Obj): UpworkJob {
  const job = need(obj(obj(r.jobTile)?.job), 'upwork', 'search result without jobTile.job');
  const cipher = need(str(job.ciphertext) ?? str(job.cipherText), 'upwork', 'search result without a ciphertext');
  const type = contractType(job.jobType);
  const fixed = obj(job.fixedPriceAmount);
  const duration = str(obj(job.hourlyEngagementDuration)?.label) ?? str(obj(job.fixedPriceEngagementDuration)?.label);
  return compact({
    type: 'job' as const,
    id: cipher,
    url: `${WEB}/jobs/${cipher}`,
    title: need(plain(r.title), 'upwork', 'search result without a title'),
    description: plain(r.description),
    postedAt: isoFromText(job.publishTime) ?? isoFromText(job.createTime),
    contractType: type,
    salary: type === 'hourly' ? rate(job.hourlyBudgetMin, job.hourlyBudgetMax, 'USD') : undefined,
    budget: type === 'fixed' && positive(fixed?.amount) !== undefined ? money(positive(fixed!.amount), str(fixed!.isoCurrencyCode) ?? 'USD') : undefined,
    skills: objs(r.ontologySkills).flatMap((s) => (plain(s.prefLabel) ? [plain(s.prefLabel)!] : [])),
    experienceLevel: tier(job.contractorTier),
    duration,
    workload: str(job.hourlyEngagementType)?.toLowerCase().replace(/_/g, ' '),
  }) as UpworkJob;
}

export function jobDetails(d: Obj, cipher: string): UpworkJob {
  const opening = need(obj(d.opening), 'upwork', 'job details without opening');
  const info = obj(opening.info) ?? {};
  const type = contractType(info.type);
  const budget = obj(opening.budget);
  const extended = obj(opening.extendedBudgetInfo) ?? {};
  const activity = obj(opening.clientActivity) ?? {};
  const buyer = obj(d.buyer) ?? {};
  const currency = str(extended.currencyCode) ?? str(budget?.currencyCode) ?? 'USD';
  const rating = positive(buyer.rating);
  return compact({
    type: 'job' as const,
    id: cipher,
    url: `${WEB}/jobs/${cipher}`,
    title: need(str(info.title), 'upwork', 'job details without a title'),
    description: str(opening.description),
    postedAt: isoFromText(opening.postedOn),
    contractType: type,
    salary: type === 'hourly' ? rate(extended.hourlyBudgetMin, extended.hourlyBudgetMax, currency) : undefined,
    budget: type === 'fixed' ? money(positive(budget?.amount) ?? positive(extended.amount), currency) : undefined,
    experienceLevel: tier(info.contractorTier),
    duration: str(obj(opening.duration)?.label),
    applicants: int(activity.totalApplicants),
    interviews: int(activity.totalInterviews),
    client: compact({
      country: str(obj(buyer.location)?.country),
      rating: rating !== undefined ? compact({ value: rating, max: 5, count: int(buyer.numReviews) }) : undefined,
      totalSpent: money(positive(buyer.totalSpent), 'USD'),
      hires: int(buyer.totalHires),
      hireRate: num(activity.hireRate),
    }),
  }) as UpworkJob;
}
