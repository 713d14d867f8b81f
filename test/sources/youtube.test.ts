/**
 * YouTube against the recorded InnerTube answers of ../shared/upstream/video, served by the replay double: a table of
 * request → recordings → record facts, paging over the recorded second pages, the player's refusal shapes, drift, and
 * the parts no recording exists for (caption text, about panel) fed from documented fixtures, named as such.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aboutToken, joinedOn } from '../../src/sources/youtube/channel.js';
import { channelRef, playlistId, videoId } from '../../src/sources/youtube/ids.js';
import { musicSearchParams, playlistFirstPage, searchParams } from '../../src/sources/youtube/params.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, readRecordingJson, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { YOUTUBE_REPLAY } from './youtube-replay.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const documented = (name: string) => readFileSync(new URL(`../fixtures/documented/youtube/${name}`, import.meta.url), 'utf8');

describe('input forms (no recordings needed)', () => {
  it.each([
    ['dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ?si=x', 'dQw4w9WgXcQ'],
    ['youtube.com/shorts/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/live/dQw4w9WgXcQ?feature=share', 'dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RDAMVM', 'dQw4w9WgXcQ'],
  ])('video %s', (input, id) => expect(videoId(input)).toBe(id));

  it('a non-YouTube address or a bad id is the caller’s 400, naming the field', async () => {
    for (const bad of ['https://vimeo.com/123', 'abc', 'https://www.youtube.com/feed/trending']) {
      const e = await failure(() => videoId(bad));
      expect(e.code).toBe('invalidRequest');
      expect(e.message).toMatch(/^video: /);
    }
  });

  it.each([
    ['UCTwECeGqMZee77BjdoYtI2Q', { browseId: 'UCTwECeGqMZee77BjdoYtI2Q' }],
    ['https://www.youtube.com/channel/UCTwECeGqMZee77BjdoYtI2Q/videos', { browseId: 'UCTwECeGqMZee77BjdoYtI2Q' }],
    ['@veritasium', { resolve: 'https://www.youtube.com/@veritasium' }],
    ['https://www.youtube.com/@veritasium/shorts', { resolve: 'https://www.youtube.com/@veritasium' }],
    ['https://www.youtube.com/c/Vsauce', { resolve: 'https://www.youtube.com/c/Vsauce' }],
    ['youtube.com/user/creativecommons', { resolve: 'https://www.youtube.com/user/creativecommons' }],
  ])('channel %s', (input, ref) => expect(channelRef(input)).toEqual(ref));

  it.each([
    ['PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr'],
    ['https://www.youtube.com/playlist?list=PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr'],
    ['https://www.youtube.com/watch?v=u2ah9tWTkmk&list=PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr'],
  ])('playlist %s', (input, id) => expect(playlistId(input)).toBe(id));

  it('search filters encode to the documented protobuf (the two recorded ones byte for byte)', () => {
    const base = { duration: 'all', within: 'all', sort: 'relevance', features: [] } as const;
    expect(searchParams({ ...base, type: 'videos' })).toBe('EgIQAfABAQ%3D%3D');
    expect(searchParams({ ...base, type: 'playlists' })).toBe('EgIQA_ABAQ%3D%3D');
    // upload date "today" (2), videos, sorted by views (3): { 1: 3, 2: { 1: 2, 2: 1 } }
    expect(Buffer.from(decodeURIComponent(searchParams({ ...base, type: 'videos', within: 'day', sort: 'top' })), 'base64url')).toEqual(
      Buffer.from([0x08, 0x03, 0x12, 0x04, 0x08, 0x02, 0x10, 0x01, 0xf0, 0x01, 0x01]),
    );
    expect(musicSearchParams('songs')).toBe('Eg-KAQwIARAAGAAgACgAMABqChAEEAUQAxAKEAk%3D');
    expect(playlistFirstPage('PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr')).toBe(
      '4qmFsgJdEiRWTFBMb3VtbjVCSXNVRGVHRjF2eTVOeWxmX1JKS241YUxfbnIaEENBRENCZ0lJQUElM0QlM0SaAiJQTG91bW41QklzVURlR0Yxdnk1TnlsZl9SSktuNWFMX25y',
    );
  });

  it('joined dates read in both English orders', () => {
    expect(joinedOn('Joined 22 Jun 2006')).toBe('2006-06-22');
    expect(joinedOn('Joined Jun 22, 2006')).toBe('2006-06-22');
    expect(joinedOn('Joined last year')).toBeUndefined();
  });
});

describe.skipIf(!haveRecordings('video'))(`youtube against the recordings${skipReason('video')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(YOUTUBE_REPLAY);
    live = liveContext('youtube', replay);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
    replay.mutate = undefined;
  });

  type Check = (data: any, served: string[]) => void;
  it.each<[string, Record<string, unknown>, Check]>([
    ['youtube.search', { query: 'test' }, (d, served) => {
      expect(served).toEqual(['video/search-videos.page1.json']);
      expect(d.results).toHaveLength(20);
      expect(d.estimatedResults).toBe(readRecordingJson('video/search-videos.page1.json').estimatedResults * 1);
      expect(d.results[0]).toMatchObject({ type: 'video', id: 'Z8KYabgkMbw', title: 'Blind Test TOUT GENRE | 140 extraits', durationSeconds: 2840, views: 390201, publishedText: '9 months ago', author: { id: 'UCuEBTg6pcG7s3PpPGRtFKQA', username: 'BlindTest-Chill' } });
      expect(d.results.every((r: any) => r.type === 'video' && r.publishedAt === undefined)).toBe(true);
      expect(d.cursor).toMatch(/^Ep0DEgR0ZXN0/);
    }],
    ['youtube.search', { query: 'test', limit: 30 }, (d, served) => {
      expect(served).toEqual(['video/search-videos.page1.json', 'video/search-videos.page2.json']);
      expect(d.results).toHaveLength(30);
      expect(new Set(d.results.map((r: any) => r.id)).size).toBe(30);
      expect(d.cursor).toMatch(/^10~/); // ten entries of the second page are still owed
    }],
    ['youtube.search', { query: 'test', type: 'playlists' }, (d, served) => {
      expect(served).toEqual(['video/search-playlists.page1.json']);
      expect(d.results[0]).toMatchObject({ type: 'playlist', id: 'PLAD454F0807B6CB80', title: 'Tests du grenier', videos: 102, updatedText: 'Updated yesterday', author: { id: 'UC_yP2DpIgs5Y1uWC0T03Chw' } });
    }],
    ['youtube.search', { query: '#shorts' }, (d, served) => {
      expect(served).toEqual(['video/search-shorts.page1.json']);
      const shorts = d.results.filter((r: any) => r.isShort);
      expect(shorts.length).toBeGreaterThan(0);
      expect(shorts[0].url).toMatch(/\/shorts\//);
    }],
    ['youtube.video', { video: 'https://www.youtube.com/watch?v=M4gD1WSo5mA' }, (d, served) => {
      expect(served.sort()).toEqual(['video/video-cc.next.json', 'video/video-cc.player-web-fields.json']);
      expect(d.video).toMatchObject({
        type: 'video', id: 'M4gD1WSo5mA', durationSeconds: 721, views: 12916, likes: 72, category: 'Education',
        publishedAt: '2015-01-28T05:14:36.000Z', author: { id: 'UCuLGmD72gJDBwmLw06X58SA', name: 'The Berkman Klein Center for Internet & Society', username: 'BKCHarvard' },
        license: 'Creative Commons Attribution licence (reuse allowed)',
      });
      expect(d.video.description).toMatch(/^The terms on which this lecture/);
      expect(d.related.length).toBe(20);
      expect(d.related[0]).toMatchObject({ type: 'video', id: '2GGE_ToREPw', durationSeconds: 1446, publishedText: '11 years ago' });
    }],
    ['youtube.video', { video: 'https://www.youtube.com/live/X4VbdwhkE10' }, (d, served) => {
      expect(served.sort()).toEqual(['video/video-live.next.json', 'video/video-live.player-web-fields.json']);
      expect(d.video).toMatchObject({ id: 'X4VbdwhkE10', isLive: true, isLiveContent: true, liveStartedAt: '2026-06-04T06:53:18.000Z', author: { name: 'Lofi Girl' } });
      expect(d.video.durationSeconds).toBeUndefined();
    }],
    ['youtube.comments', { video: 'xaQJbozY_Is' }, (d, served) => {
      expect(served).toEqual(['video/comments.next-video.json', 'video/comments.next-threads.json']);
      expect(d.total).toBe(21051);
      expect(d.comments).toHaveLength(20);
      expect(d.comments[0]).toMatchObject({ type: 'comment', id: 'UgwSOM0QHBLysE3vZE54AaABAg', likes: 9800, replies: 327, isPinned: true, isEdited: true, isByAuthor: true, publishedText: '4 years ago', author: { id: 'UCsXVk37bltHxD1rDPwtNM8Q', username: 'kurzgesagt', isVerified: true } });
      expect(d.comments[0].repliesCursor).toBe(readRecordingJson('video/comments.next-replies.request.json').request.body.continuation);
      expect(d.cursor).toMatch(/^Eg0SC3hhUUpib3pZX0lz/);
    }],
    ['youtube.comments.replies', { video: 'xaQJbozY_Is', cursor: readRecordingJson('video/comments.next-replies.request.json').request.body.continuation }, (d, served) => {
      expect(served).toEqual(['video/comments.next-replies.json']);
      expect(d.replies).toHaveLength(10);
      expect(d.replies[0]).toMatchObject({ type: 'comment', parentId: 'UgwSOM0QHBLysE3vZE54AaABAg' });
      expect(d.cursor).toBeTruthy();
    }],
    ['youtube.transcript', { video: 'GJLlxj_dtq8', includeTimestamps: true }, (d, served) => {
      expect(served).toEqual(['video/transcript.player-android-captions.json', 'route /api/timedtext']);
      expect(d).toMatchObject({ video: 'GJLlxj_dtq8', language: 'zh', languageName: 'Chinese', isGenerated: false });
      expect(d.languages).toHaveLength(9);
      expect(d.languages.find((l: any) => l.isGenerated)).toEqual({ code: 'en', name: 'English (auto-generated)', isGenerated: true, isTranslatable: true });
      expect(d.segments[2]).toEqual({ start: 5.7, duration: 3.24, text: 'test & test, like this "test" he\'s testing' });
      expect(d.text).toBe('Hey, this is just a test this is not the original transcript test & test, like this "test" he\'s testing');
    }],
    ['youtube.transcript', { video: 'GJLlxj_dtq8', language: 'EN' }, (d) => {
      expect(d).toMatchObject({ language: 'en', languageName: 'English', isGenerated: false });
      expect(d.segments).toBeUndefined();
    }],
    ['youtube.transcript', { video: 'GJLlxj_dtq8', language: 'ar' }, (d, served) => {
      expect(d).toMatchObject({ language: 'ar', languageName: 'Arabic', translatedFrom: 'zh' });
      expect(replay.seen.find((s) => s.path === '/api/timedtext')?.query.get('tlang')).toBe('ar');
      expect(served).toHaveLength(2);
    }],
    ['youtube.channel', { channel: 'https://www.youtube.com/user/creativecommons', limit: 30 }, (d, served) => {
      expect(served).toEqual(['video/channel.resolve-url.json', 'video/channel-videos.browse-page1.json']);
      expect(d.channel).toMatchObject({ type: 'channel', id: 'UCTwECeGqMZee77BjdoYtI2Q', name: 'Creative Commons', username: 'creativecommons', followers: 8840, videos: 258, rssUrl: 'https://www.youtube.com/feeds/videos.xml?channel_id=UCTwECeGqMZee77BjdoYtI2Q' });
      expect(d.channel.keywords).toEqual(['creative commons', 'remix', 'culture', 'nonprofit']);
      expect(d.items).toHaveLength(30);
      expect(d.items[0]).toMatchObject({ type: 'video', id: 'BD-LB23rRBE', durationSeconds: 4054, views: 28, publishedText: '13 days ago', author: { id: 'UCTwECeGqMZee77BjdoYtI2Q' } });
      expect(d.cursor).toBe(readRecordingJson('video/channel-videos.browse-page2.request.json').request.body.continuation);
    }],
    ['youtube.channel', { channel: 'UCTwECeGqMZee77BjdoYtI2Q', cursor: readRecordingJson('video/channel-videos.browse-page2.request.json').request.body.continuation }, (d, served) => {
      expect(served).toEqual(['video/channel-videos.browse-page2.json']);
      expect(d.channel).toBeUndefined(); // later pages carry the entries only
      expect(d.items).toHaveLength(30);
      expect(d.cursor).toBeTruthy();
    }],
    ['youtube.channel', { channel: 'UCh8gHdtzO2tXd593_bjErWg', tab: 'shorts', limit: 48 }, (d, served) => {
      expect(served).toEqual(['video/channel-shorts.browse-page1.json']);
      expect(d.items).toHaveLength(48);
      expect(d.items[0]).toMatchObject({ type: 'video', id: 'l-X5WbDSH2o', isShort: true, views: 895000, url: 'https://www.youtube.com/shorts/l-X5WbDSH2o' });
      expect(d.channel).toMatchObject({ name: 'Doobydobap', isVerified: true });
    }],
    ['youtube.channel', { channel: 'UC2DjFE7Xf11URZqWBigcVOQ', tab: 'playlists' }, (d, served) => {
      expect(served).toEqual(['video/channel-playlists.browse-page1.json']);
      expect(d.items[0]).toMatchObject({ type: 'playlist', id: 'PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20', title: 'uTimer Project', videos: 2 });
    }],
    ['youtube.channel', { channel: 'https://www.youtube.com/channel/UC6nSFpj9HTCZ5t-N3Rm3-HA' }, (d, served) => {
      expect(served).toEqual(['video/channel-home.browse.json']);
      expect(d.channel).toMatchObject({ name: 'Vsauce', followers: 24600000 });
      expect(d.items[0]).toMatchObject({ type: 'video', id: 'xHd4zsIbXJ0', durationSeconds: 1320, views: 6403051 });
    }],
    ['youtube.playlist', { playlist: 'https://www.youtube.com/playlist?list=PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr' }, (d, served) => {
      expect(served.sort()).toEqual(['video/playlist.browse-header-fields.json', 'video/playlist.browse-page1.json']);
      expect(d.playlist).toMatchObject({ type: 'playlist', id: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', videos: 150, views: 143206, author: { name: 'Redlist - Chart Playlists' } });
      expect(d.videos).toHaveLength(100);
      expect(d.videos[0]).toMatchObject({ type: 'video', id: 'u2ah9tWTkmk', index: 1, isPlayable: true, durationSeconds: 187, views: 266000000, author: { name: 'Alex Warren' } });
      expect(d.cursor).toBe(readRecordingJson('video/playlist.browse-page2.request.json').request.body.continuation);
    }],
    ['youtube.playlist', { playlist: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', limit: 120 }, (d, served) => {
      expect(served).toContain('video/playlist.browse-page2.json');
      expect(d.videos.map((v: any) => v.index)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(d.cursor).toMatch(/^20~/);
    }],
  ])('%s %j', async (id, body, check) => {
    const out = await runLive(id, body, live.ctx);
    expect(replay.misses()).toEqual([]);
    check(out.data, replay.served());
  });

  it('includeAbout adds the about panel (documented answer: no recording of it exists)', async () => {
    const token = aboutToken(readRecordingJson('video/channel-videos.browse-page1.json'))!;
    const about = await startReplay({ ...YOUTUBE_REPLAY, routes: [{ method: 'POST', path: '/youtubei/v1/browse', body: { continuation: token }, text: documented('channel-about.browse.json'), headers: { 'content-type': 'application/json' } }] });
    const ctx = liveContext('youtube', about);
    try {
      const out = await runLive('youtube.channel', { channel: 'UCTwECeGqMZee77BjdoYtI2Q', includeAbout: true, limit: 5 }, ctx.ctx);
      expect(out.data.channel).toMatchObject({ country: 'United States', joinedOn: '2006-06-22', joinedText: 'Joined 22 Jun 2006', views: 1234567, links: [{ url: 'https://creativecommons.org/', title: 'Website' }] });
    } finally {
      await ctx.close();
      await about.close();
    }
  });

  it('channel tabs ask their own params; the posts tab reads community posts (documented answer: no recording of it)', async () => {
    const params = (tab: string) => replay.seen.find((x) => x.path === '/youtubei/v1/browse')?.body as Record<string, unknown>;
    const posts = await startReplay({ ...YOUTUBE_REPLAY, routes: [{ method: 'POST', path: '/youtubei/v1/browse', body: { params: 'EgVwb3N0c_IGBAoCSgA%3D' }, text: documented('channel-posts.browse.json'), headers: { 'content-type': 'application/json' } }] });
    const ctx = liveContext('youtube', posts);
    try {
      const out = await runLive('youtube.channel', { channel: 'UCTwECeGqMZee77BjdoYtI2Q', tab: 'posts', limit: 1 }, ctx.ctx);
      expect(out.data.items[0]).toEqual({
        type: 'post', id: 'UgkxExamplePostId0000000000000000000', url: 'https://www.youtube.com/post/UgkxExamplePostId0000000000000000000',
        text: 'Our new licence guide is out: creativecommons.org', publishedText: '2 weeks ago', likes: 1200, comments: 34,
        author: { id: 'UCTwECeGqMZee77BjdoYtI2Q', name: 'Creative Commons', username: 'creativecommons', url: 'https://www.youtube.com/@creativecommons' },
        images: [{ url: 'https://yt3.ggpht.com/post-image=s640' }],
      });
      expect(out.data.cursor).toBe('4qmFsgKexamplepostscontinuation');
    } finally {
      await ctx.close();
      await posts.close();
    }
    // The search tab sends its query beside the tab's params (no answer recorded: the double's 404 → notFound).
    const e = await failure(runLive('youtube.channel', { channel: 'UCTwECeGqMZee77BjdoYtI2Q', tab: 'search', query: 'licences' }, live.ctx));
    expect(e.code).toBe('notFound');
    expect(params('search')).toMatchObject({ browseId: 'UCTwECeGqMZee77BjdoYtI2Q', params: 'EgZzZWFyY2jyBgQKAloA', query: 'licences' });
    expect((await failure(runLive('youtube.channel', { channel: 'UCTwECeGqMZee77BjdoYtI2Q', tab: 'search' }, live.ctx))).code).toBe('invalidRequest');
  });

  it('channel search results (documented answer: no channel search is recorded)', async () => {
    const channels = await startReplay({ ...YOUTUBE_REPLAY, routes: [{ method: 'POST', path: '/youtubei/v1/search', body: { query: 'veritasium' }, text: documented('search-channels.json'), headers: { 'content-type': 'application/json' } }] });
    const ctx = liveContext('youtube', channels);
    try {
      const out = await runLive('youtube.search', { query: 'veritasium', type: 'channels' }, ctx.ctx);
      expect(channels.seen[0].body).toMatchObject({ params: 'EgIQAvABAQ%3D%3D' });
      expect(out.data).toEqual({
        estimatedResults: 512,
        results: [{ type: 'channel', id: 'UCHnyfMqiRRG1u-2MsSQLbXA', url: 'https://www.youtube.com/@veritasium', name: 'Veritasium', username: 'veritasium', bio: 'An element of truth.', avatar: 'https://yt3.googleusercontent.com/veritasium=s176', isVerified: true, followersText: '19.1M subscribers', followers: 19100000 }],
      });
    } finally {
      await ctx.close();
      await channels.close();
    }
  });

  it('comments newest first follow the sort menu of the first page (its answer is not recorded)', async () => {
    const e = await failure(runLive('youtube.comments', { video: 'xaQJbozY_Is', sort: 'newest' }, live.ctx));
    const newest = readRecordingJson('video/comments.next-threads.json').onResponseReceivedEndpoints[0].reloadContinuationItemsCommand.continuationItems[0].commentsHeaderRenderer.sortMenu.sortFilterSubMenuRenderer.subMenuItems[1].serviceEndpoint.continuationCommand.token;
    expect(replay.seen.at(-1)?.body).toMatchObject({ continuation: newest });
    expect(e.code).toBe('notFound'); // the double answers 404 for what it has not recorded
  });

  it('player refusals: bot wall → sourceRefused, unknown → notFound, age gate → a clear refusal, not retryable', async () => {
    const bot = await failure(runLive('youtube.transcript', { video: 'BotCheck000' }, live.ctx));
    expect(bot.code).toBe('sourceRefused');
    expect(bot.message).toMatch(/not a bot/);
    const gone = await failure(runLive('youtube.transcript', { video: 'Unavailabl0' }, live.ctx));
    expect(gone.code).toBe('notFound');
    const age = await failure(runLive('youtube.transcript', { video: 'Njp5uhTorCo' }, live.ctx));
    expect(age.code).toBe('sourceRefused');
    expect(age.retryable).toBe(false);
    expect(age.message).toMatch(/age-restricted/);
    expect(replay.served()).toContain('video/player-android.age-restricted.json');
  });

  it('a language the video has no captions in (nor a translation to) is notFound naming what it has', async () => {
    const e = await failure(runLive('youtube.transcript', { video: 'GJLlxj_dtq8', language: 'xx' }, live.ctx));
    expect(e.code).toBe('notFound');
    expect(e.message).toMatch(/zh, cs, en/);
  });

  it('a drifted answer (a search result without its title) is sourceChanged', async () => {
    replay.mutate = (name, body) => (name.endsWith('search-videos.page1.json') ? body.replace('"title":{"runs"', '"headline":{"runs"') : body);
    const e = await failure(runLive('youtube.search', { query: 'test' }, live.ctx));
    expect(e.code).toBe('sourceChanged');
  });

  it('a tampered cursor is the caller’s 400, before and after YouTube sees it', async () => {
    expect((await failure(runLive('youtube.search', { query: 'test', cursor: 'not a token!' }, live.ctx))).code).toBe('invalidRequest');
    const e = await failure(runLive('youtube.playlist', { playlist: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', cursor: 'AAAAtampered' }, live.ctx));
    expect(e.code).toBe('invalidRequest'); // the double's 404 stands for YouTube's 400 "invalid argument"
  });

  it('the channel feed (RSS) recording is an alternative YouTube offers, not one this source asks', () => {
    // Read so that every recording of the folder is accounted for: the feed lists 15 uploads, fewer fields than browse.
    const feed = readFileSync(new URL('../../../shared/upstream/video/channel-feed.atom.xml', import.meta.url), 'utf8');
    expect(feed).toContain('<yt:channelId>');
  });
});

describe('test mode answers from the committed samples', () => {
  it.each(['youtube.search', 'youtube.video', 'youtube.transcript', 'youtube.comments', 'youtube.channel', 'youtube.playlist'])('%s', async (id) => {
    const { operationOf } = await import('../helpers/source-kit.js');
    const op = operationOf(id);
    const out = await runSample(id, op.endpoint.example as Record<string, unknown>);
    expect(out.data).toBeTruthy();
  });
});

describe.skipIf(!haveRecordings('video'))(`youtube suggestions, live chat, Music and Kids${skipReason('video')}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(YOUTUBE_REPLAY);
    live = liveContext('youtube', replay);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.seen.length = 0;
  });

  type Check = (data: any, served: string[], out: { items?: number; free?: boolean }) => void;
  it.each<[string, Record<string, unknown>, Check]>([
    ['youtube.suggest', { query: 'hello', country: 'DE' }, (d, served) => {
      expect(served).toEqual(['video/suggest.complete.json']);
      expect(d).toMatchObject({ query: 'hello', country: 'de', language: 'en' });
      expect(d.suggestions.slice(0, 3)).toEqual(['hello', 'hello kitty', 'hello neighbor']);
      expect(d.suggestions).toHaveLength(14);
    }],
    ['youtube.music.search', { query: 'mocromaniac' }, (d, served) => {
      expect(served).toEqual(['video/music-search-songs.page1.json']);
      expect(d.results).toHaveLength(20);
      expect(d.results[0]).toMatchObject({
        type: 'song', id: 'HhQGHxWZCd0', title: 'Boom Boom Boom', url: 'https://music.youtube.com/watch?v=HhQGHxWZCd0', durationSeconds: 171, plays: 333000, isExplicit: true,
        artists: [{ name: 'MocroManiac', id: 'UCbavYW_bduz7PMrVuv0rJLA' }], album: { name: 'Boom Boom Boom', id: 'MPREb_xO8k7KwxIXy' },
      });
      expect(d.cursor).toBe(readRecordingJson('video/music-search-songs.page1.json').contents.tabbedSearchResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer.contents.find((c: any) => c.musicShelfRenderer).musicShelfRenderer.continuations[0].nextContinuationData.continuation);
    }],
    ['youtube.music.search', { query: 'mocromaniac', limit: 40 }, (d, served) => {
      expect(served).toEqual(['video/music-search-songs.page1.json', 'video/music-search-songs.page2.json']);
      expect(d.results).toHaveLength(40);
      expect(new Set(d.results.map((r: any) => r.id)).size).toBe(40);
      expect(d.results.every((r: any) => r.type === 'song')).toBe(true);
    }],
    ['youtube.music.suggestions', { query: '' }, (d, served, out) => {
      expect(served).toEqual(['video/music-search-suggestions.json']);
      expect(d).toEqual({ query: '', suggestions: [] });
      expect(out.free).toBe(true); // an empty answer is not billed
    }],
    ['youtube.music.album', { album: 'https://music.youtube.com/browse/MPREb_Tr9YVfRfip1' }, (d, served) => {
      expect(served).toEqual(['video/music-album.browse.json']);
      expect(d.album).toMatchObject({ type: 'album', id: 'MPREb_Tr9YVfRfip1', title: '17', year: 2017, tracks: 11, durationText: '22 minutes', artists: [{ name: 'XXXTENTACION', id: 'UCnAcxgRZ065f_eXK1o85c1w' }], playlistId: 'OLAK5uy_kW9hN-oBmekJ06jhhfStpwRd5pcRKIztY' });
      expect(d.album.description).toMatch(/^17 is the debut studio album/);
      expect(d.tracks).toHaveLength(11);
      expect(d.tracks[0]).toMatchObject({ type: 'song', id: '0m68rsj48X0', title: 'The Explanation', index: 1, durationSeconds: 51, plays: 26000000, album: { id: 'MPREb_Tr9YVfRfip1', name: '17' } });
      expect(d.related.length).toBeGreaterThan(0);
      expect(d.related[0]).toMatchObject({ type: 'album', id: 'MPREb_voteCvuOSms' });
    }],
    ['youtube.music.artist', { artist: 'UCJwGWV914kBlV4dKRn7AEFA' }, (d, served) => {
      expect(served).toEqual(['video/music-artist.browse-hatsune-miku.json']);
      expect(d.artist).toMatchObject({ type: 'artist', id: 'UCJwGWV914kBlV4dKRn7AEFA', title: 'Hatsune Miku', followers: 4410000, subtitle: '16.1M monthly audience' });
      expect(d.sections.map((s: any) => s.title)).toEqual(expect.arrayContaining(['Top songs', 'Albums', 'Singles & EPs', 'Videos']));
      const top = d.sections.find((s: any) => s.title === 'Top songs');
      expect(top.items[0]).toMatchObject({ type: 'song', plays: 243000000, artists: [{ name: '32ki' }, { name: 'Hatsune Miku' }, { name: 'Kasane Teto' }] });
    }],
    ['youtube.music.artist', { artist: 'https://music.youtube.com/channel/UC5CwaMl1eIgY8h02uZw7u8A' }, (d, served) => {
      expect(served).toEqual(['video/music-artist.browse-hoshimachi-suisei.json']);
      expect(d.artist.title).toBeTruthy();
      expect(d.artist.description).toBeTruthy(); // a description of several runs, joined
      expect(d.sections.length).toBeGreaterThan(2);
    }],
    ['youtube.livechat', { video: 'X4VbdwhkE10' }, (d, served) => {
      expect(served).toEqual(['video/video-live.next.json', 'route /youtubei/v1/live_chat/get_live_chat']);
      expect(replay.seen.at(-1)?.body).toMatchObject({ continuation: readRecordingJson('video/video-live.next.json').contents.twoColumnWatchNextResults.conversationBar.liveChatRenderer.continuations[0].reloadContinuationData.continuation });
      expect(d).toMatchObject({ video: 'X4VbdwhkE10', isReplay: false });
      expect(d.messages).toEqual([
        { type: 'message', id: 'ChwKGkNNaXZ4YlRYMUlvREZhbXA1UWNkNDdJTzJ3', author: { id: 'UCabcdefghijklmnopqrstuv', name: 'Some Viewer', url: 'https://www.youtube.com/channel/UCabcdefghijklmnopqrstuv', avatar: 'https://yt4.ggpht.com/example=s64' }, text: 'hello from the chat :wave:', createdAt: '2026-06-04T06:53:20.123Z', badges: ['Moderator'] },
        { type: 'paid', id: 'ChwKGkNQV2d4YlRYMUlvREZVSmQ1UWNkcXlzQlhn', author: { id: 'UCzyxwvutsrqponmlkjihgfe', name: 'Generous Viewer', url: 'https://www.youtube.com/channel/UCzyxwvutsrqponmlkjihgfe' }, text: 'thanks for the stream', createdAt: '2026-06-04T06:53:25.000Z', amountText: '$5.00' },
      ]);
      expect(d.cursor).toMatch(/^live\.0ofMyAN/);
    }],
    ['youtube.music.song', { song: 'https://music.youtube.com/watch?v=HhQGHxWZCd0' }, (d) => {
      expect(d.song).toMatchObject({ type: 'song', id: 'HhQGHxWZCd0', title: 'Boom Boom Boom', durationSeconds: 171, year: 2021, isExplicit: true, artists: [{ name: 'MocroManiac' }], album: { id: 'MPREb_xO8k7KwxIXy' } });
      expect(d.lyricsId).toBe('MPLYt_example_lyrics_1');
    }],
    ['youtube.music.lyrics', { song: 'HhQGHxWZCd0' }, (d) => {
      expect(d).toEqual({ song: 'HhQGHxWZCd0', lyrics: 'First line of the song\nSecond line of the song\n\nChorus line', source: 'Example Lyrics Provider' });
    }],
    ['youtube.music.playlist', { playlist: 'RDCLAK5uy_kmPRjHDECIcuVwnKsx2Ng7fyNgFKWNJFs', limit: 1 }, (d) => {
      expect(d.playlist).toMatchObject({ type: 'playlist', title: 'Example Hits', tracks: 2, author: { name: 'YouTube Music' } });
      expect(d.tracks[0]).toMatchObject({ type: 'song', id: 'HhQGHxWZCd0', durationSeconds: 171, artists: [{ name: 'MocroManiac' }] });
      expect(d.cursor).toBe('4qmFsgJbEiRWTFJEQ0xBSzV1eV9leGFtcGxl');
    }],
    ['youtube.kids.search', { query: 'dinosaurs' }, (d) => {
      expect(replay.seen[0]).toMatchObject({ host: 'www.youtubekids.com', path: '/youtubei/v1/search' });
      expect(d.results).toHaveLength(2);
      expect(d.results[0]).toMatchObject({ type: 'video', id: 'kidsVideo01', kidsUrl: 'https://www.youtubekids.com/watch?v=kidsVideo01', durationSeconds: 245, views: 1234567, publishedText: '2 years ago', author: { name: 'Example Kids Channel' } });
    }],
    ['youtube.kids.video', { video: 'kidsVideo01' }, (d) => {
      expect(replay.seen[0].body).toMatchObject({ videoId: 'kidsVideo01' });
      expect(d.video).toMatchObject({ type: 'video', id: 'kidsVideo01', title: 'Dinosaurs for kids', durationSeconds: 245, views: 1234567, keywords: ['dinosaurs', 'kids'] });
    }],
  ])('%s %j', async (id, body, check) => {
    const out = await runLive(id, body, live.ctx);
    expect(replay.misses()).toEqual([]);
    check(out.data, replay.served(), out);
  });

  it('the recorded charts page reads through the same shelf reader (no endpoint asks for charts)', async () => {
    const { musicSections } = await import('../../src/sources/youtube/music.js');
    const sections = musicSections(readRecordingJson('video/music-charts-us.browse.json'));
    expect(sections.length).toBeGreaterThan(1);
    expect(sections.flatMap((s) => s.items).length).toBeGreaterThanOrEqual(40);
  });

  it('a music continuation is sent in the query as YouTube Music’s web client sends it', async () => {
    const page1 = await runLive('youtube.music.search', { query: 'mocromaniac' }, live.ctx);
    replay.seen.length = 0;
    await runLive('youtube.music.search', { query: 'mocromaniac', cursor: page1.data.cursor }, live.ctx);
    expect(replay.served()).toEqual(['video/music-search-songs.page2.json']);
  });
});
