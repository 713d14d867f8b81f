import { boolean, choice, country, cursor, date, endpoint, limit, list, pattern, text, within } from '../fields.js';

const DIGITS_1_15 = '^[0-9]{1,15}$';
// SPEC: id-or-address fields have no stated bounds; chosen 1-2048 (a slug, a numeric id or a full address).
const ref = (what: string) => text(1, 2048, what);

const jobsSearch = endpoint({
  id: 'linkedin.jobs.search',
  title: 'LinkedIn job search',
  summary: 'Searches LinkedIn job postings and returns matching jobs with company, location, date and workplace type.',
  credits: 1,
  perItems: 10,
  cacheTtlSeconds: 1800,
  fields: {
    // SPEC: "max 200" only; chosen minimum 1 (an empty string is sent as an omitted field).
    query: text(1, 200, 'search terms'),
    location: text(1, 200, 'a place name, e.g. Berlin, Germany'), // SPEC: max 200; chosen minimum 1
    geoId: pattern(DIGITS_1_15, '1-15 digits (a LinkedIn geo id)', 15),
    within: within(['day', 'week', 'month', 'all'], 'all'),
    jobTypes: list(choice(['fullTime', 'partTime', 'contract', 'temporary', 'internship']), 5, []),
    experience: list(choice(['internship', 'entry', 'associate', 'midSenior', 'director', 'executive']), 6, []),
    workplace: list(choice(['onsite', 'remote', 'hybrid']), 3, []),
    companyIds: list(pattern(DIGITS_1_15, '1-15 digits (a LinkedIn company id)', 15), 20, []),
    easyApply: boolean(false),
    sort: choice(['relevance', 'newest'], 'relevance'),
    limit: limit(1, 500, 25),
    cursor: cursor('^[0-9]{1,3}$', '1-3 digits', 3),
  },
  itemsField: 'jobs',
  example: { query: 'data engineer', location: 'Berlin, Germany', workplace: ['remote', 'hybrid'], limit: 25 },
});

export const LINKEDIN = {
  jobsSearch,
  jobsJob: endpoint({
    id: 'linkedin.jobs.job',
    title: 'LinkedIn job',
    summary: 'Returns one LinkedIn job posting with its full description, company, location, criteria and date.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { job: ref('job id or address') },
    required: ['job'],
    example: { job: '3912345678' },
  }),
  adsSearch: endpoint({
    id: 'linkedin.ads.search',
    title: 'LinkedIn ad library search',
    summary: 'Searches the LinkedIn ad library and returns matching ads with advertiser, payer, format and dates.',
    credits: 2,
    perItems: 24,
    cacheTtlSeconds: 3600,
    fields: {
      // SPEC: "max 500" only; chosen minimum 1 for the three texts.
      query: text(1, 500, 'search terms'),
      advertiser: text(1, 500, 'advertiser name'),
      paidBy: text(1, 500, 'who paid for the ads'),
      // SPEC: "max 30 two-letter codes"; ISO codes, any case. Items are not case-folded by the validator (only
      // top-level country fields are): the source lower-cases them.
      countries: list(country(), 30, []),
      within: within(['month', 'year', 'all'], 'all'),
      from: date(),
      to: date(),
      limit: limit(1, 120, 24),
      cursor: cursor(
        '^(?:[0-9]{1,4}~)?[0-9]{1,20}-[0-9]{1,20}$',
        'two numbers joined by -, optionally preceded by 1-4 digits and ~',
        46,
      ),
    },
    itemsField: 'ads',
    example: { advertiser: 'Microsoft', countries: ['us', 'gb'], within: 'year', limit: 24 },
  }),
  adsAd: endpoint({
    id: 'linkedin.ads.ad',
    title: 'LinkedIn ad',
    summary: 'Returns one ad of the LinkedIn ad library with its advertiser, payer, creative, targeting and dates.',
    credits: 2,
    cacheTtlSeconds: 86400,
    fields: { ad: ref('ad library id or address') },
    required: ['ad'],
    example: { ad: '512345678' },
  }),
  company: endpoint({
    id: 'linkedin.company',
    title: 'LinkedIn company',
    summary: "Returns a LinkedIn company page's profile: name, industry, size, headquarters, website and followers.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { company: ref('company slug, id or address') },
    required: ['company'],
    example: { company: 'microsoft' },
  }),
  profile: endpoint({
    id: 'linkedin.profile',
    title: 'LinkedIn profile',
    summary: "Returns a public LinkedIn member profile: name, headline, location, experience and education.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { profile: ref('profile slug or address') },
    required: ['profile'],
    example: { profile: 'https://www.linkedin.com/in/williamhgates' },
  }),
  posts: (() => {
    const def = endpoint({
      id: 'linkedin.posts',
      title: 'LinkedIn posts',
      summary: "Returns the recent posts of a LinkedIn member profile or company page, with text, media and reactions.",
      credits: 1,
      cacheTtlSeconds: 1800,
      fields: {
        profile: ref('profile slug or address'),
        company: ref('company slug, id or address'),
        // SPEC: default 10; maximum not shown; chosen 100.
        limit: limit(1, 100, 10),
      },
      // SPEC: remaining fields not shown; none added.
      example: { company: 'microsoft', limit: 10 },
    });
    // SPEC does not say which is required; a call needs one of `profile` or `company` to mean anything. (Each
    // branch names its property so Ajv's strictRequired accepts it; the types come from `properties` above.)
    def.input.anyOf = [
      { properties: { profile: true }, required: ['profile'] },
      { properties: { company: true }, required: ['company'] },
    ];
    return def;
  })(),
};
