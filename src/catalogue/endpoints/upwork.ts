import { choice, cursor, endpoint, limit, text } from '../fields.js';
import { int, list, literal, num, rec, str } from '../records.js';
import { JOB_FIELDS, MONEY, RATING } from '../vocabulary.js';

/**
 * An Upwork job post in the shared job vocabulary: an hourly job's rate range is its `salary` (period `hour`), a fixed
 * job's price its `budget`; `contractType` says which. `experienceLevel` is Upwork's contractor tier.
 */
const { url: _url, title: _title, company: _company, ...JOB_REST } = JOB_FIELDS;
const UPWORK_SOMETIMES = {
  ...JOB_REST,
  contractType: str,
  budget: MONEY,
  skills: list(str),
  experienceLevel: str,
  duration: str,
  workload: str,
  interviews: int,
  client: rec({}, { country: str, rating: RATING, totalSpent: MONEY, hires: int, hireRate: num }),
};
export const UPWORK_JOB = rec({ type: literal('job'), id: str, url: str, title: str }, UPWORK_SOMETIMES);

export const UPWORK = {
  jobsSearch: endpoint({
    id: 'upwork.jobs.search',
    title: 'Upwork job search',
    summary:
      'Searches open Upwork freelance job posts by keywords, newest or most relevant first: title, description, skills, hourly rate range or fixed budget, experience level and date, with a cursor.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 900,
    fields: {
      query: text(1, 200, 'search terms'),
      jobType: choice(['hourly', 'fixed']),
      sort: choice(['relevance', 'newest'], 'newest'),
      limit: limit(1, 50, 20),
      // Upwork's own result offset.
      cursor: cursor('^[0-9]{1,4}$', '1-4 digits (a result offset)', 4),
    },
    itemsField: 'jobs',
    example: { query: 'react developer', limit: 20 },
    output: rec({ jobs: list(UPWORK_JOB) }, { total: int, cursor: str }),
  }),
  jobsJob: endpoint({
    id: 'upwork.jobs.job',
    title: 'Upwork job',
    summary:
      "Returns one Upwork job post by id (~01…) or address: description, budget or hourly range, experience level, duration, applicants, and the client's country, rating, spend and hires.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { job: text(1, 2048, 'a job id (~01…) or an upwork.com/jobs/~01… address') },
    required: ['job'],
    example: { job: '~01a1b2c3d4e5f6a7b8' },
    output: rec({ job: UPWORK_JOB }),
  }),
};
