/**
 * glassdoor, against documented-shape doubles only: no Glassdoor answer is recorded anywhere this project may use.
 * Answers are written from the interfaces JobSpy and scrapfly-scrapers use (test/fixtures/documented/glassdoor, named
 * so). Also: the requests sent, cursors, Cloudflare, drift, test mode and one gateway round over HTTP.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apolloCacheOf, jobSearchBody, siteOf } from '../../src/sources/glassdoor/client.js';
import { company } from '../../src/sources/glassdoor/normalise.js';
import { employerIdOf } from '../../src/sources/glassdoor/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { documentedFile, GLASSDOOR_HOSTS, glassdoorReplay, PAGE2_CURSOR } from './glassdoor-doubles.js';

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe('glassdoor sites, ids, caches and queries', () => {
  it('country sites as JobSpy lists them; employers by id or any address carrying it', async () => {
    expect([siteOf('us'), siteOf('GB'), siteOf('ch'), siteOf('be')]).toEqual(['https://www.glassdoor.com', 'https://www.glassdoor.co.uk', 'https://de.glassdoor.ch', 'https://fr.glassdoor.be']);
    expect(employerIdOf('https://www.glassdoor.com/Overview/Working-at-eBay-EI_IE7853.11,15.htm')).toBe('7853');
    expect(employerIdOf('https://www.glassdoor.co.uk/Salary/eBay-Salaries-E7853_P2.htm')).toBe('7853');
    for (const bad of ['ebay', 'https://evil.example/Reviews/x-E1.htm']) {
      const err = await failure(() => employerIdOf(bad));
      expect([err.code, err.message.startsWith('company: ')]).toEqual(['invalidRequest', true]);
    }
  });

  it('the Apollo cache is read from __NEXT_DATA__ or an apolloState assignment alike', () => {
    for (const name of ['overview.1000001.html', 'overview.1000001.apollostate.html']) {
      const cache = apolloCacheOf(readFileSync(documentedFile(name), 'utf8'))!;
      expect(company(cache, '1000001')).toMatchObject({ name: 'Example Corp', rating: { value: 4.1, max: 5, count: 4567 }, ceo: { name: 'Pat Example' } });
    }
  });

  it('JobSpy\'s payload: location, page and cursor; date window, job type and easy apply as filterParams', () => {
    const [body] = jobSearchBody({ query: 'nurse', location: { id: 1139761, type: 'CITY' }, within: 'week', jobType: 'partTime', easyApply: true }, 2, 'c', 30) as any[];
    expect(body.variables).toMatchObject({
      keyword: 'nurse', locationId: 1139761, locationType: 'CITY', parameterUrlInput: 'IL.0,12_ICITY1139761', pageNumber: 2, pageCursor: 'c', numJobsToShow: 30, fromage: 7, sort: 'date',
      filterParams: [{ filterKey: 'applicationType', values: '1' }, { filterKey: 'fromAge', values: '7' }, { filterKey: 'jobType', values: 'parttime' }],
    });
  });
});

describe('glassdoor live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(glassdoorReplay());
    live = liveContext('glassdoor', replay, {}, GLASSDOOR_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('glassdoor.jobs.search: token, place, GraphQL; jobs in the shared job record; Glassdoor\'s cursor pages on', async () => {
    const first = await runLive('glassdoor.jobs.search', { query: 'data engineer', location: 'Austin, TX', limit: 3 }, live.ctx);
    expect(replay.seen.map((s) => s.path)).toEqual(['/Job/computer-science-jobs.htm', '/findPopularLocationAjax.htm', '/graph']);
    expect(replay.seen[2].headers['gd-csrf-token']).toBe('example-csrf-token');
    expect((replay.seen[2].body as any)[0].variables).toMatchObject({ keyword: 'data engineer', locationId: 1139761, locationType: 'CITY', pageNumber: 1 });
    expect(first.data).toMatchObject({ total: 5, cursor: `2:${PAGE2_CURSOR}` });
    expect(first.data.jobs[0]).toEqual({
      type: 'job',
      id: '1009000000001',
      url: 'https://www.glassdoor.com/job-listing/j?jl=1009000000001',
      title: 'Data Engineer',
      description: 'Data Engineer at Example Corp. Illustrative description.\n\n- Python\n- SQL',
      company: { name: 'Example Corp', id: '1000001', url: 'https://www.glassdoor.com/Overview/W-EI_IE1000001.htm', logo: 'https://media.glassdoor.com/sql/1000001/example-squarelogo.png' },
      location: { full: 'Austin, TX', city: 'Austin', state: 'TX' },
      salary: { currency: 'USD', min: 118000.4, max: 164000.9, period: 'year' },
      postedAt: daysAgo(2),
      isEasyApply: true,
      companyRating: 4.1,
    });
    expect(first.data.jobs[1]).toMatchObject({ workplace: 'remote', location: { full: 'Remote' }, isSponsored: true });
    expect(first.data.jobs[2]).toMatchObject({ salary: { min: 55.5, max: 72, period: 'hour' } });
    expect(first.data.jobs[2].companyRating).toBeUndefined(); // Glassdoor's -0.1 is "no rating"
    const next = await runLive('glassdoor.jobs.search', { query: 'data engineer', location: 'Austin, TX', limit: 3, cursor: first.data.cursor }, live.ctx);
    expect(next.data.jobs.map((j: any) => j.id)).toEqual(['1009000000004', '1009000000005']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('without a place (or remote) JobSpy\'s remote place is asked; limit inside a page owes its rest', async () => {
    const cut = await runLive('glassdoor.jobs.search', { query: 'data engineer', limit: 2 }, live.ctx);
    expect(replay.seen.map((s) => s.path)).toEqual(['/Job/computer-science-jobs.htm', '/graph']);
    expect((replay.seen[1].body as any)[0].variables).toMatchObject({ locationId: 11047, locationType: 'STATE' });
    expect(cut.data.cursor).toBe('2~');
    const rest = await runLive('glassdoor.jobs.search', { query: 'data engineer', limit: 2, cursor: '2~' }, live.ctx);
    expect(rest.data.jobs.map((j: any) => j.id)).toEqual(['1009000000003', '1009000000004']);
  });

  it('glassdoor.company reads the overview page\'s Employer, its ratings and counts', async () => {
    const { data } = await runLive('glassdoor.company', { company: '1000001' }, live.ctx);
    expect(data.company).toMatchObject({
      type: 'company', id: '1000001', url: 'https://www.glassdoor.com/Overview/Working-at-Example-Corp-EI_IE1000001.11,23.htm', name: 'Example Corp',
      website: 'www.example.com', location: 'Austin, TX', rating: { value: 4.1, max: 5, count: 4567 }, recommendShare: 0.81, ceoApprovalShare: 0.84,
      ceo: { name: 'Pat Example', title: 'CEO' }, reviews: 5444, salaries: 11988, interviews: 1340, jobs: 115,
    });
    expect(data.company.subratings).toContainEqual({ name: 'Work/life balance', value: 4 });
  });

  it('glassdoor.reviews: the page\'s ids in the BFF request, newest first; page.size[.skip] cursors', async () => {
    const first = await runLive('glassdoor.reviews', { company: 'https://www.glassdoor.com/Reviews/Example-Corp-Reviews-E1000001.htm', limit: 2 }, live.ctx);
    expect(replay.seen[1].body).toMatchObject({ employerId: 1000001, dynamicProfileId: 2000002, page: 1, pageSize: 2, sort: 'DATE' });
    expect(first.data.cursor).toBe('2.2');
    expect(first.data.reviews[1]).toMatchObject({ id: '97000002', rating: 3, recommends: false, ceoApproval: 'no_opinion', createdAt: '2026-09-21T08:10:00.000Z' });
    // A smaller limit than the page's size: the rest of that page is owed (page.size.answered), nothing skipped.
    const one = await runLive('glassdoor.reviews', { company: '1000001', limit: 1, cursor: '1.2' }, live.ctx);
    expect([one.data.reviews[0].id, one.data.cursor]).toEqual(['97000001', '1.2.1']);
    const second = await runLive('glassdoor.reviews', { company: '1000001', limit: 1, cursor: '1.2.1' }, live.ctx);
    expect([second.data.reviews[0].id, second.data.cursor]).toEqual(['97000002', '2.2']);
    const last = await runLive('glassdoor.reviews', { company: '1000001', limit: 2, cursor: '2.2' }, live.ctx);
    expect([last.data.reviews.map((r: any) => r.id), last.data.cursor]).toEqual([['97000003'], undefined]);
  });

  it('glassdoor.salaries: base pay P10-P90 a year, median, total and additional pay; pages by _P{n}', async () => {
    const first = await runLive('glassdoor.salaries', { company: '1000001' }, live.ctx);
    expect(replay.seen.map((s) => s.path)).toEqual(['/Salary/W-Salaries-E1000001.htm', '/Salary/W-Salaries-E1000001_P2.htm']);
    expect(first.data.salaries.map((s: any) => s.title)).toEqual(['Software Engineer', 'Data Analyst', 'Product Manager']);
    expect(first.data.salaries[0]).toMatchObject({ salary: { currency: 'USD', min: 143425.57, max: 192242.78, period: 'year' }, median: 166049.78, submissions: 916 });
    expect(first.data.cursor).toBeUndefined();
  });

  it.each([
    ['glassdoor.jobs.search', { location: 'Nowhere' }, 'notFound'],
    ['glassdoor.jobs.search', { query: 'walled' }, 'sourceRefused'],
    ['glassdoor.jobs.search', { query: 'schema drift' }, 'sourceChanged'],
    ['glassdoor.jobs.search', { query: 'x', cursor: '3:not a cursor' }, 'invalidRequest'],
    ['glassdoor.company', { company: '9' }, 'notFound'],
    ['glassdoor.reviews', { company: '1000001', cursor: '1.5.9' }, 'invalidRequest'],
  ])('%s %j → %s', async (id, body, code) => {
    expect((await failure(runLive(id, body, live.ctx))).code).toBe(code);
  });

  it('drift: reviews without ratingOverall, an overview without its Employer', async () => {
    replay.mutate = (_name, body) => body.replaceAll('"ratingOverall"', '"overall"').replaceAll('Employer:1000001', 'Company:1000001');
    try {
      expect((await failure(runLive('glassdoor.reviews', { company: '1000001' }, live.ctx))).code).toBe('sourceChanged');
      expect((await failure(runLive('glassdoor.company', { company: '1000001' }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('glassdoor test mode (committed samples, from documented-shape doubles)', () => {
  it('jobs, reviews and salaries walk two pages; the company answers its sample', async () => {
    for (const [id, body, field] of [
      ['glassdoor.jobs.search', { query: 'data engineer', location: 'Austin, TX', limit: 3 }, 'jobs'],
      ['glassdoor.reviews', { company: '1000001', limit: 2 }, 'reviews'],
      ['glassdoor.salaries', { company: '1000001', limit: 2 }, 'salaries'],
    ] as const) {
      const first = await runSample(id, body);
      const second = await runSample(id, { ...body, cursor: first.data.cursor });
      expect(first.data[field].length).toBeGreaterThan(0);
      expect(second.data[field].length).toBeGreaterThan(0);
    }
    expect((await runSample('glassdoor.company', { company: '1000001' })).data.company.name).toBe('Example Corp');
  });
});

describe('glassdoor through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: glassdoorReplay(), hosts: GLASSDOOR_HOSTS }));

  it('live prices and paging, test mode, a wall and drift unbilled', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/glassdoor/jobs/search', { query: 'data engineer', location: 'Austin, TX', limit: 3 });
    expect([r.status, r.json.creditsUsed]).toEqual([200, 1]);
    const next = await g.post('/v1/glassdoor/jobs/search', { query: 'data engineer', location: 'Austin, TX', limit: 3, cursor: r.json.data.cursor });
    expect(next.json.data.jobs).toHaveLength(2);
    const salaries = await g.post('/v1/glassdoor/salaries', { company: '1000001', limit: 20 });
    expect([salaries.status, salaries.json.creditsUsed]).toEqual([200, 1]);
    expect(await g.balance()).toBe(before - 3);

    await g.expectTestMode(async () => {
      const sample = await g.post('/v1/glassdoor/company', { company: '1000001' }, 'test');
      expect([sample.status, sample.json.data.company.name]).toEqual([200, 'Example Corp']);
    });

    await g.expectFailure('/v1/glassdoor/jobs/search', { query: 'walled' }, { status: 502, code: 'sourceRefused', message: 'glassdoor: the platform answered a Cloudflare bot wall instead of the page' });
    await g.expectDrift('/v1/glassdoor/jobs/search', { query: 'schema drift' });
    expect(await g.balance()).toBe(before - 3);
  });
});
