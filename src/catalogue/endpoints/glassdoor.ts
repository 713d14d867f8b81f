import { boolean, choice, countryAmong, cursor, endpoint, limit, text, within } from '../fields.js';
import { reviewRecord } from '../market.js';
import { bool, int, list, literal, num, rec, str } from '../records.js';
import { JOB_FIELDS, MONEY_RANGE, PROFILE_FIELDS, RATING } from '../vocabulary.js';

/** A Glassdoor job listing, in the shared job vocabulary (as linkedin's and indeed's), with the employer's rating. */
const { url: _url, title: _title, ...JOB_REST } = JOB_FIELDS;
export const GLASSDOOR_JOB = rec({ type: literal('job'), id: str, url: str, title: str, company: JOB_FIELDS.company }, { ...JOB_REST, companyRating: num, isSponsored: bool });

/** A score on one aspect of working somewhere (culture, pay), on 5. */
const ASPECT = rec({ name: str, value: num });

/** An employer's Glassdoor profile, on the profile vocabulary: rating on 5, subratings and what the site counts. */
export const GLASSDOOR_COMPANY = rec(
  { type: literal('company'), id: str, url: str, name: str },
  {
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    website: PROFILE_FIELDS.website,
    location: PROFILE_FIELDS.location,
    rating: RATING,
    subratings: list(ASPECT),
    /** Shares of reviewers, 0-1: who would recommend working there, who approve of the CEO, who see a good outlook. */
    recommendShare: num,
    ceoApprovalShare: num,
    businessOutlookShare: num,
    ceo: rec({ name: str }, { title: str, avatar: str }),
    reviews: int,
    salaries: int,
    interviews: int,
    benefits: int,
    photos: int,
    jobs: int,
  },
);

/** An employee's review: the marketplaces' review record, rating on 5, pros and cons kept apart. */
export const GLASSDOOR_REVIEW = reviewRecord({
  ratingMax: num,
  pros: str,
  cons: str,
  advice: str,
  jobTitle: str,
  location: str,
  isCurrentJob: bool,
  employmentStatus: str,
  yearsEmployed: int,
  recommends: bool,
  ceoApproval: str,
  businessOutlook: str,
  subratings: list(ASPECT),
});

/** A job title's pay at an employer: base pay as a range with its period, and what reports it rests on. */
export const GLASSDOOR_SALARY = rec(
  { type: literal('salary'), title: str, salary: MONEY_RANGE },
  { jobTitleId: str, median: num, totalPay: MONEY_RANGE, additionalPay: MONEY_RANGE, submissions: int },
);

/** Glassdoor's country sites (JobSpy's list of them). */
export const GLASSDOOR_COUNTRIES = ['us', 'gb', 'ca', 'au', 'nz', 'ie', 'in', 'sg', 'hk', 'de', 'at', 'ch', 'fr', 'be', 'nl', 'es', 'it', 'mx', 'br', 'ar'] as const;

const companyRef = () => text(1, 2048, 'a Glassdoor employer id (digits) or a glassdoor address carrying it (…-E7853.htm, …EI_IE7853…)');
const pageCursor = () => cursor('^(?:[0-9]{1,4}~)?[0-9]{1,4}$', 'a page number, optionally preceded by digits and ~', 10);

export const GLASSDOOR = {
  jobsSearch: endpoint({
    id: 'glassdoor.jobs.search',
    title: 'Glassdoor job search',
    summary:
      "Searches Glassdoor job listings by keywords and place on one of its country sites: jobs with company, its rating, location, Glassdoor's pay estimate, date and description, with a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'search terms'),
      location: text(2, 200, 'a city, region or country'),
      remote: boolean(false),
      country: countryAmong(GLASSDOOR_COUNTRIES, 'us', "Glassdoor's country sites"),
      within: within(['day', 'threeDays', 'week', 'month', 'all'], 'all'),
      jobType: choice(['fullTime', 'partTime', 'contract', 'internship', 'temporary']),
      easyApply: boolean(false),
      limit: limit(1, 150, 30),
      // `N~` owes the rest of a page cut by limit; then `{Glassdoor's page}:{its page cursor}`.
      cursor: cursor('^(?:[0-9]{1,4}~)?(?:[0-9]{1,3}:[A-Za-z0-9+/=_.,-]{1,600})?$', "a page and Glassdoor's cursor, optionally preceded by digits and ~", 620),
    },
    itemsField: 'jobs',
    example: { query: 'data engineer', location: 'Austin, TX', limit: 30 },
    output: rec({ jobs: list(GLASSDOOR_JOB) }, { total: int, cursor: str }),
  }),
  company: endpoint({
    id: 'glassdoor.company',
    title: 'Glassdoor company',
    summary:
      "Returns an employer's Glassdoor profile by id or address: rating out of 5, subratings, recommend and CEO approval shares, CEO, website, headquarters and counts of reviews, salaries and jobs.",
    credits: 1,
    cacheTtlSeconds: 86400,
    fields: { company: companyRef() },
    required: ['company'],
    example: { company: '1000001' },
    output: rec({ company: GLASSDOOR_COMPANY }),
  }),
  reviews: endpoint({
    id: 'glassdoor.reviews',
    title: 'Glassdoor employee reviews',
    summary:
      "Returns an employer's Glassdoor reviews, newest first: rating out of 5, title, pros, cons, advice, job title, location, tenure, recommendation, CEO approval and subratings, with a cursor.",
    credits: 1,
    perItems: 10,
    cacheTtlSeconds: 3600,
    fields: {
      company: companyRef(),
      limit: limit(1, 20, 10),
      // `{Glassdoor's page}.{page size}[.{reviews of it answered}]`: a page keeps its size whatever the next limit.
      cursor: cursor('^[0-9]{1,4}\\.[0-9]{1,2}(?:\\.[0-9]{1,2})?$', 'a page, its size and the reviews of it answered, joined by dots', 11),
    },
    required: ['company'],
    itemsField: 'reviews',
    example: { company: '1000001', limit: 10 },
    output: rec({ reviews: list(GLASSDOOR_REVIEW) }, { total: int, cursor: str }),
  }),
  salaries: endpoint({
    id: 'glassdoor.salaries',
    title: 'Glassdoor salaries',
    summary:
      "Returns an employer's Glassdoor salaries by job title: base pay range (10th to 90th percentile) with its period, median, total and additional pay and the number of reports, with a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 86400,
    fields: { company: companyRef(), limit: limit(1, 100, 20), cursor: pageCursor() },
    required: ['company'],
    itemsField: 'salaries',
    example: { company: '1000001', limit: 20 },
    output: rec({ salaries: list(GLASSDOOR_SALARY) }, { total: int, cursor: str }),
  }),
};
