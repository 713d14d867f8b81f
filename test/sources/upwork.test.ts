/**
 * upwork, against documented-shape doubles only: no Upwork answer is recorded anywhere this project may use. Answers
 * are written from the visitor GraphQL interface public clients use (test/fixtures/documented/upwork, named so).
 * Also: the visitor token (taken from the home page or the operator's setting), cursors, walls, drift, test mode and
 * one gateway round over HTTP.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cipherOf } from '../../src/sources/upwork/refs.js';
import { failure } from '../helpers/failure.js';
import { startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { UPWORK_HOSTS, upworkReplay, VISITOR_TOKEN } from './upwork-doubles.js';

const JOB = '~01a1b2c3d4e5f6a7b8';

describe('upwork job ids', () => {
  it('a ciphertext with or without its tilde, or an address carrying it; anything else a 400 naming job', async () => {
    expect(cipherOf('01a1b2c3d4e5f6a7b8')).toBe(JOB);
    expect(cipherOf('https://www.upwork.com/jobs/React-developer_~01a1b2c3d4e5f6a7b8/?referrer=x')).toBe(JOB);
    expect(cipherOf('https://www.upwork.com/freelance-jobs/apply/React-developer_~01A1B2C3D4E5F6A7B8/')).toBe(JOB);
    for (const bad of ['react', 'https://evil.example/jobs/~01a1b2c3d4e5f6a7b8', '~zz']) {
      const err = await failure(() => cipherOf(bad));
      expect([err.code, err.message.startsWith('job: ')]).toEqual(['invalidRequest', true]);
    }
  });
});

describe('upwork live path against the documented-shape doubles', () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(upworkReplay());
    live = liveContext('upwork', replay, {}, UPWORK_HOSTS);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  it('search: the home page\'s visitor token, then VisitorJobSearch; hourly rates and fixed budgets; offset cursor', async () => {
    const first = await runLive('upwork.jobs.search', { query: 'react developer', limit: 3 }, live.ctx);
    expect(replay.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /', 'POST /api/graphql/v1']);
    expect(replay.seen[1].headers.authorization).toBe(`Bearer ${VISITOR_TOKEN}`);
    expect(replay.seen[1].query.get('alias')).toBe('visitorJobSearch');
    expect((replay.seen[1].body as any).variables.requestVariables).toEqual({ sort: 'recency', highlight: false, paging: { offset: 0, count: 3 }, userQuery: 'react developer' });
    expect(first.data).toMatchObject({ total: 5, cursor: '3' });
    expect(first.data.jobs[0]).toMatchObject({ id: JOB, contractType: 'hourly', salary: { currency: 'USD', min: 25, max: 45, period: 'hour' }, experienceLevel: 'expert', skills: ['React', 'TypeScript'] });
    expect(first.data.jobs[1]).toMatchObject({ contractType: 'fixed', budget: { amount: 150, currency: 'USD' }, experienceLevel: 'entry' });
    const next = await runLive('upwork.jobs.search', { query: 'react developer', limit: 3, cursor: '3' }, live.ctx);
    expect(next.data.jobs.map((j: any) => j.id)).toEqual(['~01a1b2c3d4e5f6a7c1', '~01a1b2c3d4e5f6a7c2']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('relevance names no sort; a job type keeps only those jobs; the operator\'s token skips the home page', async () => {
    const ctx = liveContext('upwork', replay, { VISITOR_TOKEN: 'oauth2v2_operator' }, UPWORK_HOSTS);
    try {
      const fixed = await runLive('upwork.jobs.search', { query: 'react developer', sort: 'relevance', jobType: 'fixed', limit: 3 }, ctx.ctx);
      expect(replay.seen[0].headers.authorization).toBe('Bearer oauth2v2_operator');
      expect((replay.seen[0].body as any).variables.requestVariables.sort).toBeUndefined();
      expect(fixed.data.jobs.map((j: any) => j.contractType)).toEqual(['fixed', 'fixed']);
    } finally {
      await ctx.close();
    }
  });

  it('a job: its details, the client\'s country, rating, spend and hires', async () => {
    const { data } = await runLive('upwork.jobs.job', { job: 'https://www.upwork.com/jobs/~01a1b2c3d4e5f6a7b8' }, live.ctx);
    expect(replay.seen[1].query.get('alias')).toBe('gql-query-get-visitor-job-details');
    expect(data.job).toMatchObject({
      id: JOB, title: 'React developer for a booking dashboard', description: 'We need a React developer to build a dashboard.\n\nIllustrative text.',
      applicants: 17, interviews: 2, client: { country: 'United States', rating: { value: 4.87, max: 5, count: 12 }, totalSpent: { amount: 25400.5, currency: 'USD' }, hires: 18, hireRate: 0.75 },
    });
  });

  it.each([
    ['an unknown job', 'upwork.jobs.job', { job: '~0100000000000000000' }, {}, 'notFound'],
    ['a wall', 'upwork.jobs.search', { query: 'walled' }, {}, 'sourceRefused'],
    ['a refused operator token', 'upwork.jobs.search', { query: 'react' }, { VISITOR_TOKEN: 'oauth2v2_revoked' }, 'sourceUnavailable'],
    ['a tampered cursor', 'upwork.jobs.search', { query: 'react', cursor: 'x' }, {}, 'invalidRequest'],
  ])('%s → %s', async (_what, id, body, settings, code) => {
    const ctx = liveContext('upwork', replay, settings as Record<string, string>, UPWORK_HOSTS);
    try {
      const err = await failure(runLive(id, body, ctx.ctx));
      expect(err.code).toBe(code);
      if (code === 'sourceUnavailable') expect(err.message).toContain('QUARRY_UPWORK_VISITOR_TOKEN');
    } finally {
      await ctx.close();
    }
  });

  it('drift: a search without results, a tile without its ciphertext', async () => {
    replay.mutate = (_name, body) => body.replaceAll('"ciphertext"', '"cipher"');
    try {
      expect((await failure(runLive('upwork.jobs.search', { query: 'react developer' }, live.ctx))).code).toBe('sourceChanged');
    } finally {
      replay.mutate = undefined;
    }
  });
});

describe('upwork test mode (committed samples, from documented-shape doubles)', () => {
  it('search walks its two pages; the job answers its sample', async () => {
    const first = await runSample('upwork.jobs.search', { query: 'react developer', limit: 3 });
    const second = await runSample('upwork.jobs.search', { query: 'react developer', limit: 3, cursor: first.data.cursor });
    expect([first.data.jobs.length, second.data.jobs.length]).toEqual([3, 2]);
    expect((await runSample('upwork.jobs.job', { job: JOB })).data.job.client.country).toBe('United States');
  });
});

describe('upwork through the gateway', () => {
  const g = useSourceGateway(() => ({ replay: upworkReplay(), hosts: UPWORK_HOSTS }));

  it('live prices and paging, test mode, a wall and drift unbilled', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/upwork/jobs/search', { query: 'react developer', limit: 3 });
    expect([r.status, r.json.creditsUsed]).toEqual([200, 1]);
    const next = await g.post('/v1/upwork/jobs/search', { query: 'react developer', limit: 3, cursor: r.json.data.cursor });
    expect(next.json.data.jobs).toHaveLength(2);
    const job = await g.post('/v1/upwork/jobs/job', { job: JOB });
    expect([job.status, job.json.creditsUsed]).toEqual([200, 1]);
    expect(await g.balance()).toBe(before - 3);

    await g.expectTestMode(async () => {
      const sample = await g.post('/v1/upwork/jobs/search', { query: 'react developer', limit: 20 }, 'test');
      expect([sample.status, sample.json.data.jobs.length]).toEqual([200, 3]);
    });

    await g.expectRefused('/v1/upwork/jobs/search', { query: 'walled' });
    await g.expectDrift('/v1/upwork/jobs/job', { job: JOB, maxAge: 0 }, (_name, body) => body.replaceAll('"title"', '"heading"'));
    expect(await g.balance()).toBe(before - 3);
  });
});
