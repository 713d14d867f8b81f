/** The linkedin source: guest job search and postings, public company, profile and post pages, and the Ad Library. */
import { LINKEDIN } from '../../catalogue/endpoints/linkedin.js';
import { isQuarryError, QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import type { SourceModule } from '../types.js';
import { adPage, adSearchPage, adSearchParams, geoIdFor, jobPosting, publicPage, searchPage } from './client.js';
import { companyRecord, jobCards, jobPostingRecord, postLinks, postRecord, profileRecord, type JobCard, type Post } from './normalise.js';
import { adRecord, adResults, PAGE_TOKEN, type LinkedinAd } from './normalise-ads.js';
import { adId, companySlug, companyUrl, jobId, profileSlug, profileUrl } from './refs.js';
import adSamples from './samples/ads.ad.json' with { type: 'json' };
import adSearchSamples from './samples/ads.search.json' with { type: 'json' };
import companySamples from './samples/company.json' with { type: 'json' };
import jobSamples from './samples/jobs.job.json' with { type: 'json' };
import searchSamples from './samples/jobs.search.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };

/** Cards per guest search page; a shorter page is the last one. */
const PAGE_SIZE = 10;
/** The guest search serves results up to this offset (the SPEC cursor has 3 digits). */
const MAX_START = 1000;
/** Posts fetched at once for linkedin.posts. */
const POST_CONCURRENCY = 4;

const jobsSearch = operation(LINKEDIN.jobsSearch, {
  async run(input, ctx) {
    const geoId = input.geoId ?? (input.location ? await geoIdFor(input.location, ctx) : undefined);
    const jobs: JobCard[] = [];
    const seen = new Set<string>();
    let start = input.cursor ? Number(input.cursor) : 0;
    let more = true;
    while (more && jobs.length < input.limit && start < MAX_START) {
      const cards = jobCards(await searchPage(input, geoId, start, ctx));
      const used = cards.slice(0, input.limit - jobs.length);
      for (const card of used) {
        if (seen.has(card.id)) continue;
        seen.add(card.id);
        jobs.push(card);
      }
      start += used.length;
      more = used.length > 0 && (used.length < cards.length || cards.length >= PAGE_SIZE);
    }
    const cursor = more && start < MAX_START ? String(start) : undefined;
    return { data: { jobs, ...(cursor ? { cursor } : {}) }, ...(jobs.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const jobsJob = operation(LINKEDIN.jobsJob, {
  async run(input, ctx) {
    const id = jobId(input.job);
    return { data: { job: jobPostingRecord(await jobPosting(id, ctx), id) } };
  },
  samples: jobSamples,
});

const company = operation(LINKEDIN.company, {
  async run(input, ctx) {
    const page = await publicPage(companyUrl(companySlug(input.company)), 'company', ctx);
    return { data: { company: companyRecord(page.html, page.url) } };
  },
  samples: companySamples,
});

const profile = operation(LINKEDIN.profile, {
  async run(input, ctx) {
    const page = await publicPage(profileUrl(profileSlug(input.profile)), 'profile', ctx);
    return { data: { profile: profileRecord(page.html, page.url) } };
  },
  samples: profileSamples,
});

const posts = operation(LINKEDIN.posts, {
  async run(input, ctx) {
    if (input.profile && input.company) {
      throw new QuarryError('invalidRequest', 'profile: give a profile or a company, not both', { retryable: false });
    }
    const page = input.profile
      ? await publicPage(profileUrl(profileSlug(input.profile)), 'profile', ctx)
      : await publicPage(companyUrl(companySlug(input.company!)), 'company', ctx);
    const links = postLinks(page.html).slice(0, input.limit);
    const found: (Post | undefined)[] = new Array(links.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < links.length; i = next++) {
        try {
          found[i] = postRecord((await publicPage(links[i].url, 'post', ctx)).html, links[i]);
        } catch (e) {
          // A post deleted since the page linked it is skipped; walls and drift fail the call.
          if (!(isQuarryError(e) && e.code === 'notFound')) throw e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(POST_CONCURRENCY, links.length) }, worker));
    const list = found.filter((p): p is Post => p !== undefined);
    return { data: { posts: list }, ...(list.length ? {} : { free: true }) };
  },
  samples: postsSamples,
});

/** Ad Library pages read at most per call (120 ads at LinkedIn's two dozen a page, plus one resumed page). */
const MAX_AD_PAGES = 7;
/**
 * Stands for LinkedIn's first page in a cursor: SPEC's cursor is two numbers joined by `-` (LinkedIn's own token,
 * `{last ad id}-{time}`), so a first page cut by `limit` is `N~0-0`.
 */
const FIRST_PAGE = '0-0';

const adsSearch = operation(LINKEDIN.adsSearch, {
  async run(input, ctx) {
    const params = adSearchParams(input);
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    let total: number | undefined;
    const { items, cursor } = await collectPages<LinkedinAd>(
      { skip: from.skip, token: from.token === FIRST_PAGE ? undefined : from.token },
      input.limit,
      async (token) => {
        const page = adResults(await adSearchPage(params, token, ctx), token);
        if (!token) total = page.total;
        return { items: page.ads, token: page.next };
      },
      MAX_AD_PAGES,
    );
    const next = cursor?.endsWith('~') ? `${cursor}${FIRST_PAGE}` : cursor;
    return {
      data: { ads: items, ...(next ? { cursor: next } : {}), ...(total !== undefined ? { total } : {}) },
      ...(items.length ? {} : { free: true }),
    };
  },
  samples: adSearchSamples,
});

const adsAd = operation(LINKEDIN.adsAd, {
  async run(input, ctx) {
    const id = adId(input.ad);
    return { data: { ad: adRecord(await adPage(id, ctx), id) } };
  },
  samples: adSamples,
});

const linkedin: SourceModule = {
  id: 'linkedin',
  needs: { proxy: 'advised' },
  operations: [jobsSearch, jobsJob, company, profile, posts, adsSearch, adsAd],
};

export default linkedin;
