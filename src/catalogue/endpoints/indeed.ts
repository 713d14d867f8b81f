import { boolean, choice, countryAmong, cursor, endpoint, limit, number, text, within } from '../fields.js';
import { list, literal, rec, str } from '../records.js';
import type { Field } from '../types.js';
import { JOB_FIELDS } from '../vocabulary.js';

/** Job fields an Indeed posting may carry, in the shared job vocabulary (`expiresAt`: the posting's own end date). */
const { url: _url, title: _title, company: _company, ...JOB_REST } = JOB_FIELDS;
const INDEED_SOMETIMES = { ...JOB_REST, company: JOB_FIELDS.company, expiresAt: str };

/** A search result: every result has its job key and title. */
export const INDEED_JOB_RESULT = rec({ type: literal('job'), id: str, url: str, title: str }, INDEED_SOMETIMES);

/** A posting read whole: its schema.org JobPosting always names the hiring organisation. */
export const INDEED_JOB = rec(
  { type: literal('job'), id: str, url: str, title: str, company: JOB_FIELDS.company },
  (({ company: _c, ...rest }) => rest)(INDEED_SOMETIMES),
);

/** The countries the job board serves (SPEC, job board). */
export const INDEED_COUNTRIES = [
  'us', 'gb', 'ca', 'au', 'nz', 'ie', 'in', 'sg', 'my', 'ph', 'za', 'ng', 'ae', 'sa', 'qa', 'kw', 'bh', 'om', 'pk',
  'hk', 'jp', 'kr', 'tw', 'cn', 'id', 'th', 'vn', 'de', 'at', 'ch', 'fr', 'be', 'nl', 'lu', 'es', 'pt', 'it', 'gr',
  'mt', 'cy', 'pl', 'cz', 'sk', 'hu', 'ro', 'bg', 'hr', 'si', 'ee', 'lv', 'lt', 'fi', 'se', 'no', 'dk', 'ua', 'tr',
  'il', 'eg', 'ma', 'mx', 'br', 'ar', 'cl', 'co', 'pe', 'ec', 'uy', 've', 'cr', 'pa',
] as const;

// "Any case": the pattern spells each code in both cases and `format: country` makes the validator fold the value
// to lower case, so `FR` reaches the source and the cache key as `fr` (see countryAmong in fields.ts).
const jobBoardCountry = () => countryAmong(INDEED_COUNTRIES, undefined, 'the job board');

export const INDEED = {
  search: endpoint({
    id: 'indeed.search',
    title: 'Indeed job search',
    summary:
      "Searches Indeed job postings in one of its 71 countries by keywords, place and filters: jobs with company, location, salary, type, date and description, and a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      // SPEC: "max 200" only; chosen minimum 1.
      query: text(1, 200, 'search terms'),
      location: text(2, 200, 'a city, region or postal code'),
      radiusKm: number(0, 160, 40),
      country: countryAmong(INDEED_COUNTRIES, 'us', 'the job board'),
      jobType: choice(['fullTime', 'partTime', 'contract', 'internship']),
      remote: boolean(false),
      within: within(['day', 'threeDays', 'week', 'twoWeeks', 'month', 'all'], 'all'),
      salary: {
        type: 'object',
        properties: {
          // SPEC: "positive integer"; maximum not stated, chosen 1,000,000,000.
          min: { type: 'integer', minimum: 1, maximum: 1_000_000_000, description: 'lowest salary, in the local currency' },
        },
        required: ['min'],
        additionalProperties: false,
        description: 'salary filter',
      } as Field<{ min: number }, false>,
      sort: choice(['relevance', 'newest'], 'relevance'),
      limit: limit(1, 500, 25),
      cursor: cursor(
        '^[0-9]+\\.[0-9]+\\.[A-Za-z0-9+/=]+$',
        'digits, a dot, digits, a dot, then base64 characters',
        4096,
      ),
    },
    itemsField: 'jobs',
    example: { query: 'nurse', location: 'London', country: 'gb', salary: { min: 30000 }, limit: 25 },
    output: rec({ jobs: list(INDEED_JOB_RESULT) }, { cursor: str }),
  }),
  job: endpoint({
    id: 'indeed.job',
    title: 'Indeed job',
    summary:
      'Returns one Indeed job posting by job key or address: title, company, location, salary, employment type, dates and full description.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a job key or a full address).
      job: text(1, 2048, 'job key or address'),
      // SPEC: allowed values "begin as in the list above", the rest not shown; chosen the same list, no default.
      country: jobBoardCountry(),
    },
    required: ['job'],
    example: { job: 'a1b2c3d4e5f60718', country: 'us' },
    output: rec({ job: INDEED_JOB }),
  }),
};
