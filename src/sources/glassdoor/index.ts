/** The glassdoor source: job search on the site's GraphQL; an employer's profile, reviews and salaries. */
import { GLASSDOOR } from '../../catalogue/endpoints/glassdoor.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import type { SourceModule } from '../types.js';
import { csrfToken, employerPage, employerReviews, jobSearch, jobSearchBody, overviewUrl, resolveLocation, reviewIds, salariesUrl, siteOf } from './client.js';
import { company as readCompany, jobs as readJobs, reviews as readReviews, salaries as readSalaries, salaryEstimates, type GlassdoorJob, type GlassdoorSalary } from './normalise.js';
import { employerIdOf } from './refs.js';
import companySamples from './samples/company.json' with { type: 'json' };
import jobsSamples from './samples/jobs.search.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import salariesSamples from './samples/salaries.json' with { type: 'json' };

/** JobSpy's page size and the "remote" place it asks when no location is given. */
const JOBS_PAGE = 30;
const REMOTE = { id: 11047, type: 'STATE' };
const JOB_TOKEN = /^[0-9]{1,3}:[A-Za-z0-9+/=_.,-]{1,600}$/;

const jobs = operation(GLASSDOOR.jobsSearch, {
  async run(input, ctx) {
    const site = siteOf(input.country);
    const from = readSkipCursor(input.cursor, JOB_TOKEN);
    const token = await csrfToken(site, ctx);
    const location = input.location && !input.remote ? await resolveLocation(site, input.location, ctx) : REMOTE;
    let total: number | undefined;
    const { items, cursor } = await collectPages<GlassdoorJob>(
      from,
      input.limit,
      async (t) => {
        const [page, glassdoorCursor] = t ? [Number(t.slice(0, t.indexOf(':'))), t.slice(t.indexOf(':') + 1)] : [1, undefined];
        const answer = readJobs(await jobSearch(site, token, jobSearchBody({ ...input, location }, page, glassdoorCursor, JOBS_PAGE), ctx), site);
        total ??= answer.total;
        const next = answer.cursors.get(page + 1);
        return { items: answer.jobs, token: answer.jobs.length && next ? `${page + 1}:${next}` : undefined };
      },
      5,
    );
    return { data: { jobs: items, ...(total !== undefined ? { total } : {}), ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: jobsSamples,
});

const company = operation(GLASSDOOR.company, {
  async run(input, ctx) {
    const id = employerIdOf(input.company);
    const { cache } = await employerPage(overviewUrl(id), 'overview page', ctx);
    return { data: { company: readCompany(cache, id) } };
  },
  samples: companySamples,
});

const reviews = operation(GLASSDOOR.reviews, {
  async run(input, ctx) {
    const id = employerIdOf(input.company);
    const [page, size, skip = 0] = input.cursor ? input.cursor.split('.').map(Number) : [1, input.limit];
    if (!(page >= 1 && size >= 1 && size <= 20 && skip < size)) throw new QuarryError('invalidRequest', 'cursor: not a cursor this endpoint gave', { retryable: false });
    const answer = readReviews(await employerReviews(await reviewIds(id, ctx), page, size, ctx), id);
    const onPage = answer.reviews.slice(0, size);
    const list = onPage.slice(skip, skip + input.limit);
    const answered = skip + list.length;
    // The rest of this page is owed first; then the next page, while Glassdoor says there is one.
    const cursor =
      answered < onPage.length ? `${page}.${size}.${answered}`
      : (answer.pages !== undefined ? page < answer.pages : onPage.length >= size) && list.length ? `${page + 1}.${size}`
      : undefined;
    return {
      data: { reviews: list, ...(answer.total !== undefined ? { total: answer.total } : {}), ...(cursor ? { cursor } : {}) },
      ...(list.length ? {} : { free: true }),
    };
  },
  samples: reviewsSamples,
});

const salaries = operation(GLASSDOOR.salaries, {
  async run(input, ctx) {
    const id = employerIdOf(input.company);
    let total: number | undefined;
    const { items, cursor } = await collectPages<GlassdoorSalary>(
      readSkipCursor(input.cursor, /^[1-9][0-9]{0,3}$/),
      input.limit,
      async (t) => {
        const n = Number(t ?? 1);
        const { cache } = await employerPage(salariesUrl(id, n), 'salary page', ctx);
        const answer = readSalaries(salaryEstimates(cache));
        total ??= answer.total;
        return { items: answer.salaries, token: answer.pages !== undefined && n < answer.pages ? String(n + 1) : undefined };
      },
      5,
    );
    return { data: { salaries: items, ...(total !== undefined ? { total } : {}), ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: salariesSamples,
});

const glassdoor: SourceModule = {
  id: 'glassdoor',
  needs: {
    settings: [
      { name: 'CSRF_TOKEN', required: false, purpose: "the gd-csrf-token sent when a job page carries none (defaults to JobSpy's)" },
      { name: 'CLIENT_VERSION', required: false, purpose: 'the apollographql-client-version header of the job search (Glassdoor web app version)' },
    ],
    proxy: 'advised',
  },
  operations: [jobs, company, reviews, salaries],
};

export default glassdoor;
