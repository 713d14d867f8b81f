/**
 * hackernews against the replay double (test/sources/hackernews-doubles.ts): every recording of
 * ../shared/upstream/hackernews read through the live client (the lists, the story and its thread down to a deleted
 * comment, the user, updates and maxitem); the items of the lists and HN Search from answers written from the
 * documented interface (test/fixtures/documented/hackernews/, named so below); walls and drift; test mode; then the
 * same over HTTP through the gateway: prices, keyless calls, paging.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documented } from '../../scripts/samples/documented.js';
import { itemId, username } from '../../src/sources/hackernews/client.js';
import { postOf } from '../../src/sources/hackernews/normalise.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { HN_HOSTS, hackernewsReplay } from './hackernews-doubles.js';

const F = 'hackernews';
const FIREBASE = 'hacker-news.firebaseio.com';
const json = { 'content-type': 'application/json; charset=utf-8' };
/** Firebase answers `null` for an id it does not know; the recorded items are answered by their recordings. */
const UNKNOWN_ITEMS: ReplayRoute = { host: FIREBASE, path: /^\/v0\/item\/(?!21500569|21500829|21500985|21501055)\d+\.json$/, text: 'null', headers: json, name: 'null' };
const UNKNOWN_USERS: ReplayRoute = { host: FIREBASE, path: /^\/v0\/user\/(?!tomek\.)[^/]+\.json$/, text: 'null', headers: json, name: 'null' };

describe('hackernews references and documented items (no recordings needed)', () => {
  it.each([
    ['8863', '8863'],
    ['https://news.ycombinator.com/item?id=8863', '8863'],
    ['news.ycombinator.com/item?id=8863#8952', '8863'],
  ])('item %s → %s', (input, id) => expect(itemId(input)).toBe(id));

  it.each(['0', 'abc', 'https://example.com/item?id=1', 'https://news.ycombinator.com/user?id=pg'])('item %s → 400 naming item', async (input) => {
    const e = await failure(() => itemId(input));
    expect([e.code, e.message.startsWith('item: ')]).toEqual(['invalidRequest', true]);
  });

  it('users by name or address; a bad one is a 400 naming user', async () => {
    expect(username('pg')).toBe('pg');
    expect(username('https://news.ycombinator.com/user?id=dang')).toBe('dang');
    expect((await failure(() => username('no spaces allowed'))).message).toMatch(/^user: /);
  });

  it('documented poll, job and Ask HN (the API README examples): options, <pre> text, kinds', () => {
    const ex = JSON.parse(documented('hackernews', 'readme-examples.json'));
    expect(postOf(ex.poll, ex.pollopts)).toMatchObject({
      kind: 'poll',
      title: 'Poll: What would happen if News.YC had explicit support for polls?',
      poll: { options: [{ text: 'Illustrative first option', votes: 335 }, { text: 'Illustrative second option', votes: 12 }], totalVotes: 347 },
    });
    const job = postOf(ex.job);
    expect(job).toMatchObject({ kind: 'job', score: 6, createdAt: '2008-05-16T23:40:17.000Z' });
    expect(job.link).toBeUndefined(); // HN's empty url
    expect(job.text).toBe('Justin.tv is the biggest live video site online.\n\nResponsibilities\n\n    * Contribute to product design\n    * Implement projects\n\nQualifications');
    expect(postOf(ex.ask)).toMatchObject({ kind: 'ask', comments: 16, text: expect.stringMatching(/^or HN: the Next Iteration\n\nI get the impression/) });
  });
});

describe('hackernews test mode (committed samples)', () => {
  it('every example answers from the samples; stories and search page through them', async () => {
    const first = await runSample('hackernews.stories', { list: 'top', limit: 30 });
    expect(first.data.stories.map((s: any) => s.id)).toEqual(['21299546', '21278790', '21300188']);
    const next = await runSample('hackernews.stories', { list: 'top', cursor: first.data.cursor });
    expect(next.data.stories.map((s: any) => s.id)).toEqual(['21298383', '21299960']);
    expect((await runSample('hackernews.item', { item: '8863' })).data.comments).toHaveLength(3);
    expect((await runSample('hackernews.user', { user: 'pg' })).data.user.username).toBe('tomek');
    const hits = await runSample('hackernews.search', { query: 'x' });
    expect((await runSample('hackernews.search', { query: 'x', cursor: hits.data.cursor })).data.results).toHaveLength(1);
    expect((await runSample('hackernews.updates', {})).data.maxItemId).toBe('21301342');
  });
});

describe.skipIf(!haveRecordings(F))(`hackernews against the recordings${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(hackernewsReplay([UNKNOWN_ITEMS, UNKNOWN_USERS]));
    live = liveContext(F, replay, {}, HN_HOSTS);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
    replay.seen.length = 0;
  });

  it('item.21500569.story + its recorded thread: flat in reading order, the deleted comment kept in its place', async () => {
    const out = await runLive('hackernews.item', { item: 'https://news.ycombinator.com/item?id=21500569' }, live.ctx);
    expect(out.data.post).toEqual({
      type: 'post', id: '21500569', url: 'https://news.ycombinator.com/item?id=21500569', kind: 'story',
      title: '‘It’s Mutilation’: The Police in Chile Are Blinding Protesters', createdAt: '2019-11-10T22:23:02.000Z',
      author: { username: 'xaro', url: 'https://news.ycombinator.com/user?id=xaro' },
      link: { url: 'https://www.nytimes.com/video/world/americas/100000006795557/chile-protesters-shot-eye.html' },
      score: 21, comments: 3,
    });
    expect(out.data.comments.map((c: any) => [c.id, c.parentId, c.depth])).toEqual([
      ['21500829', '21500569', 0],
      ['21500985', '21500829', 1],
      ['21501055', '21500985', 2],
    ]);
    expect(out.data.comments[1].text).toBe('Not to totally change the subject, but...\n\n...can we talk about the Uyghurs of Xinjiang?\n\nCan that be what this thread is now about?');
    expect(out.data.comments[2]).toEqual({ type: 'comment', id: '21501055', url: 'https://news.ycombinator.com/item?id=21501055', parentId: '21500985', depth: 2, createdAt: '2019-11-10T23:59:57.000Z', isDeleted: true });
    expect(out.data.more).toBeUndefined();
    expect(out.items).toBe(3);
    expect(replay.served()).toEqual(['item.21500569.story.json', 'item.21500829.comment.json', 'item.21500985.comment.json', 'item.21501055.deleted.json'].map((f) => `hackernews/${f}`));
  });

  it('limit and depth cut the thread: what was not read is a `more` stub with its ids', async () => {
    const byLimit = await runLive('hackernews.item', { item: '21500569', limit: 1 }, live.ctx);
    expect(byLimit.data.comments.map((c: any) => c.id)).toEqual(['21500829']);
    expect(byLimit.data.more).toEqual([{ type: 'more', parentId: '21500829', depth: 1, count: 1, ids: ['21500985'] }]);
    const byDepth = await runLive('hackernews.item', { item: '21500569', depth: 2 }, live.ctx);
    expect(byDepth.data.comments.map((c: any) => c.depth)).toEqual([0, 1]);
    expect(byDepth.data.more).toEqual([{ type: 'more', parentId: '21500985', depth: 2, count: 1, ids: ['21501055'] }]);
  });

  it('item.21500829.comment asked for itself: the comment, its replies from depth 1', async () => {
    const out = await runLive('hackernews.item', { item: '21500829' }, live.ctx);
    expect(out.data.post).toBeUndefined();
    expect(out.data.comment).toMatchObject({ id: '21500829', parentId: '21500569', depth: 0, replies: 1, author: { username: 'vanniv' } });
    expect(out.data.comments.map((c: any) => [c.id, c.depth])).toEqual([['21500985', 1], ['21501055', 2]]);
  });

  it('item.21501055.deleted asked for itself, and an id Firebase answers null for, are notFound', async () => {
    expect((await failure(runLive('hackernews.item', { item: '21501055' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('hackernews.item', { item: '1' }, live.ctx))).message).toBe('item: no Hacker News item 1');
  });

  it('topstories: the recorded list, its items written from the documented shape (not recordings); a deleted one skipped', async () => {
    const first = await runLive('hackernews.stories', { list: 'top', limit: 3 }, live.ctx);
    expect(first.data.stories.map((s: any) => [s.id, s.kind])).toEqual([['21299546', 'story'], ['21278790', 'ask'], ['21300188', 'job']]);
    expect(first.data.stories[1].text).toBe('An illustrative Ask HN text.\n\nIts second paragraph.');
    expect(first.data.cursor).toBe('3');
    expect(replay.served()[0]).toBe('hackernews/topstories.json');
    const next = await runLive('hackernews.stories', { list: 'top', limit: 3, cursor: '3' }, live.ctx);
    expect(next.data.stories.map((s: any) => [s.id, s.kind])).toEqual([['21298383', 'show'], ['21299960', 'story']]);
    expect(next.data.cursor).toBe('6');
  });

  it('newstories and beststories: the recorded lists, read from the cursor on, in HN’s order', async () => {
    const fresh = await runLive('hackernews.stories', { list: 'new', limit: 3 }, live.ctx);
    expect(replay.served()[0]).toBe('hackernews/newstories.json');
    expect(replay.seen.slice(1).map((s) => s.path)).toEqual(['/v0/item/21301388.json', '/v0/item/21301382.json', '/v0/item/21301374.json']);
    expect(fresh.data.stories).toEqual([]); // Firebase answered null for each: nothing to bill
    expect(fresh.free).toBe(true);
    replay.seen.length = 0;
    const best = await runLive('hackernews.stories', { list: 'best', limit: 5, cursor: '15' }, live.ctx);
    expect(replay.served()[0]).toBe('hackernews/beststories.json');
    expect(best.data.stories.map((s: any) => s.id)).toEqual(['21298383', '21299546']);
    expect(best.data.cursor).toBe('20');
  });

  it('user.tomek; an unknown user is notFound', async () => {
    const out = await runLive('hackernews.user', { user: 'tomek' }, live.ctx);
    expect(out.data.user).toMatchObject({ type: 'profile', id: 'tomek', username: 'tomek', karma: 6, createdAt: '2007-07-31T02:58:17.000Z', submissions: 20 });
    expect(out.data.user.submissionIds[0]).toBe('1194446');
    expect((await failure(runLive('hackernews.user', { user: 'nobody_here' }, live.ctx))).code).toBe('notFound');
  });

  it('updates and maxitem', async () => {
    const out = await runLive('hackernews.updates', {}, live.ctx);
    expect(out.data).toEqual({
      maxItemId: '21301342',
      itemIds: ['21301373', '21301161', '21301232', '21301150', '21285242', '21278790', '21300188', '21269679', '21299086', '21298383', '21284743', '21293891'],
      usernames: ['codesections', 'klysm', 'NOGDP'],
    });
    expect(replay.served().sort()).toEqual(['hackernews/maxitem.json', 'hackernews/updates.json']);
  });

  it('documented (not recorded) HN Search: two pages by page number; tags, window and score sent as Algolia filters', async () => {
    const first = await runLive('hackernews.search', { query: 'rust async', limit: 2, within: 'week', minScore: 10 }, live.ctx);
    const asked = replay.seen.at(-1)!;
    expect([asked.host, asked.path, asked.query.get('tags'), asked.query.get('hitsPerPage'), asked.query.get('page')]).toEqual(['hn.algolia.com', '/api/v1/search', 'story', '2', '0']);
    expect(asked.query.get('numericFilters')).toMatch(/^created_at_i>\d{10},points>=10$/);
    expect(first.data.results.map((r: any) => [r.type, r.kind, r.id])).toEqual([['post', 'story', '39000001'], ['post', 'show', '39000002']]);
    expect(first.data.results[1].text).toBe('I built this to learn how executors work.\n\nFeedback welcome & appreciated.');
    expect([first.data.total, first.data.cursor]).toEqual([3, '1']);
    const next = await runLive('hackernews.search', { query: 'rust async', limit: 2, within: 'week', minScore: 10, cursor: '1' }, live.ctx);
    expect(next.data.results.map((r: any) => r.id)).toEqual(['39000003']);
    expect(next.data.cursor).toBeUndefined();
  });

  it('documented (not recorded) comment search: the comment names its story; poll options are not results', async () => {
    const out = await runLive('hackernews.search', { query: 'async', kind: 'comment' }, live.ctx);
    expect(out.data.results).toEqual([
      {
        type: 'comment', id: '39000050', url: 'https://news.ycombinator.com/item?id=39000050', createdAt: '2024-01-15T11:00:00.000Z',
        text: 'Illustrative comment about async.\n\nWith a second paragraph & an entity.',
        author: { username: 'commenter', url: 'https://news.ycombinator.com/user?id=commenter' },
        parentId: '39000001', storyId: '39000001', storyTitle: 'Illustrative: Rust async in depth',
      },
    ]);
  });

  it('drift: a story without its time, or a list that is not a list → sourceChanged', async () => {
    replay.mutate = (name, body) => (name === 'hackernews/item.21500569.story.json' ? body.replace('"time" : 1573424582,', '') : body);
    expect((await failure(runLive('hackernews.item', { item: '21500569' }, live.ctx))).code).toBe('sourceChanged');
    replay.mutate = (name, body) => (name === 'hackernews/topstories.json' ? '{"error":"moved"}' : body);
    expect((await failure(runLive('hackernews.stories', {}, live.ctx))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!haveRecordings(F))(`hackernews through the gateway${skipReason(F)}`, () => {
  const g = useSourceGateway(() => ({
    replay: hackernewsReplay([
      { host: FIREBASE, path: '/v0/user/throttled.json', status: 429, text: '{"error":"Too many requests"}', headers: json },
      { host: FIREBASE, path: '/v0/user/walled.json', status: 403, text: '<html><body>Forbidden</body></html>', headers: { 'content-type': 'text/html' } },
      UNKNOWN_ITEMS,
      UNKNOWN_USERS,
    ]),
    hosts: HN_HOSTS,
    env: { QUARRY_UPSTREAM_RETRIES: '0' },
  }));

  it('live: a thread priced per 100 comments, stories per 30, paging by the cursor', async () => {
    const before = await g.balance();
    const item = await g.post('/v1/hackernews/item', { item: '21500569', limit: 500 });
    expect([item.status, item.json.creditsUsed, item.json.data.comments.length]).toEqual([200, 1, 3]);
    const first = await g.post('/v1/hackernews/stories', { list: 'top', limit: 3 });
    expect([first.status, first.json.creditsUsed]).toEqual([200, 1]);
    const next = await g.post('/v1/hackernews/stories', { list: 'top', limit: 3, cursor: first.json.data.cursor });
    expect(next.json.data.stories.map((s: any) => s.id)).toEqual(['21298383', '21299960']);
    expect(await g.balance()).toBe(before - 3);
  });

  it('user, search and updates are keyless; paging and the other endpoints need a key', async () => {
    const u = await g.post('/v1/hackernews/user', { user: 'tomek' }, 'anonymous');
    expect([u.status, u.json.data.user.karma]).toEqual([200, 6]);
    expect(u.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect((await g.post('/v1/hackernews/search', { query: 'rust async', limit: 2 }, 'anonymous')).status).toBe(200);
    expect((await g.post('/v1/hackernews/updates', {}, 'anonymous')).status).toBe(200);
    expect((await g.post('/v1/hackernews/search', { query: 'rust async', limit: 2, cursor: '1' }, 'anonymous')).status).toBe(401);
    expect((await g.post('/v1/hackernews/item', { item: '21500569' }, 'anonymous')).status).toBe(401);
  });

  it('test mode answers every example from the samples, pages them, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      await g.expectExamples('hackernews');
      const first = await g.post('/v1/hackernews/stories', { list: 'top' }, 'test');
      const next = await g.post('/v1/hackernews/stories', { list: 'top', cursor: first.json.data.cursor }, 'test');
      expect(next.json.data.stories).toHaveLength(2);
    });
  });

  it('drift → 502 sourceChanged; a throttle or a block → 502 sourceRefused; unknown → 404; all unbilled', async () => {
    await g.expectDrift('/v1/hackernews/user', { user: 'tomek', maxAge: 0 }, (name, body) => (name === 'hackernews/user.tomek.json' ? body.replace('"karma" : 6,', '') : body));
    await g.expectRefused('/v1/hackernews/user', { user: 'throttled' });
    await g.expectRefused('/v1/hackernews/user', { user: 'walled' });
    await g.expectFailure('/v1/hackernews/item', { item: '2' }, { status: 404, code: 'notFound' });
  });
});
