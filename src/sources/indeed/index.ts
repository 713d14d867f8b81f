/** The indeed source: job search on Indeed's app GraphQL (operator-supplied key) and job pages' schema.org data. */
import { INDEED } from '../../catalogue/endpoints/indeed.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { filtersOf, GRAPHQL_PAGE, searchPage, viewJob, webHost, type SearchQuery } from './client.js';
import { jobPosting, searchResults, type JobResult, type SearchPage } from './normalise.js';
import { decodeCursor, encodeCursor, jobRef, type Cursor } from './refs.js';
import jobSamples from './samples/job.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** GraphQL pages read at most per call (filters applied here can thin pages out). */
const MAX_PAGES = 10;
/** Salaries per hour, day, week, month brought to a year, to compare with `salary.min`. */
const PER_YEAR: Record<string, number> = { hour: 2080, day: 260, week: 52, month: 12, year: 1 };

/** The filters Indeed cannot apply with the others: attribute keys besides a date window, and the salary floor. */
function keeper(q: SearchQuery): (r: SearchPage['jobs'][number]) => boolean {
  const keys = filtersOf(q).clientSide;
  const floor = q.salary?.min;
  return (r) => {
    if (!keys.every((k) => r.keys.includes(k))) return false;
    if (floor === undefined) return true;
    const top = r.salaryMax;
    const perYear = PER_YEAR[r.job.salary?.period ?? 'year'];
    return top !== undefined && perYear !== undefined && top * perYear >= floor;
  };
}

const search = operation(INDEED.search, {
  async run(input, ctx) {
    const host = webHost(input.country);
    const start = decodeCursor(input.cursor);
    const keep = keeper(input);
    const jobs: JobResult[] = [];
    const seen = new Set<string>();
    let { token, skip } = start;
    let next: Omit<Cursor, 'offset'> | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const want = input.limit - jobs.length;
      const page = searchResults(await searchPage(input, Math.min(GRAPHQL_PAGE, want + skip), token, ctx), host);
      let taken = 0;
      for (const r of page.jobs.slice(skip)) {
        if (jobs.length >= input.limit) break;
        taken++;
        if (seen.has(r.job.id) || !keep(r)) continue;
        seen.add(r.job.id);
        jobs.push(r.job);
      }
      if (skip + taken < page.jobs.length) {
        next = { token, skip: skip + taken };
        break;
      }
      if (!page.next || !page.jobs.length) {
        next = undefined;
        break;
      }
      [token, skip, next] = [page.next, 0, { token: page.next, skip: 0 }];
      if (jobs.length >= input.limit) break;
    }
    const cursor = next && encodeCursor({ ...next, offset: start.offset + jobs.length });
    return { data: { jobs, ...(cursor ? { cursor } : {}) }, ...(jobs.length ? {} : { free: true as const }) };
  },
  samples: searchSamples,
});

const job = operation(INDEED.job, {
  async run(input, ctx) {
    const { key, host } = jobRef(input.job, input.country);
    const page = await viewJob(host, key, ctx);
    return { data: { job: jobPosting(page.html, key, page.url) } };
  },
  samples: jobSamples,
});

const indeed: SourceModule = {
  id: 'indeed',
  needs: {
    settings: [
      { name: 'API_KEY', required: false, purpose: "the Indeed iOS app's public API key: indeed.search answers sourceUnavailable without it" },
      { name: 'APP_INFO', required: false, purpose: 'the indeed-app-info header of the app version to present' },
      { name: 'USER_AGENT', required: false, purpose: "the app's user agent" },
    ],
    proxy: 'advised',
  },
  operations: [search, job],
};

export default indeed;
