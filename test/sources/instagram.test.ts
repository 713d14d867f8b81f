/**
 * instagram against its recordings (../shared/upstream/instagram, every one read here) through the replay double: the
 * live operations, the test-mode samples, the gateway (price, paging, test keys), drift and walls. The search box has
 * no recording: its answer is written from the public shape (test/fixtures/documented/instagram/) and named so.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { codeToId, idToCode, postOf, usernameOf } from '../../src/sources/instagram/refs.js';
import { graphPosts, profileRecord } from '../../src/sources/instagram/normalise.js';
import { INSTAGRAM_REPLAY, SESSION } from '../../scripts/samples/instagram.js';
import { QUERY_HASHES } from '../../src/sources/instagram/client.js';
import { failure } from '../helpers/failure.js';
import { post } from '../helpers/gateway.js';
import { haveRecordings, readRecording, readRecordingJson, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const F = 'instagram';

describe('instagram references (no recordings needed)', () => {
  it('a post code is its numeric id in base 64, both ways', () => {
    expect(codeToId('CAnqPB-Jzcj')).toBe('2317006284167526179');
    expect(idToCode('2317006284167526179')).toBe('CAnqPB-Jzcj');
    expect(postOf('https://www.instagram.com/reel/CPv3UqsBFvg/?utm=1')).toEqual({ code: 'CPv3UqsBFvg', id: codeToId('CPv3UqsBFvg') });
    expect(postOf('2589531623544609760').code).toBe('CPv3UqsBFvg');
  });

  it('names the bad field', async () => {
    expect(usernameOf('@nasa')).toBe('nasa');
    expect(usernameOf('https://www.instagram.com/nasa/?hl=en')).toBe('nasa');
    expect((await failure(() => usernameOf('not a name'))).message).toMatch(/^profile: /);
    expect((await failure(() => postOf('https://www.instagram.com/nasa/'))).message).toMatch(/^post: /);
    expect((await failure(() => runLive('instagram.posts', { profile: 'nasa', cursor: 'abc' }, undefined as never))).code).toBe('invalidRequest');
  });
});

describe.skipIf(!haveRecordings(F))(`instagram against its recordings${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  let session: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(INSTAGRAM_REPLAY);
    live = liveContext(F, replay, {}, ['www.instagram.com']);
    session = liveContext(F, replay, SESSION, ['www.instagram.com']);
  });
  afterAll(async () => {
    await Promise.all([live.close(), session.close()]);
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
  });

  it.each([
    ['instagram.profile', { profile: '@robertdowneyjr' }, 'web_profile_info.json', (d: any) =>
      expect(d.profile).toMatchObject({ type: 'profile', id: '1518284433', username: 'robertdowneyjr', followers: 52979346, following: 5, posts: 419, isVerified: true, isBusiness: true, category: 'Artist' })],
    ['instagram.posts', { profile: 'robertdowneyjr', type: 'tagged', limit: 12 }, 'graphql-tagged.json', (d: any) => {
      expect(d.posts).toHaveLength(10);
      expect(d.posts[0]).toMatchObject({ id: '2648326015839115937', url: 'https://www.instagram.com/p/CTAvnrfhBqh/', likes: 1103884, comments: 2722, hashtags: ['WhatsYourX'], author: { username: 'robertdowneyjr' } });
      expect(d.cursor).toMatch(/^1518284433:QVFEeG5U/);
      expect(d.total).toBe(10);
    }],
    ['instagram.comments', { post: 'https://www.instagram.com/p/CIvZJcurJaW/', limit: 20 }, 'graphql-comments.json', (d: any) => {
      expect(d.comments).toHaveLength(12);
      expect(d.comments[0]).toEqual({
        type: 'comment', id: '17969014687354566', text: 'Good themw', createdAt: '2020-12-14T04:24:28.000Z',
        author: { id: '26965138089', username: 'myself_walker', url: 'https://www.instagram.com/myself_walker/', avatar: expect.stringContaining('131347187_4113383505343019') },
      });
      expect(d).toMatchObject({ total: 45, cursor: expect.stringMatching(/^QVFCbnROamtG/) });
    }],
    ['instagram.hashtag', { hashtag: '#paris', limit: 50 }, 'graphql-hashtag-paris.json', (d: any) => {
      expect(d.hashtag).toMatchObject({ id: '17841562894101784', name: 'paris', posts: 125782874 });
      expect(d.posts).toHaveLength(34);
      expect(d.posts[0]).toMatchObject({ id: '2498383483036303865', isVideo: true, views: 0, createdAt: '2021-01-30T23:50:30.000Z' });
      expect(d.cursor).toMatch(/^QVFEYy1p/);
    }],
    ['instagram.hashtag', { hashtag: 'paris', sort: 'top', limit: 5 }, 'graphql-hashtag-paris.json', (d: any) => {
      expect(d.posts.map((p: any) => p.id)).toEqual(readRecordingJson('instagram/graphql-hashtag-paris.json').data.hashtag.edge_hashtag_to_top_posts.edges.slice(0, 5).map((e: any) => e.node.id));
      expect(d.posts[0].images[0].alt).toMatch(/^Photo by Capucine/);
      expect(d.cursor).toBeUndefined();
    }],
  ] as const)('%s %j ← %s', async (id, body, file, check) => {
    const before = replay.seen.length;
    check((await runLive(id, body, live.ctx)).data);
    expect(replay.served().slice(before)).toContain(`instagram/${file}`);
    expect(replay.misses()).toEqual([]);
  });

  it('media-info.json: one post with a session; the carousel becomes its images', async () => {
    const out = await runLive('instagram.post', { post: 'CAnqPB-Jzcj' }, session.ctx);
    expect(out.data.post).toMatchObject({ id: '2317006284167526179', url: 'https://www.instagram.com/p/CAnqPB-Jzcj/', likes: 820750, comments: 4647, createdAt: '2020-05-25T17:44:54.000Z', hashtags: ['LetsGetLoud', 'MemorialDay'], author: { id: '305701719', username: 'jlo', isVerified: true } });
    expect(out.data.post.images).toHaveLength(3);
    expect(out.data.post.images[0]).toMatchObject({ width: 1440, height: 1440 });
    const sent = replay.seen.at(-1)!;
    expect(sent.path).toBe('/api/v1/media/2317006284167526179/info/');
  });

  it('clips-user.json: reels with a session, the account id and max_id in the cursor', async () => {
    const out = await runLive('instagram.posts', { profile: 'robertdowneyjr', type: 'reels', limit: 12 }, session.ctx);
    expect(out.data.posts).toHaveLength(12);
    expect(out.data.posts[0]).toMatchObject({ id: '2589531623544609760', url: 'https://www.instagram.com/reel/CPv3UqsBFvg/', isVideo: true, views: 401421, likes: 16965, comments: 80, video: { width: 640, height: 1137, durationSeconds: 20 } });
    expect(out.data.cursor).toBe(`1518284433:${readRecordingJson('instagram/clips-user.json').paging_info.max_id}`);
    const clips = replay.seen.at(-1)!;
    expect(clips.body).toMatch(/target_user_id=1518284433&page_size=12/);
    // The next page asks with max_id and no second profile look-up.
    const before = replay.seen.length;
    await runLive('instagram.posts', { profile: 'robertdowneyjr', type: 'reels', cursor: out.data.cursor }, session.ctx);
    expect(replay.seen.slice(before).map((s) => s.path)).toEqual(['/api/v1/clips/user/']);
    expect(replay.seen.at(-1)!.body).toContain('max_id=');
  });

  it('the app-API reads without a session are sourceUnavailable naming the setting', async () => {
    for (const [id, body] of [['instagram.post', { post: 'CAnqPB-Jzcj' }], ['instagram.posts', { profile: 'robertdowneyjr', type: 'reels' }]] as const) {
      const e = await failure(runLive(id, body, live.ctx));
      expect(e.code).toBe('sourceUnavailable');
      expect(e.retryable).toBe(false);
      expect(e.message).toContain('QUARRY_INSTAGRAM_SESSION_COOKIE');
    }
  });

  it('posts: the first page is the profile’s own; later pages are the timeline query (built from two recordings)', async () => {
    // web_profile_info.json: the origin trimmed its timeline edges, so the first page is empty with a cursor.
    const first = await runLive('instagram.posts', { profile: 'robertdowneyjr' }, live.ctx);
    expect(first.data.posts).toEqual([]);
    expect(first.free).toBe(true); // nothing returned, nothing billed
    expect(first.data.total).toBe(419);
    expect(first.data.cursor).toMatch(/^1518284433:QVFCdm9F/);
    // No timeline page was recorded: the tagged recording's connection stands in, under the name web_profile_info gives it.
    const timeline = readRecording('instagram/graphql-tagged.json').replace('edge_user_to_photos_of_you', 'edge_owner_to_timeline_media');
    const r2 = await startReplay({ folders: [], routes: [{ host: 'www.instagram.com', path: '/graphql/query/', query: { query_hash: QUERY_HASHES.timeline.value }, text: timeline, headers: { 'content-type': 'application/json' } }] });
    const c2 = liveContext(F, r2, {}, ['www.instagram.com']);
    try {
      const next = await runLive('instagram.posts', { profile: 'robertdowneyjr', cursor: first.data.cursor, limit: 12 }, c2.ctx);
      expect(next.data.posts).toHaveLength(10);
      const variables = JSON.parse(r2.seen[0].query.get('variables')!);
      expect(variables).toEqual({ id: '1518284433', first: 12, after: first.data.cursor.split(':')[1] });
    } finally {
      await c2.close();
      await r2.close();
    }
  });

  it('the GraphQL variables carry the page size and the cursor', async () => {
    await runLive('instagram.hashtag', { hashtag: 'paris', limit: 7, cursor: 'QVFEYy1pYW90TGt4aWF0' }, live.ctx);
    expect(JSON.parse(replay.seen.at(-1)!.query.get('variables')!)).toEqual({ tag_name: 'paris', first: 7, after: 'QVFEYy1pYW90TGt4aWF0' });
  });

  it('location-explore.json: a location page’s GraphQL media read as posts', () => {
    const loc = readRecordingJson('instagram/location-explore.json').graphql.location;
    const page = graphPosts(loc.edge_location_to_media, 'location posts');
    expect(page.items).toHaveLength(24);
    expect(page.items[0]).toMatchObject({ id: '2420137828926008222', url: 'https://www.instagram.com/p/CGWDohwnque/', likes: 12, createdAt: '2020-10-15T00:48:52.000Z' });
    expect(page.next).toBe('2404090964589992497');
    expect(graphPosts(loc.edge_location_to_top_posts, 'top').next).toBeUndefined();
  });

  it('drift: a profile without its follower count, a node without its time → sourceChanged', async () => {
    const user = readRecordingJson('instagram/web_profile_info.json').data.user;
    delete user.edge_followed_by;
    expect((await failure(() => profileRecord(user))).code).toBe('sourceChanged');
    replay.mutate = (name, body) => (name.endsWith('graphql-tagged.json') ? body.replaceAll('"taken_at_timestamp"', '"taken"') : body);
    expect((await failure(runLive('instagram.posts', { profile: 'robertdowneyjr', type: 'tagged' }, live.ctx))).code).toBe('sourceChanged');
  });

  it('documented (not recorded) search box answer: accounts, hashtags and places', async () => {
    const users = await runLive('instagram.search', { query: 'nasa', limit: 1 }, live.ctx);
    expect(users.data.results).toEqual([{ type: 'profile', url: 'https://www.instagram.com/nasa/', id: '528817151', username: 'nasa', name: 'NASA', avatar: expect.any(String), isVerified: true, isPrivate: false }]);
    const places = await runLive('instagram.search', { query: 'nasa', type: 'places' }, live.ctx);
    expect(places.data.results[0]).toMatchObject({ type: 'place', id: '212988663', url: 'https://www.instagram.com/explore/locations/212988663/', location: { latitude: 29.5593, longitude: -95.093 } });
    const tags = await runLive('instagram.search', { query: 'nasa', type: 'hashtags' }, live.ctx);
    expect(tags.data.results[0]).toMatchObject({ type: 'hashtag', name: 'nasa', posts: 9800000 });
  });
});

describe('instagram walls and missing things', () => {
  let replay: Replay;
  let live: LiveContext;
  const wall = (path: string, status: number, text: string, type = 'application/json'): ReplayRoute => ({ host: 'i.instagram.com', path, status, text, headers: { 'content-type': type } });
  beforeAll(async () => {
    replay = await startReplay({
      folders: [],
      routes: [
        { ...wall('/api/v1/users/web_profile_info/', 401, '{"message":"Please wait a few minutes before you try again.","require_login":true,"status":"fail"}'), query: { username: 'walled' } },
        { ...wall('/api/v1/users/web_profile_info/', 302, ''), query: { username: 'redirected' }, headers: { location: 'https://www.instagram.com/accounts/login/?next=%2F' } },
        { ...wall('/api/v1/users/web_profile_info/', 200, '<!DOCTYPE html><html><body>Log in</body></html>', 'text/html'), query: { username: 'htmlpage' } },
        { ...wall('/api/v1/users/web_profile_info/', 404, '{"message":"","status":"fail"}'), query: { username: 'nobody' } },
        { host: 'www.instagram.com', path: '/accounts/login/', text: '<html>login</html>', headers: { 'content-type': 'text/html' } },
        { host: 'www.instagram.com', path: '/graphql/query/', text: '{"data":{"shortcode_media":null},"status":"ok"}', headers: { 'content-type': 'application/json' } },
      ],
    });
    live = liveContext(F, replay, {}, ['i.instagram.com', 'www.instagram.com']);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it.each([
    ['walled', 'sourceRefused', /asked for a login.*QUARRY_INSTAGRAM_SESSION_COOKIE/],
    ['redirected', 'sourceRefused', /login page/],
    ['htmlpage', 'sourceRefused', /web page instead of data/],
    ['nobody', 'notFound', /no such account @nobody/],
  ])('%s → %s', async (name, code, message) => {
    const e = await failure(runLive('instagram.profile', { profile: name }, live.ctx));
    expect(e.code).toBe(code);
    expect(e.message).toMatch(message);
  });

  it('a post GraphQL does not know → notFound', async () => {
    expect((await failure(runLive('instagram.comments', { post: 'CIvZJcurJaW' }, live.ctx))).code).toBe('notFound');
  });
});

describe('instagram test mode', () => {
  it.each(['instagram.profile', 'instagram.posts', 'instagram.post', 'instagram.comments', 'instagram.hashtag', 'instagram.search'])('%s answers its example from the samples', async (id) => {
    const { ENDPOINTS } = await import('../../src/catalogue/endpoints/index.js');
    const def = ENDPOINTS.find((e) => e.id === id)!;
    const out = await runSample(id, def.example!);
    expect(Object.keys(out.data).length).toBeGreaterThan(0);
    if (def.itemsField) expect(out.items).toBe((out.data as any)[def.itemsField].length);
  });

  it('limit cuts a sample page and lowers the count', async () => {
    const out = await runSample('instagram.hashtag', { hashtag: 'paris', limit: 3 });
    expect(out.data.posts).toHaveLength(3);
    expect(out.items).toBe(3);
  });
});

describe.skipIf(!haveRecordings(F))(`instagram through the gateway${skipReason(F)}`, () => {
  const g = useSourceGateway(() => ({ replay: INSTAGRAM_REPLAY, hosts: ['www.instagram.com'], env: { QUARRY_INSTAGRAM_SESSION_COOKIE: SESSION.SESSION_COOKIE } }));

  it('live: priced per 25 posts, the cursor going back as GraphQL `after`', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/instagram/hashtag', { hashtag: 'paris', limit: 50 });
    expect(r.status).toBe(200);
    expect(r.json.data.posts).toHaveLength(34);
    expect(r.json.creditsUsed).toBe(2); // 34 posts at 25 a credit
    expect(await g.balance()).toBe(before - 2);
    const next = await g.post('/v1/instagram/hashtag', { hashtag: 'paris', limit: 10, cursor: r.json.data.cursor });
    expect(next.status).toBe(200);
    expect(next.json.creditsUsed).toBe(1);
    expect(JSON.parse(g.replay.seen.at(-1)!.query.get('variables')!).after).toBe(r.json.data.cursor);
  });

  it('the session cookie reaches the app API', async () => {
    const r = await g.post('/v1/instagram/post', { post: 'CAnqPB-Jzcj' });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data.post.id).toBe('2317006284167526179');
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/instagram/posts', { profile: 'anyone', type: 'tagged' }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.posts).toHaveLength(10);
      expect(r.json.creditsUsed).toBe(1);
    });
  });

  it('drift: a post without its shortcode → 502 sourceChanged, unbilled', async () => {
    await g.expectDrift('/v1/instagram/posts', { profile: 'robertdowneyjr', type: 'tagged', maxAge: 0 }, (name, body) => (name.endsWith('graphql-tagged.json') ? body.replace('"shortcode"', '"code_"') : body));
  });

  it('a login wall → 502 sourceRefused, unbilled', async () => {
    await g.expectRefused('/v1/instagram/profile', { profile: 'robertdowneyjr', maxAge: 0 }, (name, body) =>
      name.endsWith('web_profile_info.json') ? '{"message":"Please wait a few minutes before you try again.","require_login":true,"status":"fail"}' : body,
    );
  });
});
