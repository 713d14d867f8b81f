/**
 * linkedin: the guest job search and postings against LinkedIn's recorded answers (shared/upstream/professional);
 * company, profile and post pages against documented-shape doubles (test/fixtures/documented/linkedin, schema.org
 * data written from its documentation: no such page is recorded); login walls, 999 and the recorded 429 page;
 * drift; test mode; and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LINKEDIN } from '../../src/catalogue/endpoints/linkedin.js';
import { compileRecordCheck } from '../../src/catalogue/records.js';
import { jobCards, jobPostingRecord, salaryFrom, applicantsFrom, companyRecord, postRecord } from '../../src/sources/linkedin/normalise.js';
import { companySlug, jobId, postRef, profileSlug } from '../../src/sources/linkedin/refs.js';
import { blockText } from '../../src/sources/kit/web/block-text.js';
import { parseHtml } from '../../src/sources/kit/web/dom.js';
import { failure } from '../helpers/failure.js';
import { post } from '../helpers/gateway.js';
import { haveRecordings, readRecording, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { documented, linkedinReplay } from './linkedin-doubles.js';

const FOLDER = 'professional';

describe('linkedin addresses, money and documented pages (no recordings needed)', () => {
  it('jobId / companySlug / profileSlug read ids, slugs and addresses; anything else is a 400 naming the field', async () => {
    expect(jobId('4417627058')).toBe('4417627058');
    expect(jobId('https://ch.linkedin.com/jobs/view/technical-requirements-engineer-80-100%25-at-fides-4417627058?trk=x')).toBe('4417627058');
    expect(jobId('linkedin.com/jobs/search/?currentJobId=3915648739&keywords=ml')).toBe('3915648739');
    expect(jobId('https://www.linkedin.com/jobs/view/3915648739/')).toBe('3915648739');
    expect(companySlug('https://www.linkedin.com/company/microsoft/about/')).toBe('microsoft');
    expect(companySlug('1035')).toBe('1035');
    expect(profileSlug('https://www.linkedin.com/in/williamhgates')).toBe('williamhgates');
    for (const [fn, bad, field] of [
      [jobId, 'https://example.com/jobs/view/123', 'job'],
      [jobId, 'not a job', 'job'],
      [companySlug, 'https://www.linkedin.com/in/someone', 'company'],
      [profileSlug, '../etc/passwd', 'profile'],
    ] as const) {
      const err = await failure(() => fn(bad));
      expect(err.code, bad).toBe('invalidRequest');
      expect(err.message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('post addresses: /posts/…-activity-{id} and /feed/update/urn:li:activity:{id}, tracking dropped, host www', () => {
    expect(postRef('https://ch.linkedin.com/posts/acme_launch-activity-7200000000000000001-AbCd?trk=x')).toEqual({
      id: '7200000000000000001',
      url: 'https://www.linkedin.com/posts/acme_launch-activity-7200000000000000001-AbCd/',
    });
    expect(postRef('/feed/update/urn:li:activity:7200000000000000003/')?.id).toBe('7200000000000000003');
    expect(postRef('https://www.linkedin.com/company/acme/jobs')).toBeUndefined();
    expect(postRef('https://evil.example/posts/x-activity-7200000000000000001-a')).toBeUndefined();
  });

  it('salaries: one known currency, both bounds, a period when written; anything else is left out', () => {
    expect(salaryFrom('$114,000.00 - $168,000.00')).toEqual({ currency: 'USD', min: 114000, max: 168000 });
    expect(salaryFrom('CA$50.00/hr - CA$60.00/hr')).toEqual({ currency: 'CAD', min: 50, max: 60, period: 'hour' });
    expect(salaryFrom('€60K/yr')).toEqual({ currency: 'EUR', min: 60000, max: 60000, period: 'year' });
    expect(salaryFrom('$50 - €60')).toBeUndefined();
    expect(salaryFrom('Competitive')).toBeUndefined();
    expect(applicantsFrom('82 applicants')).toBe(82);
    expect(applicantsFrom('Over 200 applicants')).toBeUndefined();
  });

  it('company and post pages are read from their schema.org data only (documented doubles, not recordings)', () => {
    const company = companyRecord(documented('company-page.html'), 'https://www.linkedin.com/company/example-robotics/');
    expect(company).toMatchObject({ name: 'Example Robotics', employees: 1200, followers: 48210, website: 'https://www.example.com/' });
    const p = postRecord(documented('post-7200000000000000002.html'), { id: '7200000000000000002', url: 'https://www.linkedin.com/posts/x/' });
    expect(p).toMatchObject({ likes: 58, comments: 4, images: [{ url: 'https://media.example.com/team.jpg' }] });
  });

  it('a page without its schema.org data is drift, unless it is the sign-up page (a wall)', async () => {
    expect((await failure(() => companyRecord('<html><title>Microsoft | LinkedIn</title></html>', 'https://www.linkedin.com/company/microsoft/'))).code).toBe('sourceChanged');
    expect((await failure(() => companyRecord('<html><title>Sign Up | LinkedIn</title></html>', 'https://www.linkedin.com/company/microsoft/'))).code).toBe('sourceRefused');
  });

  it('kit blockText: blocks start lines, paragraphs end with a blank one, <br> breaks, list items get "- "', () => {
    expect(blockText(parseHtml('<p>One  two</p><ul><li>a</li><li>b<br>c</li></ul>Tail<script>x()</script>'))).toBe('One two\n\n- a\n- b\nc\nTail');
    expect(blockText(parseHtml('<div><div><p>deep</p></div></div>'))).toBe('deep');
    expect(blockText(undefined)).toBeUndefined();
  });

  it('hostile fragments: stray close tags are harmless; nesting past the toolkit\'s bound cuts the page there, no crash', () => {
    const card = '<li><div data-entity-urn="urn:li:jobPosting:1"><h3 class="base-search-card__title">T</h3></div></li>';
    expect(jobCards(`${'</span>'.repeat(100_000)}${card}`)).toEqual([{ type: 'job', id: '1', url: 'https://www.linkedin.com/jobs/view/1/', title: 'T' }]);
    expect(jobCards(`${'<div>'.repeat(100_000)}${card}`)).toEqual([]);
    expect(jobCards('')).toEqual([]);
  });
});

describe('linkedin test mode (committed samples)', () => {
  it.each([
    ['linkedin.jobs.search', { query: 'engineer' }, (d: any) => expect(d.jobs.length).toBe(5)],
    ['linkedin.jobs.job', { job: '4417627058' }, (d: any) => expect(d.job).toMatchObject({ id: '4417627058', applicants: 82 })],
    ['linkedin.company', { company: 'microsoft' }, (d: any) => expect(d.company.name).toBe('Example Robotics')],
    ['linkedin.profile', { profile: 'williamhgates' }, (d: any) => expect(d.profile.experience).toHaveLength(2)],
    ['linkedin.posts', { company: 'microsoft', limit: 1 }, (d: any) => expect(d.posts).toHaveLength(1)],
  ])('%s answers from its sample', async (id, body, check) => check((await runSample(id, body)).data));

  it('jobs.search pages through the recorded cards by cursor, then ends', async () => {
    const first = await runSample('linkedin.jobs.search', {});
    const second = await runSample('linkedin.jobs.search', { cursor: first.data.cursor });
    expect(second.data.jobs.map((j: any) => j.id)).not.toContain(first.data.jobs[0].id);
    const past = await runSample('linkedin.jobs.search', { cursor: second.data.cursor });
    expect(past).toMatchObject({ items: 0, free: true });
  });
});

describe.skipIf(!haveRecordings(FOLDER))(`linkedin against the recorded guest answers${skipReason(FOLDER)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(linkedinReplay());
    live = liveContext('linkedin', replay);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
    replay.mutate = undefined;
  });
  const asked = (path: string) => replay.seen.filter((s) => s.path === path);

  it.each([
    [
      'linkedin.jobs.search',
      { query: 'engineer', location: 'Zurich', limit: 10 },
      (d: any) => {
        expect(d.jobs).toHaveLength(10);
        expect(d.cursor).toBe('10');
        expect(d.jobs[0]).toEqual({
          type: 'job',
          id: '4411505802',
          url: 'https://www.linkedin.com/jobs/view/4411505802/',
          title: 'Application Engineer (Starting ASAP, 60-100%, Zürich)',
          company: {
            name: 'Manukai',
            url: 'https://www.linkedin.com/company/manukai-ch',
            logo: expect.stringMatching(/^https:\/\/media\.licdn\.com\/dms\/image\/v2\/D4E0BAQE56EV0g34Jgg\//),
          },
          location: { full: 'Zurich, Zurich, Switzerland' },
          postedAt: '2026-05-14',
        });
        expect(d.jobs.at(-1)).toMatchObject({ title: 'Technical Sales Engineer', company: { name: 'PIPECARE Group' }, postedAt: '2026-02-09' });
      },
    ],
    [
      'linkedin.jobs.search',
      { geoId: '107814425', limit: 3 },
      (d: any) => {
        expect(d.jobs.map((j: any) => j.id)).toEqual(['4411505802', '4389470793', '4417627058']);
        expect(d.cursor).toBe('3');
      },
    ],
    [
      'linkedin.jobs.job',
      { job: 'https://ch.linkedin.com/jobs/view/technical-requirements-engineer-80-100%25-at-fides-treasury-services-4417627058' },
      (d: any) => {
        expect(d.job).toMatchObject({
          type: 'job',
          id: '4417627058',
          url: 'https://www.linkedin.com/jobs/view/4417627058/',
          title: 'Technical Requirements Engineer (80-100%)',
          company: { name: 'Fides Treasury Services', url: 'https://www.linkedin.com/company/fides-treasury-services-ag' },
          location: { full: 'Zurich, Zurich, Switzerland' },
          applicants: 82,
          seniority: 'Associate',
          employmentType: 'fullTime',
          functions: ['Information Technology'],
          industries: ['IT Services and IT Consulting'],
          isEasyApply: false,
        });
        expect(d.job.description).toMatch(/^Fides Treasury Services is a leading provider/);
        expect(d.job.description).toContain('\n- Capture and structure technical requirements');
        expect(d.job.postedAt).toBeUndefined(); // the fragment says only "1 week ago"
      },
    ],
    [
      'linkedin.company',
      { company: 'https://www.linkedin.com/company/example-robotics/' },
      (d: any) =>
        expect(d.company).toMatchObject({
          type: 'company',
          url: 'https://www.linkedin.com/company/example-robotics',
          username: 'example-robotics',
          foundedAt: '2011',
          headquarters: { city: 'Zurich', country: 'CH', postalCode: '8000' },
        }),
    ],
    [
      'linkedin.profile',
      { profile: 'ada-example' },
      (d: any) => {
        expect(d.profile).toMatchObject({ name: 'Ada Example', headline: 'Head of Robotics · Mentor', location: 'Zurich, CH', followers: 5300 });
        expect(d.profile.education).toEqual([{ organization: 'Example Institute of Technology', url: 'https://www.example.edu/', startedAt: '2008', endedAt: '2012' }]);
        expect(d.profile.links).toEqual([{ url: 'https://ada.example.com/' }]);
      },
    ],
    [
      'linkedin.posts',
      { company: 'example-robotics' },
      (d: any) => {
        // Three linked posts, one linked twice; the deleted one is skipped.
        expect(d.posts.map((p: any) => p.id)).toEqual(['7200000000000000001', '7200000000000000002']);
        expect(d.posts[0]).toMatchObject({ likes: 312, comments: 27, createdAt: '2026-05-02T07:30:00.000Z', video: { durationSeconds: 65 } });
      },
    ],
  ])('%s %j', async (id, body, check) => check((await runLive(id, body, live.ctx)).data));

  it('a place is resolved to its geoId with the recorded typeahead; filters map onto the guest parameters', async () => {
    await runLive('linkedin.jobs.search', { query: 'engineer', location: 'Zurich', limit: 2 }, live.ctx);
    expect(asked('/jobs-guest/api/typeaheadHits')).toHaveLength(1);
    const search = asked('/jobs-guest/jobs/api/seeMoreJobPostings/search')[0];
    expect(Object.fromEntries(search.query)).toEqual({ keywords: 'engineer', location: 'Zurich', geoId: '107814425', start: '0' });
    replay.seen.length = 0;
    await runLive(
      'linkedin.jobs.search',
      {
        geoId: '107814425',
        within: 'week',
        jobTypes: ['fullTime', 'internship'],
        experience: ['entry', 'director'],
        workplace: ['remote', 'hybrid'],
        companyIds: ['1035', '1441'],
        easyApply: true,
        sort: 'newest',
        cursor: '20',
        limit: 1,
      },
      live.ctx,
    ).catch(() => undefined);
    const filtered = asked('/jobs-guest/jobs/api/seeMoreJobPostings/search')[0];
    expect(Object.fromEntries(filtered.query)).toEqual({
      geoId: '107814425', f_TPR: 'r604800', f_JT: 'F,I', f_E: '2,5', f_WT: '2,3', f_C: '1035,1441', f_AL: 'true', sortBy: 'DD', start: '20',
    });
    expect(asked('/jobs-guest/api/typeaheadHits')).toHaveLength(0);
  });

  it('the recorded public job page (/jobs/view) reads like the fragment, with the employer\'s own apply address', () => {
    const job = jobPostingRecord(readRecording('professional/job-view-public.html'), '3915648739');
    expect(job).toMatchObject({
      title: 'Machine Learning Engineer, Applied AI',
      company: { name: 'OpenAI' },
      location: { full: 'San Francisco, CA' },
      seniority: 'Entry level',
      applyUrl: 'https://jobs.ashbyhq.com/openai/d44c9f70-4aef-45a4-a36a-54fb65663ccb?utm_source=8lvZy0eqYJ',
      isEasyApply: false,
    });
    expect(job.applicants).toBeUndefined(); // "Over 200 applicants" is a bound, not a count
    expect(compileRecordCheck(LINKEDIN.jobsJob.output!)({ job })).toBeNull();
  });

  it.each([
    ['linkedin.profile', { profile: 'walled' }, 'sourceRefused', /sign-in wall/],
    ['linkedin.profile', { profile: 'blocked' }, 'sourceRefused', /HTTP 999/],
    ['linkedin.company', { company: 'gone' }, 'notFound', /^company: /],
    ['linkedin.jobs.job', { job: '3915648739' }, 'sourceRefused', /HTTP 429/],
  ])('%s %j → %s', async (id, body, code, message) => {
    const err = await failure(runLive(id, body, live.ctx));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
  });

  it('drift: a search card without its title, a posting without its top card → sourceChanged', async () => {
    replay.mutate = (name, body) => (name.endsWith('.html') ? body.replaceAll('base-search-card__title', 'renamed').replaceAll('top-card-layout', 'renamed') : body);
    expect((await failure(runLive('linkedin.jobs.search', { geoId: '107814425' }, live.ctx))).code).toBe('sourceChanged');
    expect((await failure(runLive('linkedin.jobs.job', { job: '4417627058' }, live.ctx))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!haveRecordings(FOLDER))(`linkedin through the gateway${skipReason(FOLDER)}`, () => {
  const g = useSourceGateway(() => ({ replay: linkedinReplay() }));

  it('live: ten cards cost 1 credit (per 10), a posting 1; the cursor goes back upstream as start', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/linkedin/jobs/search', { geoId: '107814425', limit: 10 });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data.jobs).toHaveLength(10);
    expect(r.json.data.cursor).toBe('10');
    const job = await g.post('/v1/linkedin/jobs/job', { job: '4417627058' });
    expect(job.status).toBe(200);
    expect(job.json.creditsUsed).toBe(1);
    expect(await g.balance()).toBe(before - 2);
    g.replay.seen.length = 0;
    await g.post('/v1/linkedin/jobs/search', { geoId: '107814425', limit: 10, cursor: '10' });
    expect(g.replay.seen.find((s) => s.path.endsWith('/search'))?.query.get('start')).toBe('10');
  });

  it('test mode: the committed sample with a qry_test_ key, paging by its cursor, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const first = await g.post('/v1/linkedin/jobs/search', { query: 'engineer', location: 'Zurich' }, 'test');
      expect(first.status).toBe(200);
      expect(first.json.data.jobs).toHaveLength(5);
      expect(first.json.creditsUsed).toBe(1);
      const second = await g.post('/v1/linkedin/jobs/search', { query: 'engineer', location: 'Zurich', cursor: first.json.data.cursor }, 'test');
      expect(second.json.data.jobs).toHaveLength(5);
    });
  });

  it('refusals and drift fail unbilled: a sign-in wall → 502 sourceRefused, a changed posting → 502 sourceChanged', async () => {
    await g.expectRefused('/v1/linkedin/profile', { profile: 'walled' });
    await g.expectDrift('/v1/linkedin/jobs/job', { job: '4417627058', maxAge: 0 }, (name, body) => (name.includes('jobposting') ? body.replaceAll('top-card-layout__title', 'renamed') : body));
  });
});
