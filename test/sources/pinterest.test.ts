/**
 * pinterest against its recordings (../shared/upstream/pinterest: the pin page and its oEmbed, both read here)
 * through the replay double. The web resource API (search, boards, board feed) has no recording: its answers are
 * written from the public shape (test/fixtures/documented/pinterest/) and the tests that use them say so.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PINTEREST_REPLAY, bookmarkOf } from '../../scripts/samples/pinterest.js';
import { boardOf, pinOf, usernameOf } from '../../src/sources/pinterest/refs.js';
import { failure } from '../helpers/failure.js';
import { post } from '../helpers/gateway.js';
import { haveRecordings, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const F = 'pinterest';
const PIN = 'https://www.pinterest.com/pin/106890191127977979/';

describe('pinterest references (no recordings needed)', () => {
  it('pins, profiles and boards, and the bad field named', async () => {
    expect(pinOf(PIN)).toBe('106890191127977979');
    expect(pinOf('https://www.pinterest.co.uk/pin/astateofbliss--605804587389853572/')).toBe('605804587389853572');
    expect(usernameOf('https://www.pinterest.com/thesearchguru/')).toBe('thesearchguru');
    expect(boardOf('thesearchguru/icons')).toEqual({ username: 'thesearchguru', slug: 'icons' });
    expect((await failure(() => pinOf('https://www.pinterest.com/thesearchguru/'))).message).toMatch(/^pin: /);
    expect((await failure(() => boardOf('https://www.pinterest.com/thesearchguru/'))).message).toMatch(/^board: /);
  });
});

describe.skipIf(!haveRecordings(F))(`pinterest against its recordings${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(PINTEREST_REPLAY);
    live = liveContext(F, replay, {}, ['www.pinterest.com']);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
  });

  it("pin-page.106890191127977979.html: the page's relay queries merged, the JSON-LD behind them", async () => {
    const out = await runLive('pinterest.pin', { pin: '106890191127977979' }, live.ctx);
    expect(out.data.pin).toEqual({
      type: 'post', id: '106890191127977979', url: PIN, title: 'Pourparler', text: 'Jack', createdAt: '2012-12-30T15:35:39.000Z',
      author: { id: '106890328564304182', username: 'thesearchguru', name: 'Leslie Carruthers', url: 'https://www.pinterest.com/thesearchguru/', avatar: 'https://i.pinimg.com/140x140_RS/b6/9e/30/b69e308e37d7923de716e400f3544d56.jpg' },
      comments: 0,
      images: [{ url: 'https://i.pinimg.com/originals/b5/34/13/b53413787f3a42c8b9d5b08a6fbb2124.jpg', alt: 'a close up of a person holding a flower in his hand and looking at the camera' }],
      link: { url: 'http://pajaz.tumblr.com/post/26349943364', title: 'Pourparler', description: expect.stringMatching(/^Sono Davide/) },
      board: { name: 'Icons', id: '106890259844880442', url: 'https://www.pinterest.com/thesearchguru/icons/' },
      category: 'celebrities',
      topics: ['People', 'Jack Nicholson', 'John Travolta', 'Anthony Hopkins', 'Robert De Niro', 'Nicholson', 'Jean Reno', 'Man', 'Bad Boys'],
    });
    expect(replay.served().at(-1)).toBe('pinterest/pin-page.106890191127977979.html');
  });

  it('drift: a page whose relay data lost the pin id → sourceChanged', async () => {
    replay.mutate = (name, body) => (name.endsWith('.html') ? body.replaceAll('"entityId":"106890191127977979"', '"entityId":"0"') : body);
    expect((await failure(runLive('pinterest.pin', { pin: PIN }, live.ctx))).code).toBe('sourceChanged');
  });

  it('documented (not recorded) search: two pages by bookmark, reactions summed', async () => {
    const first = await runLive('pinterest.search', { query: 'vegan recipes', limit: 25 }, live.ctx);
    expect(first.data.pins).toHaveLength(2);
    expect(first.data.pins[0]).toMatchObject({ id: '1125968647761564', likes: 656, createdAt: '2021-04-04T05:43:58.000Z', board: { name: 'Vegan dinners' }, images: [{ width: 1000, height: 1500 }] });
    expect(first.data.pins[1].text).toBeUndefined(); // Pinterest's " "
    const asked = JSON.parse(replay.seen.at(-1)!.query.get('data')!);
    expect(asked).toEqual({ options: { query: 'vegan recipes', scope: 'pins', page_size: 25 }, context: {} });
    const next = await runLive('pinterest.search', { query: 'vegan recipes', cursor: first.data.cursor }, live.ctx);
    expect(bookmarkOf(replay.seen.at(-1)!)).toBe(first.data.cursor);
    expect(next.data.pins.map((p: any) => p.id)).toEqual(['520799144424439025']);
    expect(next.data.cursor).toBeUndefined(); // "-end-"
  });

  it('documented (not recorded) boards and a board’s pins, two pages', async () => {
    const boards = await runLive('pinterest.boards', { profile: 'https://www.pinterest.com/thesearchguru/' }, live.ctx);
    expect(boards.data.boards.map((b: any) => b.name)).toEqual(['Icons', 'Typography']);
    expect(boards.data.boards[0]).toMatchObject({ pins: 187, followers: 42, owner: { username: 'thesearchguru' } });
    const first = await runLive('pinterest.board', { board: 'thesearchguru/icons', limit: 2 }, live.ctx);
    expect(first.data.board).toMatchObject({ id: '106890259844880442', name: 'Icons', url: 'https://www.pinterest.com/thesearchguru/icons/' });
    expect(first.data.pins.map((p: any) => p.id)).toEqual(['106890191127977979', '106890191127977980']);
    expect(JSON.parse(replay.seen.at(-1)!.query.get('data')!).options).toMatchObject({ board_id: '106890259844880442', page_size: 2 });
    const next = await runLive('pinterest.board', { board: 'thesearchguru/icons', cursor: first.data.cursor }, live.ctx);
    expect(next.data.pins.map((p: any) => p.id)).toEqual(['106890191127977981']);
  });
});

describe.skipIf(!haveRecordings(F))(`pinterest walls and failures${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  const json = { 'content-type': 'application/json' };
  beforeAll(async () => {
    replay = await startReplay({
      folders: ['pinterest'],
      routes: [
        // The pin's page sends us to the login page: the recorded oEmbed answers for the pin.
        { host: 'www.pinterest.com', path: '/pin/106890191127977979/', status: 302, text: '', headers: { location: 'https://www.pinterest.com/login/?next=%2Fpin%2F106890191127977979%2F' } },
        { host: 'www.pinterest.com', path: '/login/', text: '<html>Log in to see more</html>', headers: { 'content-type': 'text/html' } },
        { host: 'www.pinterest.com', path: '/pin/1000000000001/', status: 404, text: '<html>not found</html>', headers: { 'content-type': 'text/html' } },
        { host: 'www.pinterest.com', path: '/resource/BoardsResource/get/', text: '{"resource_response":{"status":"failure","code":30,"message":"User not found.","error":{"http_status":404,"message":"User not found."}}}', headers: json },
        { host: 'www.pinterest.com', path: '/resource/BaseSearchResource/get/', text: '{"resource_response":{"status":"failure","error":{"http_status":429,"message":"Rate limit exceeded"}}}', headers: json },
        { host: 'www.pinterest.com', path: '/resource/BoardResource/get/', text: '<!DOCTYPE html><html><body>Sign up</body></html>', headers: { 'content-type': 'text/html' } },
      ],
    });
    live = liveContext(F, replay, {}, ['www.pinterest.com']);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });

  it('oembed.pin-106890191127977979.json: a walled pin page falls back to the keyless oEmbed', async () => {
    const out = await runLive('pinterest.pin', { pin: PIN }, live.ctx);
    expect(out.data.pin).toEqual({
      type: 'post', id: '106890191127977979', url: PIN, title: 'Pourparler',
      author: { username: 'thesearchguru', name: 'Leslie Carruthers', url: 'https://www.pinterest.com/thesearchguru/' },
      images: [{ url: 'https://i.pinimg.com/236x/b5/34/13/b53413787f3a42c8b9d5b08a6fbb2124.jpg', width: 236, height: 295 }],
    });
    expect(replay.served().at(-1)).toBe('pinterest/oembed.pin-106890191127977979.json');
  });

  it('a missing pin or profile is notFound; a rate limit and a sign-up page are sourceRefused', async () => {
    expect((await failure(runLive('pinterest.pin', { pin: '1000000000001' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('pinterest.boards', { profile: 'nobody' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('pinterest.search', { query: 'x' }, live.ctx))).message).toMatch(/429/);
    expect((await failure(runLive('pinterest.board', { board: 'a/b' }, live.ctx))).code).toBe('sourceRefused');
  });
});

describe('pinterest test mode', () => {
  it.each(['pinterest.pin', 'pinterest.search', 'pinterest.boards', 'pinterest.board'])('%s answers its example from the samples', async (id) => {
    const { ENDPOINTS } = await import('../../src/catalogue/endpoints/index.js');
    const def = ENDPOINTS.find((e) => e.id === id)!;
    const out = await runSample(id, def.example!);
    expect(Object.keys(out.data).length).toBeGreaterThan(0);
  });
});

describe.skipIf(!haveRecordings(F))(`pinterest through the gateway${skipReason(F)}`, () => {
  const g = useSourceGateway(() => ({
    replay: {
      ...PINTEREST_REPLAY,
      routes: [
        // A profile Pinterest walls: its boards answer a redirect to the login page.
        { host: 'www.pinterest.com', path: '/resource/BoardsResource/get/', match: (s) => (s.query.get('data') ?? '').includes('"walled"'), status: 302, text: '', headers: { location: 'https://www.pinterest.com/login/' } },
        { host: 'www.pinterest.com', path: '/login/', text: '<html>Log in</html>', headers: { 'content-type': 'text/html' } },
        ...PINTEREST_REPLAY.routes!,
      ],
    },
    hosts: ['www.pinterest.com'],
  }));

  it('live: a pin for 1 credit; a board page priced per 25 pins, its cursor paging', async () => {
    const before = await g.balance();
    const r = await g.post('/v1/pinterest/pin', { pin: PIN });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    const b = await g.post('/v1/pinterest/board', { board: 'thesearchguru/icons' });
    expect(b.json.creditsUsed).toBe(1);
    const next = await g.post('/v1/pinterest/board', { board: 'thesearchguru/icons', cursor: b.json.data.cursor });
    expect(next.json.data.pins).toHaveLength(1);
    expect(await g.balance()).toBe(before - 3);
  });

  it('test mode: the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      const r = await g.post('/v1/pinterest/search', { query: 'anything' }, 'test');
      expect(r.status).toBe(200);
      expect(r.json.data.pins).toHaveLength(2);
      const next = await g.post('/v1/pinterest/search', { query: 'anything', cursor: r.json.data.cursor }, 'test');
      expect(next.json.data.pins).toHaveLength(1);
    });
  });

  it('a login wall → 502 sourceRefused, unbilled', async () => {
    await g.expectRefused('/v1/pinterest/boards', { profile: 'walled' });
  });

  it('drift: a pin page without its relay data → 502 sourceChanged, unbilled', async () => {
    await g.expectDrift('/v1/pinterest/pin', { pin: PIN, maxAge: 0 }, (name, body) => (name.endsWith('.html') ? body.replaceAll('data-relay-response', 'data-gone') : body));
  });
});
