/**
 * telegram.channel, telegram.posts and telegram.post against the replay double (test/sources/telegram-doubles.ts):
 * every recording of ../shared/upstream/messaging read through the live client; reactions, replies, a widget's
 * error and the page of a channel without a web preview from the documented markup; drift, walls and hostile pages;
 * test mode; then the same over HTTP through the gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channelName, postRef } from '../../src/sources/telegram/client.js';
import { failure } from '../helpers/failure.js';
import { post as call, startGateway, type TestGateway } from '../helpers/gateway.js';
import { haveRecordings, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { documented, telegramReplay } from './telegram-doubles.js';

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const FULL = 'messaging/channel-preview-full.html';
const PAGE_IDS = ['71008', '71007', '71006', '71000', '70999', '70998', '70997', '70996', '70995', '70992', '70990', '70989'];

describe('telegram addresses (no recordings needed)', () => {
  it.each([
    ['durov', 'durov'],
    ['@durov', 'durov'],
    ['https://t.me/durov', 'durov'],
    ['https://t.me/s/durov?before=10', 'durov'],
    ['telegram.me/durov', 'durov'],
  ])('channel %s → %s', (input, name) => expect(channelName(input)).toBe(name));

  it.each([
    ['https://t.me/c/1234567/8', /private/],
    ['https://t.me/+AbCdEf', /private/],
    ['https://t.me/joinchat/AbCdEf', /private/],
    ['du', /not a public channel/],
    ['https://example.com/durov', /not a public channel/],
  ])('channel %s → 400 naming channel', async (input, why) => {
    const err = await failure(() => channelName(input));
    expect(err.code).toBe('invalidRequest');
    expect(err.message).toMatch(/^channel: /);
    expect(err.message).toMatch(why);
  });

  it.each([
    ['https://t.me/durov/1', { channel: 'durov', id: 1 }],
    ['t.me/s/durov/42', { channel: 'durov', id: 42 }],
    ['durov/7', { channel: 'durov', id: 7 }],
    ['@durov/7', { channel: 'durov', id: 7 }],
  ])('post %s', (input, ref) => expect(postRef(input)).toEqual(ref));

  it.each(['https://t.me/durov', 'https://t.me/c/123/4', 'durov/0', 'durov/x'])('post %s → 400 naming post', async (input) => {
    const err = await failure(() => postRef(input));
    expect(err.code).toBe('invalidRequest');
    expect(err.message).toMatch(/^post: /);
  });
});

describe('telegram test mode (committed samples)', () => {
  it('the catalogue examples answer from the recordings, and posts page through them', async () => {
    expect((await runSample('telegram.channel', { channel: 'durov' })).data.channel).toMatchObject({ username: 'topwar_official', followers: 109000 });
    const first = await runSample('telegram.posts', { channel: 'durov', limit: 20 });
    expect(first.data.posts.map((p: any) => p.id)).toEqual(PAGE_IDS.slice(0, 6));
    const second = await runSample('telegram.posts', { channel: 'durov', cursor: first.data.cursor });
    expect(second.data.posts.map((p: any) => p.id)).toEqual(PAGE_IDS.slice(6));
    expect(await runSample('telegram.posts', { channel: 'durov', cursor: second.data.cursor })).toMatchObject({ free: true, items: 0 });
    expect((await runSample('telegram.post', { post: 'https://t.me/durov/1' })).data.post).toMatchObject({ id: '46908' });
  });
});

describe.skipIf(!haveRecordings('messaging'))(`telegram against the recordings${skipReason('messaging')}`, () => {
  let replay: Replay;
  let live: LiveContext;

  beforeAll(async () => {
    replay = await startReplay(telegramReplay([
      { host: 't.me', path: '/s/walled_chan', status: 403, text: '<html><body>Forbidden</body></html>', headers: HTML },
      { host: 't.me', path: '/s/deep_chan', text: `<html><body>${'<div>'.repeat(5000)}x</body></html>`, headers: HTML },
    ]));
    live = liveContext('telegram', replay);
  });
  afterAll(async () => {
    await live?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
    replay.seen.length = 0;
  });

  const requests = () => replay.seen.map((s) => `${s.path}${s.query.size ? `?${s.query}` : ''}`);

  it('telegram.channel: the channel header of the recorded page', async () => {
    const out = await runLive('telegram.channel', { channel: 'https://t.me/topwar_official' }, live.ctx);
    expect(out.data.channel).toEqual({
      type: 'channel',
      id: 'topwar_official',
      url: 'https://t.me/topwar_official',
      username: 'topwar_official',
      name: 'Военное обозрение',
      bio: 'Официальный канал сайта topwar.ru\n\nДля обратной связи: @topwar_feedlback_bot\n\nПо рекламе - писать @effective100',
      avatar: expect.stringMatching(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/rdlhZu1d4HGvG3QG.+\.jpg$/),
      isVerified: false,
      followers: 109000,
      photos: 19600,
      videos: 15400,
      files: 8,
      links: 28600,
    });
    expect(requests()).toEqual(['/s/topwar_official']);
  });

  it('telegram.channel: a channel without a web preview answers from its own page; a person is not a channel', async () => {
    const quiet = await runLive('telegram.channel', { channel: '@example_quiet' }, live.ctx);
    expect(quiet.data.channel).toEqual({
      type: 'channel',
      id: 'example_quiet',
      url: 'https://t.me/example_quiet',
      username: 'example_quiet',
      name: 'Example Quiet Channel',
      bio: 'A channel whose owner turned the web preview off.',
      avatar: 'https://cdn4.telegram-cdn.org/file/example-quiet.jpg',
      followers: 12345,
    });
    const person = await failure(runLive('telegram.channel', { channel: 'example_person' }, live.ctx));
    expect([person.code, person.message]).toEqual(['notFound', 'channel: no public channel @example_person']);
    const noPosts = await failure(runLive('telegram.posts', { channel: 'example_quiet' }, live.ctx));
    expect([noPosts.code, noPosts.message]).toEqual(['notFound', 'channel: @example_quiet has no public web preview, so its posts cannot be read']);
  });

  it('telegram.posts: newest first, mapped to the post vocabulary; the link to older posts is followed', async () => {
    const out = await runLive('telegram.posts', { channel: 'topwar_official' }, live.ctx);
    expect(out.data.posts.map((p: any) => p.id)).toEqual(PAGE_IDS);
    expect(out.items).toBe(12);
    expect(out.data.channel).toMatchObject({ username: 'topwar_official' });
    // The page links older posts (before=70989): asked, it added nothing (the recording is one page), so no cursor.
    expect(requests()).toEqual(['/s/topwar_official', '/s/topwar_official?before=70989']);
    expect(out.data.cursor).toBeUndefined();
    const oldest = out.data.posts[11];
    expect(oldest).toEqual({
      type: 'post',
      id: '70989',
      url: 'https://t.me/topwar_official/70989',
      createdAt: '2023-02-28T07:47:53.000Z',
      views: 37200,
      author: {
        username: 'topwar_official',
        name: 'Военное обозрение',
        url: 'https://t.me/topwar_official',
        avatar: expect.stringMatching(/^https:\/\/cdn4\.telegram-cdn\.org\/file\//),
      },
      text:
        'В Санкт-Петербурге в небо над городом подняли истребители из-за неизвестного объекта в воздухе, аэропорт Пулково не принимает самолеты, сообщает Baza.\n' +
        'Судя по сервису Flightradar, гражданские самолеты не приближаются к Санкт-Петербургу.',
      images: [{ url: expect.stringMatching(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/J1iJAZDcKYQpr7YX.+\.jpg$/) }],
    });
    // An album: the photos of one grouped post.
    expect(out.data.posts.find((p: any) => p.id === '70992').images.length).toBeGreaterThan(1);
    // A video too big for the preview: its thumbnail and duration, no file.
    const big = out.data.posts.filter((p: any) => p.video && !p.video.url).map((p: any) => p.video.durationSeconds);
    expect(big).toContain(177);
  });

  it('telegram.posts: limit cuts the page and the cursor is the oldest answered post; a cursor asks `before`', async () => {
    const five = await runLive('telegram.posts', { channel: 'topwar_official', limit: 5 }, live.ctx);
    expect(five.data.posts.map((p: any) => p.id)).toEqual(PAGE_IDS.slice(0, 5));
    expect(five.data.cursor).toBe('70999');
    expect(requests()).toEqual(['/s/topwar_official']);
    replay.seen.length = 0;
    const next = await runLive('telegram.posts', { channel: 'topwar_official', limit: 5, cursor: five.data.cursor }, live.ctx);
    expect(requests()[0]).toBe('/s/topwar_official?before=70999');
    expect(next.data.posts.map((p: any) => p.id)).toEqual(PAGE_IDS.slice(5, 10));
    expect(next.data.cursor).toBe('70992');
  });

  it.each<[string, string, (p: any) => void]>([
    ['message-forwarded.fragment.html', 'https://t.me/oper_goblin/22358', (p) => {
      expect(p).toMatchObject({
        id: '22358',
        url: 'https://t.me/oper_goblin/22358',
        createdAt: '2023-02-27T07:20:50.000Z',
        views: 214400,
        text: 'Британская разведка выяснила, почему Ким Чен Ын начал выводить дочку в свет',
        author: { username: 'oper_goblin', name: 'Tynu40k Goblina (oper.ru)' },
      });
      expect(p.repostOf).toEqual({
        id: '44604',
        url: 'https://t.me/dimsmirnov175/44604',
        author: { username: 'dimsmirnov175', name: 'Пул N3', url: 'https://t.me/dimsmirnov175' },
      });
      expect(p.images).toHaveLength(1);
    }],
    ['message-link-preview.fragment.html', 'oper_goblin/22360', (p) => {
      expect(p.text).toBe('https://vnnews.ru/georgiy-zotov-okkupaciya-volosatym-kr/');
      expect(p.link).toMatchObject({
        url: 'https://vnnews.ru/georgiy-zotov-okkupaciya-volosatym-kr/',
        title: 'Георгий Зотов: ОККУПАЦИЯ ВОЛОСАТЫМ КРАБОМ',
        description: expect.stringMatching(/^Современная журналистика превратилась в комедию и тщетную охоту/),
      });
    }],
    ['message-photo-and-video.fragment.html', 'https://t.me/anna_news/46908', (p) => {
      expect(p.text).toBe(
        'Ночью над Белгородом сбили 3 беспилотника\n\nОни упали на улицы города.\n\nСообщается, что на себе БПЛА несли взрывчатку из пластида.\n\n#Белгород #Беспилотники\n\n@anna_news',
      );
      expect(p).toMatchObject({ isVideo: true, hashtags: ['Белгород', 'Беспилотники'], mentions: ['anna_news'], views: 59500 });
      expect(p.video).toMatchObject({ url: expect.stringMatching(/\.mp4\?token=/), durationSeconds: 5 });
      expect(p.images).toHaveLength(2);
    }],
    ['message-poll.fragment.html', 'https://t.me/it_begin/488', (p) => {
      expect(p.poll).toEqual({
        question: 'Как лучше?',
        options: [
          { text: 'Несколько постов в день', percent: 16 },
          { text: 'Один пост в несколько дней', percent: 83 },
          { text: 'Свой вариант в комментарии', percent: 3 },
        ],
        totalVotes: 222,
        isAnonymous: true,
        isClosed: false,
      });
      expect(p.views).toBe(1100);
    }],
    ['message-voice.fragment.html', 'https://t.me/oper_goblin/939', (p) => {
      expect(p.audio).toEqual({ url: expect.stringMatching(/^https:\/\/cdn4\.telegram-cdn\.org\/file\/e7ba63f364\.ogg\?token=/), durationSeconds: 1660, isVoice: true });
      // Forwarded from an account without a public address: a name only.
      expect(p.repostOf).toEqual({ author: { name: 'Спортивный Екб' } });
      expect(p.createdAt).toBe('2018-04-24T15:28:46.000Z');
      expect(p.text).toMatch(/^Обсудили:\n\n- Сталина не забыть\n- Плохие фильмы/);
    }],
  ])('telegram.post %s', async (_file, post, check) => {
    const out = await runLive('telegram.post', { post }, live.ctx);
    check(out.data.post);
    expect(replay.seen).toHaveLength(1);
    expect(Object.fromEntries(replay.seen[0].query)).toEqual({ embed: '1', mode: 'tme' });
  });

  it('reactions and a reply (documented markup spliced into a recorded message)', async () => {
    replay.mutate = (name, body) =>
      name === 'messaging/message-forwarded.fragment.html'
        ? body
            .replace('<div class="tgme_widget_message_forwarded_from', `${documented('reply.fragment.html')}<div class="tgme_widget_message_forwarded_from`)
            .replace('<div class="tgme_widget_message_footer', `${documented('reactions.fragment.html')}<div class="tgme_widget_message_footer`)
        : body;
    const { post } = (await runLive('telegram.post', { post: 'oper_goblin/22358' }, live.ctx)).data;
    expect(post.reactions).toEqual([
      { count: 1580, emoji: '👍' },
      { count: 42, customEmojiId: '5368324170671202286' },
      { count: 7, isPaid: true },
    ]);
    expect(post.replyTo).toEqual({ id: '70990', url: 'https://t.me/topwar_official/70990', author: { name: 'Военное обозрение' } });
    // The quoted text of the post answered is not the post's own.
    expect(post.text).toBe('Британская разведка выяснила, почему Ким Чен Ын начал выводить дочку в свет');
  });

  it('failure shapes: a missing post, a wall, drift, a hostile page', async () => {
    const missing = await failure(runLive('telegram.post', { post: 'https://t.me/durov/99999' }, live.ctx));
    expect([missing.code, missing.message]).toEqual(['notFound', 'post: no such post durov/99999 (Post not found)']);
    expect((await failure(runLive('telegram.channel', { channel: 'walled_chan' }, live.ctx))).code).toBe('sourceRefused');
    replay.mutate = (name, body) => (name === FULL ? body.replace(/datetime="[^"]*"/g, '') : body);
    const undated = await failure(runLive('telegram.posts', { channel: 'topwar_official' }, live.ctx));
    expect(undated.code).toBe('sourceChanged');
    expect(undated.message).toMatch(/without its date/);
    replay.mutate = (name, body) => (name === FULL ? body.replace(/tgme_channel_info_counter/g, 'renamed_counter') : body);
    expect((await failure(runLive('telegram.channel', { channel: 'topwar_official' }, live.ctx))).code).toBe('sourceChanged');
    replay.mutate = undefined;
    expect((await failure(runLive('telegram.channel', { channel: 'deep_chan' }, live.ctx))).code).toBe('sourceChanged');
  });

  describe('through the gateway', () => {
    let gw: TestGateway;
    let key: string;
    let testKey: string;
    let accountId: string;
    const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

    beforeAll(async () => {
      gw = await startGateway({ QUARRY_UPSTREAM_OVERRIDES: replay.overrides(), QUARRY_OUTBOUND_ALLOW: '127.0.0.1', QUARRY_UPSTREAM_RETRIES: '0' });
      const acct = await gw.accounts.createAccount({ credits: 50 });
      accountId = acct.accountId;
      key = acct.apiKey;
      testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
    });
    afterAll(async () => {
      await gw?.close();
    });

    it('live: posts priced by what came back (12 posts: 1 credit, though limit 200 could cost 10), channel and post 1', async () => {
      const before = await balance();
      const posts = await call(gw.url, '/v1/telegram/posts', { channel: 'topwar_official', limit: 200 }, { key });
      expect(posts.status).toBe(200);
      expect(posts.json.data.posts).toHaveLength(12);
      expect(posts.json.creditsUsed).toBe(1);
      const ch = await call(gw.url, '/v1/telegram/channel', { channel: 'topwar_official' }, { key });
      expect([ch.status, ch.json.creditsUsed]).toEqual([200, 1]);
      const one = await call(gw.url, '/v1/telegram/post', { post: 'https://t.me/it_begin/488' }, { key });
      expect(one.json.data.post.poll.totalVotes).toBe(222);
      expect(await balance()).toBe(before - 3);
    });

    it('paging: the cursor goes upstream as `before`', async () => {
      replay.seen.length = 0;
      const first = await call(gw.url, '/v1/telegram/posts', { channel: 'topwar_official', limit: 4 }, { key });
      const next = await call(gw.url, '/v1/telegram/posts', { channel: 'topwar_official', limit: 4, cursor: first.json.data.cursor }, { key });
      expect(next.status).toBe(200);
      expect(replay.seen.map((s) => s.query.get('before'))).toEqual([null, first.json.data.cursor]);
      expect(next.json.data.posts[0].id).toBe(PAGE_IDS[4]);
    });

    it('test mode answers the catalogue examples from the samples and pages them, never upstream', async () => {
      replay.seen.length = 0;
      const ch = await call(gw.url, '/v1/telegram/channel', { channel: 'durov' }, { key: testKey });
      expect(ch.json.data.channel.username).toBe('topwar_official');
      const first = await call(gw.url, '/v1/telegram/posts', { channel: 'durov', limit: 20 }, { key: testKey });
      expect(first.json.creditsUsed).toBe(1);
      const next = await call(gw.url, '/v1/telegram/posts', { channel: 'durov', limit: 20, cursor: first.json.data.cursor }, { key: testKey });
      expect(next.json.data.posts[0].id).toBe(PAGE_IDS[6]);
      const one = await call(gw.url, '/v1/telegram/post', { post: 'https://t.me/durov/1' }, { key: testKey });
      expect(one.status).toBe(200);
      expect(replay.seen).toEqual([]);
    });

    it('drift → 502 sourceChanged, a wall → 502 sourceRefused, unknown → 404, all unbilled', async () => {
      const before = await balance();
      replay.mutate = (name, body) => (name === FULL ? body.replace(/tgme_widget_message_views/g, 'renamed_views') : body);
      try {
        const drift = await call(gw.url, '/v1/telegram/posts', { channel: 'topwar_official', limit: 3, maxAge: 0 }, { key });
        expect([drift.status, drift.json.error.code]).toEqual([502, 'sourceChanged']);
      } finally {
        replay.mutate = undefined;
      }
      const walled = await call(gw.url, '/v1/telegram/channel', { channel: 'walled_chan' }, { key });
      expect([walled.status, walled.json.error.code]).toEqual([502, 'sourceRefused']);
      const gone = await call(gw.url, '/v1/telegram/post', { post: 'https://t.me/durov/99999' }, { key });
      expect([gone.status, gone.json.error.code]).toEqual([404, 'notFound']);
      expect(await balance()).toBe(before);
    });
  });
});
