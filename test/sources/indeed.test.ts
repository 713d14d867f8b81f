/**
 * indeed, against documented-shape doubles only: no Indeed answer is recorded anywhere this project may use
 * (shared/upstream has no jobboard folder). The search's GraphQL answers are written from the query JobSpy sends and
 * the job page from schema.org's JobPosting (test/fixtures/documented/indeed). Also: the missing key, refusals, drift,
 * the cursor form, test mode and one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { filtersOf, searchQuery, webHost } from '../../src/sources/indeed/client.js';
import { htmlText, jobPosting } from '../../src/sources/indeed/normalise.js';
import { decodeCursor, encodeCursor, jobRef } from '../../src/sources/indeed/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { API_KEY, documented, indeedReplay, PAGE1_NEXT, SETTINGS } from './indeed-doubles.js';

const base = { country: 'gb', radiusKm: 40, remote: false, within: 'all', sort: 'relevance', limit: 25 } as const;

describe('indeed queries, cursors and job addresses', () => {
  it('jobSearch: place and radius in kilometres, sort, cursor, and the terms as GraphQL string literals', () => {
    const q = searchQuery({ ...base, query: 'nurse "ICU"', location: 'London', sort: 'newest' }, 25, 'tok"en');
    expect(q).toContain('what: "nurse \\"ICU\\""');
    expect(q).toContain('location: { where: "London", radius: 40, radiusUnit: KILOMETERS }');
    expect(q).toContain('limit: 25 cursor: "tok\\"en" sort: DATE');
    expect(q).toContain('results { trackingKey job { key title');
  });

  it('filters: attribute keys in a composite filter; with a date window, the date filter upstream and the keys here', () => {
    expect(filtersOf({ ...base, jobType: 'partTime', remote: true })).toEqual({
      graphql: 'filters: { composite: { filters: [{ keyword: { field: "attributes", keys: ["75GKK", "DSQF7"] } }] } }',
      clientSide: [],
    });
    expect(filtersOf({ ...base, within: 'threeDays', jobType: 'internship' })).toEqual({
      graphql: 'filters: { date: { field: "dateOnIndeed", start: "72h" } }',
      clientSide: ['VDTG7'],
    });
    expect(filtersOf(base)).toEqual({ graphql: '', clientSide: [] });
  });

  it("cursors have SPEC's digits.digits.base64 form whatever Indeed's cursor holds; '=' stands for the first page", async () => {
    const c = encodeCursor({ offset: 100, skip: 3, token: PAGE1_NEXT });
    expect(c).toMatch(/^[0-9]+\.[0-9]+\.[A-Za-z0-9+/=]+$/);
    expect(decodeCursor(c)).toEqual({ offset: 100, skip: 3, token: PAGE1_NEXT });
    expect(decodeCursor(encodeCursor({ offset: 2, skip: 2 }))).toEqual({ offset: 2, skip: 2 });
    expect((await failure(() => decodeCursor('1.2.@@'))).message).toMatch(/^cursor: /);
  });

  it('jobRef: a key, or an Indeed address on its own country site; anything else a 400 naming job', async () => {
    expect(jobRef('A1B2C3D4E5F60718', undefined)).toEqual({ key: 'a1b2c3d4e5f60718', host: 'www.indeed.com' });
    expect(jobRef('a1b2c3d4e5f60718', 'gb')).toEqual({ key: 'a1b2c3d4e5f60718', host: 'uk.indeed.com' });
    expect(jobRef('https://de.indeed.com/viewjob?jk=a1b2c3d4e5f60718&from=serp', 'us')).toEqual({ key: 'a1b2c3d4e5f60718', host: 'de.indeed.com' });
    expect(jobRef('ca.indeed.com/jobs?q=x&vjk=a1b2c3d4e5f60718', undefined).host).toBe('ca.indeed.com');
    expect(webHost('fr')).toBe('fr.indeed.com');
    for (const bad of ['nurse', 'https://evil.example/viewjob?jk=a1b2c3d4e5f60718', 'https://www.indeed.com/viewjob?jk=zz']) {
      const err = await failure(() => jobRef(bad, undefined));
      expect(err.code, bad).toBe('invalidRequest');
      expect(err.message).toMatch(/^job: /);
    }
  });

  it('job pages: the schema.org JobPosting, or drift when the page carries none', async () => {
    const job = jobPosting(documented('viewjob.html'), 'a1b2c3d4e5f60718', 'https://uk.indeed.com/viewjob?jk=a1b2c3d4e5f60718');
    expect(job).toMatchObject({ title: 'Staff Nurse', postedAt: '2026-01-01', employmentType: 'fullTime', salary: { currency: 'GBP', min: 31000, max: 38000, period: 'year' } });
    expect((await failure(() => jobPosting('<html></html>', 'a1b2c3d4e5f60718', 'x'))).code).toBe('sourceChanged');
    expect(htmlText('<p>a</p><p>b</p>x<br>y')).toBe('a\n\nb\n\nx\ny');
  });
});

describe('indeed test mode (committed samples, from documented-shape doubles)', () => {
  it('search walks its two pages by cursor; the job answers its sample', async () => {
    const first = await runSample('indeed.search', { query: 'nurse', country: 'gb' });
    expect(first.data.jobs.map((j: any) => j.id)).toEqual(['a1b2c3d4e5f60718', 'b1b2c3d4e5f60718']);
    const second = await runSample('indeed.search', { query: 'nurse', country: 'gb', cursor: first.data.cursor });
    expect(second.data.jobs.map((j: any) => j.id)).toEqual(['c1b2c3d4e5f60718', 'd1b2c3d4e5f60718']);
    expect(second.data.cursor).toBeUndefined();
    expect((await runSample('indeed.job', { job: 'a1b2c3d4e5f60718' })).data.job.title).toBe('Staff Nurse');
  });
});

describe('indeed live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(indeedReplay());
    live = liveContext('indeed', replay, SETTINGS, ['apis.indeed.com', 'uk.indeed.com']);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });
  const queries = () => replay.seen.map((s) => String((s.body as { query: string }).query));

  it.each([
    [
      'indeed.search',
      { query: 'nurse', location: 'London', country: 'gb', limit: 10 },
      (d: any) => {
        expect(d.jobs.map((j: any) => j.id)).toEqual(['a1b2c3d4e5f60718', 'b1b2c3d4e5f60718', 'c1b2c3d4e5f60718', 'd1b2c3d4e5f60718']);
        expect(d.cursor).toBeUndefined();
        expect(d.jobs[0]).toEqual({
          type: 'job',
          id: 'a1b2c3d4e5f60718',
          url: 'https://uk.indeed.com/viewjob?jk=a1b2c3d4e5f60718',
          title: 'Staff Nurse',
          company: { name: 'Example Health NHS Trust', url: 'https://uk.indeed.com/cmp/Example-Health', logo: 'https://images.example.com/example-health.png' },
          location: { full: 'London', city: 'London', state: 'ENG', country: 'GB' },
          description: 'Join our surgical ward.\n\n- Band 5\n- Days and nights',
          salary: { currency: 'GBP', min: 31000, max: 38000, period: 'year' },
          postedAt: '2026-01-01T00:00:00.000Z',
          employmentType: 'fullTime',
          applyUrl: 'https://careers.example.com/jobs/123',
        });
        expect(d.jobs[2]).toMatchObject({ workplace: 'remote', location: { full: 'Remote in London' } });
        expect(d.jobs[2].company).toEqual({ name: 'Example Telehealth' }); // no employer: the source's own name
      },
    ],
    [
      'indeed.search',
      { query: 'nurse', location: 'London', country: 'gb', salary: { min: 33000 }, limit: 10 },
      // Top of the range, brought to a year: 38,000 a year, 22 an hour (45,760) and a 34,000 floor pass; no salary does not.
      (d: any) => expect(d.jobs.map((j: any) => j.id)).toEqual(['a1b2c3d4e5f60718', 'b1b2c3d4e5f60718', 'd1b2c3d4e5f60718']),
    ],
    [
      'indeed.job',
      { job: 'https://uk.indeed.com/viewjob?jk=a1b2c3d4e5f60718&from=serp' },
      (d: any) =>
        expect(d.job).toMatchObject({
          id: 'a1b2c3d4e5f60718',
          company: { name: 'Example Health NHS Trust', url: 'https://health.example.com/' },
          location: { city: 'London', postalCode: 'SE1 7EH', country: 'GB' },
          expiresAt: '2026-02-28T00:00:00.000Z',
        }),
    ],
  ])('%s %j', async (id, body, check) => check((await runLive(id, body, live.ctx)).data));

  it('the request: the app key, country and app headers; one page while limit allows, the next by Indeed\'s cursor', async () => {
    const out = await runLive('indeed.search', { query: 'nurse', location: 'London', country: 'gb', limit: 2 }, live.ctx);
    const sent = replay.seen[0];
    expect(sent.headers['indeed-api-key']).toBe(API_KEY);
    expect(sent.headers['indeed-co']).toBe('GB');
    expect(sent.headers['indeed-app-info']).toMatch(/appid=com\.indeed\.jobsearch/);
    expect(out.data.cursor).toBe('2.2.=');
    replay.seen.length = 0;
    const next = await runLive('indeed.search', { query: 'nurse', location: 'London', country: 'gb', limit: 2, cursor: out.data.cursor }, live.ctx);
    expect(next.data.jobs.map((j: any) => j.id)).toEqual(['c1b2c3d4e5f60718', 'd1b2c3d4e5f60718']);
    expect(queries()[0]).toContain('limit: 4');
    expect(queries()[1]).toContain(`cursor: "${PAGE1_NEXT}"`);
  });

  it('a date window goes upstream, job type and remote are applied to the answer', async () => {
    const out = await runLive('indeed.search', { query: 'nurse', country: 'gb', within: 'week', remote: true, limit: 10 }, live.ctx);
    expect(queries()[0]).toContain('filters: { date: { field: "dateOnIndeed", start: "168h" } }');
    expect(out.data.jobs.map((j: any) => j.id)).toEqual(['c1b2c3d4e5f60718']);
  });

  it.each([
    ['no key', { query: 'nurse' }, {}, 'sourceUnavailable', /QUARRY_INDEED_API_KEY/],
    ['a refused key', { query: 'nurse' }, { API_KEY: 'revoked-key' }, 'sourceUnavailable', /QUARRY_INDEED_API_KEY/],
    ['a challenge page', { query: 'nurse', country: 'de' }, SETTINGS, 'sourceRefused', /challenge|403/],
    ['a query the schema refuses', { query: 'schema drift', country: 'gb' }, SETTINGS, 'sourceChanged', /Cannot query field/],
    ['a tampered cursor', { query: 'nurse', cursor: '1.1.QQ' }, SETTINGS, 'invalidRequest', /^cursor: /],
  ])('search with %s → %s', async (_what, body, settings, code, message) => {
    const ctx = liveContext('indeed', replay, settings as Record<string, string>, ['apis.indeed.com']);
    try {
      const err = await failure(runLive('indeed.search', body, ctx.ctx));
      expect(err.code).toBe(code);
      expect(err.message).toMatch(message);
      expect(err.message).not.toContain(API_KEY);
    } finally {
      await ctx.close();
    }
  });

  it('an unknown job → notFound', async () => {
    expect((await failure(runLive('indeed.job', { job: 'ffffffffffffffff', country: 'gb' }, live.ctx))).code).toBe('notFound');
  });
});

describe('indeed through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: indeedReplay(), env: { QUARRY_INDEED_API_KEY: API_KEY } }));

  it('live: two jobs cost 1 credit (1 per 20 results), the job 1; paging by the cursor', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/indeed/search', { query: 'nurse', location: 'London', country: 'GB', limit: 2 });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    const next = await g.post('/v1/indeed/search', { query: 'nurse', location: 'London', country: 'GB', limit: 2, cursor: r.json.data.cursor });
    expect(next.json.data.jobs).toHaveLength(2);
    const job = await g.post('/v1/indeed/job', { job: 'a1b2c3d4e5f60718', country: 'gb' });
    expect(job.status).toBe(200);
    expect(await g.balance()).toBe(before - 3);
  });

  it('test mode: the sample with a qry_test_ key, never upstream, balance untouched', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/indeed/search', { query: 'nurse', location: 'London', country: 'gb', salary: { min: 30000 }, limit: 25 }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.jobs).toHaveLength(2);
      expect(r.json.creditsUsed).toBe(1);
    });
  });

  it('refusals and drift fail unbilled: a challenge page → 502 sourceRefused, a refused query → 502 sourceChanged', async () => {
    await g.expectRefused('/v1/indeed/search', { query: 'nurse', country: 'de' });
    await g.expectDrift('/v1/indeed/search', { query: 'schema drift', country: 'gb' });
    await g.expectDrift('/v1/indeed/search', { query: 'nurse', country: 'gb', limit: 3 }, (name, body) => body.replaceAll('"title"', '"heading"'));
  });
});
