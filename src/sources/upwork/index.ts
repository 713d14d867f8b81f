/** The upwork source: public job posts through the visitor GraphQL of Upwork's web app. */
import { UPWORK } from '../../catalogue/endpoints/upwork.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { jobDetails as fetchJob, searchPage, visitorToken } from './client.js';
import { jobDetails, searchResults, type UpworkJob } from './normalise.js';
import { cipherOf } from './refs.js';
import jobSamples from './samples/jobs.job.json' with { type: 'json' };
import searchSamples from './samples/jobs.search.json' with { type: 'json' };

/** Requests per call at most, when the job type filter thins pages out. */
const MAX_PAGES = 3;

const search = operation(UPWORK.jobsSearch, {
  async run(input, ctx) {
    const token = await visitorToken(ctx);
    const jobs: UpworkJob[] = [];
    let offset = Number(input.cursor ?? 0);
    let total: number | undefined;
    let more = true;
    for (let n = 0; n < MAX_PAGES && more && jobs.length < input.limit; n++) {
      const asked = input.limit - jobs.length;
      const page = searchResults(await searchPage(input, offset, asked, token, ctx));
      total ??= page.total;
      let read = 0;
      for (const job of page.jobs) {
        if (jobs.length >= input.limit) break;
        read++;
        if (!input.jobType || job.contractType === input.jobType) jobs.push(job);
      }
      offset += read;
      more = read < page.jobs.length || (page.jobs.length >= asked && (total === undefined || offset < total));
    }
    const cursor = more ? String(offset) : undefined;
    return { data: { jobs, ...(total !== undefined ? { total } : {}), ...(cursor ? { cursor } : {}) }, ...(jobs.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const job = operation(UPWORK.jobsJob, {
  async run(input, ctx) {
    const cipher = cipherOf(input.job);
    return { data: { job: jobDetails(await fetchJob(cipher, await visitorToken(ctx), ctx), cipher) } };
  },
  samples: jobSamples,
});

const upwork: SourceModule = {
  id: 'upwork',
  needs: {
    settings: [{ name: 'VISITOR_TOKEN', required: false, purpose: "a visitor GraphQL token (oauth2v2_…) to use instead of the one Upwork's home page sets" }],
    proxy: 'advised',
  },
  operations: [search, job],
};

export default upwork;
