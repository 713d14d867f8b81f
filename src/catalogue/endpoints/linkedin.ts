import { boolean, choice, country, cursor, date, endpoint, limit, list, pattern, text, within } from '../fields.js';
import { bool, int, list as listOf, literal, num, rec, str } from '../records.js';
import { AD_FIELDS, ADDRESS, IMAGE, JOB_FIELDS, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

/**
 * A job posting in the shared job vocabulary. A search card always carries its id (the posting's urn), its address
 * and its title; the rest is what the card or the posting shows. `seniority`, `functions` and `industries` are
 * LinkedIn's own job criteria.
 */
const JOB_SOMETIMES = {
  description: JOB_FIELDS.description,
  company: JOB_FIELDS.company,
  location: JOB_FIELDS.location,
  salary: JOB_FIELDS.salary,
  postedAt: JOB_FIELDS.postedAt,
  employmentType: JOB_FIELDS.employmentType,
  applyUrl: JOB_FIELDS.applyUrl,
  isEasyApply: JOB_FIELDS.isEasyApply,
  applicants: JOB_FIELDS.applicants,
  seniority: str,
  functions: listOf(str),
  industries: listOf(str),
};
export const LINKEDIN_JOB_CARD = rec({ type: literal('job'), id: str, url: str, title: str }, JOB_SOMETIMES);
/** A posting read whole: the company is on every posting. */
export const LINKEDIN_JOB = rec(
  { type: literal('job'), id: str, url: str, title: str, company: JOB_FIELDS.company },
  JOB_SOMETIMES,
);

/** A company page, from its schema.org Organization data. */
export const LINKEDIN_COMPANY = rec(
  { type: literal('company'), url: str, name: str },
  {
    id: str,
    username: PROFILE_FIELDS.username,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    followers: PROFILE_FIELDS.followers,
    website: PROFILE_FIELDS.website,
    slogan: str,
    employees: int,
    foundedAt: str,
    headquarters: ADDRESS,
  },
);

/** A time at an organisation (a job, a school), as the profile's schema.org data gives it. */
const STINT = rec({ organization: str }, { url: str, title: str, startedAt: str, endedAt: str, description: str });

/** A member profile, from its schema.org Person data. */
export const LINKEDIN_PROFILE = rec(
  { type: literal('profile'), url: str, name: str },
  {
    username: PROFILE_FIELDS.username,
    headline: str,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    location: PROFILE_FIELDS.location,
    followers: PROFILE_FIELDS.followers,
    links: PROFILE_FIELDS.links,
    experience: listOf(STINT),
    education: listOf(STINT),
    languages: listOf(str),
  },
);

/** A public post, from its page's schema.org posting data. */
export const LINKEDIN_POST = rec(
  { type: literal('post'), id: str, url: str },
  {
    title: POST_FIELDS.title,
    text: POST_FIELDS.text,
    createdAt: POST_FIELDS.createdAt,
    author: POST_FIELDS.author,
    likes: POST_FIELDS.likes,
    comments: POST_FIELDS.comments,
    images: listOf(IMAGE),
    video: POST_FIELDS.video,
  },
);

/**
 * An ad of LinkedIn's Ad Library in the shared ad vocabulary (`AD_FIELDS`). A search card shows the creative (copy,
 * headline, media, format) and its advertiser; the ad's page adds who paid, the run dates, the impressions range,
 * each country's share of the impressions and the targeting. LinkedIn publishes some country shares only as a bound
 * ("less than 1%"): that share is the bound with `isUpperBound`. Targeting other than places is given per category
 * (`segments`: "Job" → "Data Scientist"), and the categories used at all as LinkedIn's table says (`facets`).
 */
const LINKEDIN_AD_FIELDS = {
  advertiser: AD_FIELDS.advertiser,
  paidBy: AD_FIELDS.paidBy,
  bodies: AD_FIELDS.bodies,
  titles: AD_FIELDS.titles,
  link: AD_FIELDS.link,
  cta: AD_FIELDS.cta,
  images: AD_FIELDS.images,
  videos: AD_FIELDS.videos,
  format: AD_FIELDS.format,
  startedAt: AD_FIELDS.startedAt,
  endedAt: AD_FIELDS.endedAt,
  impressions: AD_FIELDS.impressions,
  regions: listOf(rec({ region: str, share: num }, { isUpperBound: bool })),
  targeting: rec(
    {},
    {
      locations: listOf(rec({ name: str }, { isExcluded: bool })),
      segments: listOf(rec({ category: str, name: str }, { isExcluded: bool })),
      facets: listOf(rec({ category: str }, { isIncluded: bool, isExcluded: bool })),
    },
  ),
};
export const LINKEDIN_AD = rec({ type: literal('ad'), id: str, url: str }, LINKEDIN_AD_FIELDS);
/** An ad read from its own page: the page always names the advertiser. */
export const LINKEDIN_AD_PAGE = rec(
  { type: literal('ad'), id: str, url: str, advertiser: rec({ name: str }, { id: str, url: str, avatar: str }) },
  (({ advertiser: _advertiser, ...rest }) => rest)(LINKEDIN_AD_FIELDS),
);

const DIGITS_1_15 = '^[0-9]{1,15}$';
// SPEC: id-or-address fields have no stated bounds; chosen 1-2048 (a slug, a numeric id or a full address).
const ref = (what: string) => text(1, 2048, what);

const jobsSearch = endpoint({
  id: 'linkedin.jobs.search',
  title: 'LinkedIn job search',
  summary:
    'Searches public LinkedIn job postings by keywords, place and filters, and returns job cards (title, company, location, date, salary when shown) with a cursor.',
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
  output: rec({ jobs: listOf(LINKEDIN_JOB_CARD) }, { cursor: str }),
});

export const LINKEDIN = {
  jobsSearch,
  jobsJob: endpoint({
    id: 'linkedin.jobs.job',
    title: 'LinkedIn job',
    summary:
      'Returns one public LinkedIn job posting by id or address: title, company, location, full description, seniority, employment type, applicants and apply link.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { job: ref('job id or address') },
    required: ['job'],
    example: { job: '3912345678' },
    output: rec({ job: LINKEDIN_JOB }),
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
    output: rec({ ads: listOf(LINKEDIN_AD) }, { cursor: str, total: int }),
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
    output: rec({ ad: LINKEDIN_AD_PAGE }),
  }),
  company: endpoint({
    id: 'linkedin.company',
    title: 'LinkedIn company',
    summary:
      "Returns a LinkedIn company page's public profile: name, description, logo, website, employee count, headquarters and founding date.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { company: ref('company slug, id or address') },
    required: ['company'],
    example: { company: 'microsoft' },
    output: rec({ company: LINKEDIN_COMPANY }),
  }),
  profile: endpoint({
    id: 'linkedin.profile',
    title: 'LinkedIn profile',
    summary:
      'Returns a public LinkedIn member profile by slug or address: name, headline, location, photo, experience and education, as far as LinkedIn shows them to guests.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { profile: ref('profile slug or address') },
    required: ['profile'],
    example: { profile: 'https://www.linkedin.com/in/williamhgates' },
    output: rec({ profile: LINKEDIN_PROFILE }),
  }),
  posts: (() => {
    const def = endpoint({
      id: 'linkedin.posts',
      title: 'LinkedIn posts',
      summary:
        'Returns the recent public posts linked from a LinkedIn member profile or company page, each with its text, date, author, reactions and comments counts.',
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
      // Fixed price; the list is still counted so that test mode honours `limit` like the live call.
      itemsField: 'posts',
      output: rec({ posts: listOf(LINKEDIN_POST) }),
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
