/**
 * twitch against the replay double (test/sources/twitch-doubles.ts): every recording of ../shared/upstream/twitch is
 * read, through the live operations (channels, videos, clips, one video or clip, search, directories, the integrity
 * challenge) or, for the answers no endpoint asks (UseLive, the channel's video shelves, the clip download button,
 * pinned chat, search suggestions), through the same readers. The schedule's iCalendar is Twitch's documented
 * example (named so). Then failures, test mode and the gateway.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { categorySlug, clipSlug, loginOf, videoId } from '../../src/sources/twitch/client.js';
import { clipOf, liveSince, personOf, scheduleOf, signedClipUrl, videoOf } from '../../src/sources/twitch/normalise.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, readRecordingJson, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { useSourceGateway } from '../helpers/source-gateway.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';
import { GQL_HOST, ICS, TWITCH_HOSTS, gqlRoute, twitchReplay } from './twitch-doubles.js';

const F = 'twitch';
const CLIP = 'UnusualEnchantingSproutGivePLZ-o5o0fw_2qOgZvAag';
const json = { 'content-type': 'application/json' };
const rec = (name: string) => readRecordingJson(`twitch/${name}`);

describe('twitch references and the iCalendar reader (no recordings needed)', () => {
  it('channels, categories, videos and clips by name or address; a bad one is a 400 naming its field', async () => {
    expect(loginOf('https://www.twitch.tv/XQC/videos')).toBe('xqc');
    expect(loginOf('@forsen')).toBe('forsen');
    expect(categorySlug('Just Chatting')).toBe('just-chatting');
    expect(categorySlug('Clair Obscur: Expedition 33')).toBe('clair-obscur-expedition-33');
    expect(categorySlug('https://www.twitch.tv/directory/category/just-chatting/clips')).toBe('just-chatting');
    expect(videoId('https://www.twitch.tv/videos/2404782496?t=1h')).toBe('2404782496');
    expect(videoId('v2404782496')).toBe('2404782496');
    expect(clipSlug(`https://clips.twitch.tv/${CLIP}`)).toBe(CLIP);
    expect(clipSlug(`https://clips.twitch.tv/embed?clip=${CLIP}&parent=x`)).toBe(CLIP);
    expect(clipSlug(`https://www.twitch.tv/xqc/clip/${CLIP}?filter=clips`)).toBe(CLIP);
    for (const [field, f] of [['channel', () => loginOf('https://www.twitch.tv/directory')], ['video', () => videoId('https://www.twitch.tv/xqc')], ['clip', () => clipSlug('https://example.com/clip/x')]] as const) {
      const e = await failure(f);
      expect([e.code, e.message.startsWith(`${field}: `)]).toEqual(['invalidRequest', true]);
    }
  });

  it('schedule.ics (Twitch’s documented example): zoned times to UTC; folded lines, escapes and a rule', () => {
    expect(scheduleOf(ICS)).toEqual([
      { type: 'segment', id: 'e4acc724-371f-402c-81ca-23ada79759d4', startsAt: '2021-07-01T18:00:00.000Z', endsAt: '2021-07-01T19:00:00.000Z', title: 'TwitchDev Monthly Update // July 1, 2021', category: 'Science & Technology' },
    ]);
    const weekly = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20250106T200000Z\r\nSUMMARY:Long title\\, folded\r\n  over two lines\r\nRRULE:FREQ=WEEKLY;BYDAY=MO\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:no-start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    expect(scheduleOf(weekly)).toEqual([{ type: 'segment', id: 'a', startsAt: '2025-01-06T20:00:00.000Z', title: 'Long title, folded over two lines', isRecurring: true, recurrence: 'FREQ=WEEKLY;BYDAY=MO' }]);
  });
});

describe.skipIf(!haveRecordings(F))(`twitch answers no endpoint asks, through the same readers${skipReason(F)}`, () => {
  it('UseLive.1-online.json: since when a channel is live', () => {
    expect(liveSince(rec('UseLive.1-online.json').data.user)).toBe('2025-03-11T04:02:38.000Z');
  });

  it('ChannelVideoShelvesQuery.1.json: shelves of clips (aliased fields) and of videos read as clips and videos', () => {
    const shelves = rec('ChannelVideoShelvesQuery.1.json').data.user.videoShelves.edges.map((e: any) => e.node);
    const clips = shelves.find((s: any) => s.type === 'TOP_CLIPS').items.map(clipOf);
    expect(clips[0]).toMatchObject({ id: 'CrypticBravePepperPipeHype-_VgdixVaKWCHZ5p8', title: 'Full time Streamer!', views: 1052, category: 'Just Chatting', isFeatured: true, author: { username: 'twitch' } });
    const videos = shelves.filter((s: any) => s.type !== 'TOP_CLIPS').flatMap((s: any) => s.items.map(videoOf));
    expect(videos).toHaveLength(31);
    expect(videos.every((v: any) => v.views >= 0 && v.publishedAt)).toBe(true);
  });

  it('ClipsDownloadButton.1.json: the playable MP4, signed with the answer’s playback token', () => {
    const url = signedClipUrl(rec('ClipsDownloadButton.1.json').data.clip)!;
    expect(url.startsWith('https://production.assets.clips.twitchcdn.net/AT-cm%7C961443378.mp4?sig=d3764c90c322484dc6a83f8afc6fccc030f06643&token=')).toBe(true);
    expect(JSON.parse(decodeURIComponent(new URL(url).searchParams.get('token')!)).clip_slug).toBe('DeliciousDelightfulPicklesWOOP');
  });

  it('GetPinnedChat.1-pinned-message.json and SearchTray_SearchSuggestions.1.json: the people they name', () => {
    const pinned = rec('GetPinnedChat.1-pinned-message.json').data.channel.pinnedChatMessages.edges[0].node;
    expect(personOf(pinned.pinnedMessage.sender)).toEqual({ id: '100135110', name: 'StreamElements' });
    const suggested = rec('SearchTray_SearchSuggestions.1.json').data.searchSuggestions.edges.map((e: any) => personOf(e.node.content)).filter(Boolean);
    expect(suggested[0]).toMatchObject({ id: '722490662', username: 'forsen_impostor', url: 'https://www.twitch.tv/forsen_impostor' });
  });
});

describe('twitch test mode (committed samples)', () => {
  it('every example answers from the samples; lists page through them', async () => {
    expect((await runSample('twitch.profile', { channel: 'x' })).data.profile.username).toBe('xqc');
    const first = await runSample('twitch.videos', { channel: 'x' });
    expect([first.data.videos.length, first.data.cursor]).toEqual([15, '15~']);
    expect((await runSample('twitch.videos', { channel: 'x', cursor: '15~' })).data.videos).toHaveLength(15);
    expect((await runSample('twitch.clips', { channel: 'x' })).data.clips).toHaveLength(10);
    expect((await runSample('twitch.schedule', { channel: 'x' })).data.segments).toHaveLength(1);
    expect((await runSample('twitch.categories', { limit: 5 })).data.categories).toHaveLength(5);
  });
});

describe.skipIf(!haveRecordings(F))(`twitch against the recordings${skipReason(F)}`, () => {
  let replay: Replay;
  let live: LiveContext;
  beforeAll(async () => {
    replay = await startReplay(
      twitchReplay([
        { ...gqlRoute('BrowsePage_AllDirectories', 'BrowsePage_AllDirectories.2-integrity-challenge.json', (v) => v.options?.sort === 'VIEWER_COUNT') },
        { method: 'POST', host: GQL_HOST, path: '/gql', body: { operationName: 'VideoMetadata' }, match: (s: any) => s.body.variables.videoID === '1', text: '{"data":{"user":null,"currentUser":null,"video":null}}', headers: json },
        { method: 'POST', host: GQL_HOST, path: '/gql', body: { operationName: 'ShareClipRenderStatus' }, match: (s: any) => s.body.variables.slug === 'Gone', text: '{"data":{"clip":null}}', headers: json },
      ]),
    );
    live = liveContext(F, replay, {}, TWITCH_HOSTS);
  });
  afterAll(async () => {
    await live.close();
    await replay.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
    replay.seen.length = 0;
  });

  it('ChannelShell.2-offline + ChannelRoot_AboutPanel.2-with-schedule + StreamMetadata.2-offline (the about panel is CohhCarnage’s)', async () => {
    const out = await runLive('twitch.profile', { channel: 'https://www.twitch.tv/xqc' }, live.ctx);
    expect(out.data.profile).toMatchObject({
      type: 'profile', id: '71092938', username: 'xqc', url: 'https://www.twitch.tv/xqc', name: 'xQc', isLive: false,
      followers: 1630903, isVerified: true, team: 'Loaded', nextStreamAt: '2025-03-16T15:00:00.000Z', lastStreamTitle: 'not live yet',
    });
    expect(out.data.profile.links).toHaveLength(5);
    const asked = replay.seen.map((s: any) => [s.body.operationName, s.headers['client-id'], s.body.extensions.persistedQuery.sha256Hash.slice(0, 8)]);
    expect(asked.sort()).toEqual([['ChannelRoot_AboutPanel', 'kimne78kx3ncx6brgo4mv6wki5h1ko', '0df42c4d'], ['ChannelShell', 'kimne78kx3ncx6brgo4mv6wki5h1ko', '580ab410'], ['StreamMetadata', 'kimne78kx3ncx6brgo4mv6wki5h1ko', 'b57f9b91']]);
  });

  it('ChannelShell.1-online + StreamMetadata.1-online: a live channel (recorded for different channels)', async () => {
    const out = await runLive('twitch.profile', { channel: 'nmplol' }, live.ctx);
    expect(out.data.profile).toMatchObject({ username: 'nmplol', isLive: true, live: { id: '317578415356', viewers: 9306, startedAt: '2025-05-29T13:59:47.000Z', category: 'Guilty as Sock!' } });
  });

  it('ChannelShell.3-not-found and ChannelShell.5-banned-dmca are notFound, with Twitch’s reason', async () => {
    expect((await failure(runLive('twitch.profile', { channel: 'this_user_doesnt_exist_' }, live.ctx))).message).toBe('channel: no Twitch channel this_user_doesnt_exist_');
    expect((await failure(runLive('twitch.schedule', { channel: 'gaechkatm' }, live.ctx))).message).toBe('channel: Twitch suspended gaechkatm (DMCA)');
  });

  it('FilterableVideoTower_Videos.1-type-archive and .3-type-upload: the variables sent, a cut page owed', async () => {
    const first = await runLive('twitch.videos', { channel: 'twitch', limit: 20 }, live.ctx);
    expect((replay.seen[0].body as any).variables).toEqual({ includePreviewBlur: false, limit: 20, channelOwnerLogin: 'twitch', broadcastType: 'ARCHIVE', videoSort: 'TIME' });
    expect([first.data.videos.length, first.data.cursor, first.data.videos[0].kind]).toEqual([20, '20~', 'archive']);
    const uploads = await runLive('twitch.videos', { channel: 'twitch', type: 'upload', sort: 'views', limit: 100 }, live.ctx);
    expect((replay.seen.at(-1)!.body as any).variables).toMatchObject({ broadcastType: 'UPLOAD', videoSort: 'VIEWS', limit: 100 });
    expect([uploads.data.videos.length, uploads.data.cursor]).toEqual([30, '140903003|422|2017-05-07T20:22:14Z|27']);
  });

  it('ClipsCards__User.1 and ClipsCards__Game.1: a window sent as Twitch’s filter; one of channel or category', async () => {
    const user = await runLive('twitch.clips', { channel: 'xqc', within: 'month' }, live.ctx);
    expect((replay.seen[0].body as any).variables).toEqual({ login: 'xqc', limit: 20, criteria: { filter: 'LAST_MONTH', shouldFilterByDiscoverySetting: true } });
    expect([user.data.clips.length, user.data.cursor]).toEqual([20, 'MjA=']);
    expect(user.data.clips[0]).toMatchObject({ type: 'clip', id: 'ArbitraryEasyBeefPanicBasket-5vC3SMa0PtN0HwKz', views: 36970, durationSeconds: 17, language: 'en', clippedBy: { username: 'puertoricanporo' } });
    const game = await runLive('twitch.clips', { category: 'Just Chatting', within: 'all', limit: 5 }, live.ctx);
    expect((replay.seen.at(-1)!.body as any).variables).toEqual({ categorySlug: 'just-chatting', limit: 5, criteria: { languages: [], filter: 'ALL_TIME', shouldFilterByDiscoverySetting: true } });
    expect(game.data.clips[0].author.username).toBe('strogo');
    for (const body of [{}, { channel: 'xqc', category: 'just-chatting' }]) {
      expect((await failure(runLive('twitch.clips', body, live.ctx))).message).toMatch(/^channel: /);
    }
  });

  it('ShareClipRenderStatus.1-with-portrait and VideoMetadata.1-archive; unknown ones are notFound', async () => {
    const clip = await runLive('twitch.clip', { clip: `https://clips.twitch.tv/${CLIP}` }, live.ctx);
    expect(clip.data.clip).toMatchObject({ id: CLIP, title: 'lol', views: 42402, category: 'ROBLOX', videoId: '2688404677', videoOffsetSeconds: 12062, author: { username: 'xqc' } });
    expect(clip.data.clip.video.url).toMatch(/video-1080\.mp4\?sig=da8884d7b1c8b1a493c291d2b55d28f1d3625932&token=/);
    const video = await runLive('twitch.video', { video: '2404782496' }, live.ctx);
    expect((replay.seen.at(-1)!.body as any).variables).toEqual({ channelLogin: '', videoID: '2404782496' });
    expect(video.data.video).toMatchObject({ id: '2404782496', views: 163669, durationSeconds: 4621, category: 'Just Chatting', author: { username: 'twitch' } });
    expect((await failure(runLive('twitch.video', { video: '1' }, live.ctx))).code).toBe('notFound');
    expect((await failure(runLive('twitch.clip', { clip: 'Gone' }, live.ctx))).code).toBe('notFound');
  });

  it('SearchResultsPage_SearchResults .4 channels, .6 categories, .7 videos', async () => {
    const channels = await runLive('twitch.search', { query: 'action' }, live.ctx);
    expect(channels.data.channels[0]).toMatchObject({ username: 'cohhcarnage', followers: 1632502, isLive: true, live: { viewers: 10199, category: 'Atomfall' } });
    const games = await runLive('twitch.search', { query: 'action', type: 'categories' }, live.ctx);
    expect(games.data.categories[0]).toMatchObject({ type: 'category', name: 'Monster Hunter Wilds', slug: 'monster-hunter-wilds', viewers: 16122, tags: ['RPG', 'Action', 'Adventure Game', 'Open World'] });
    const vods = await runLive('twitch.search', { query: 'action', type: 'videos' }, live.ctx);
    expect(vods.data.videos[0]).toMatchObject({ id: '2413146583', publishedAt: '2025-03-23T09:25:29.000Z', durationSeconds: 20140, views: 453, author: { username: 'duckedgtnh' } });
    expect(replay.served()).toEqual([4, 6, 7].map((n) => `twitch/SearchResultsPage_SearchResults.${n}-targets-${{ 4: 'channel', 6: 'game', 7: 'vod' }[n]}.json`));
  });

  it('DirectoryPage_Game.1-sort-relevance and BrowsePage_AllDirectories.1: a category’s streams, the top categories', async () => {
    const streams = await runLive('twitch.streams', { category: 'just-chatting', limit: 10 }, live.ctx);
    expect(streams.data.category).toMatchObject({ id: '509658', name: 'Just Chatting', slug: 'just-chatting' });
    expect(streams.data.streams[0]).toMatchObject({ type: 'stream', url: 'https://www.twitch.tv/ibai', viewers: 18072, author: { username: 'ibai' } });
    expect([streams.data.streams.length, streams.data.cursor]).toEqual([10, '10~']);
    const cats = await runLive('twitch.categories', { limit: 100 }, live.ctx);
    expect([cats.data.categories.length, cats.data.categories[0].name, cats.data.categories[0].viewers]).toEqual([100, 'Just Chatting', 169299]);
  });

  it('BrowsePage_AllDirectories.2-integrity-challenge: Twitch’s anti-bot check is sourceRefused', async () => {
    const e = await failure(runLive('twitch.categories', { sort: 'viewers' }, live.ctx));
    expect([e.code, e.message]).toEqual(['sourceRefused', 'twitch: Twitch asked BrowsePage_AllDirectories for an integrity check (its anti-bot challenge)']);
  });

  it('documented (not recorded) schedule: the channel’s id from ChannelShell, then Helix’s keyless iCalendar', async () => {
    const out = await runLive('twitch.schedule', { channel: 'xqc' }, live.ctx);
    expect(replay.seen.at(-1)!.path).toBe('/helix/schedule/icalendar');
    expect(replay.seen.at(-1)!.query.get('broadcaster_id')).toBe('71092938');
    expect(out.data.channel).toMatchObject({ id: '71092938', username: 'xqc' });
    expect(out.data.segments[0]).toMatchObject({ startsAt: '2021-07-01T18:00:00.000Z', category: 'Science & Technology' });
  });

  it('rotated hashes are settings; an unknown hash is sourceChanged naming it; a refused Client-Id is sourceUnavailable', async () => {
    const custom = liveContext(F, replay, { QUERY_HASHES: JSON.stringify({ VideoMetadata: 'a'.repeat(64) }), CLIENT_ID: 'operator-client-id' }, TWITCH_HOSTS);
    const r = await startReplay(
      twitchReplay([
        { method: 'POST', host: GQL_HOST, path: '/gql', body: { operationName: 'VideoMetadata' }, text: '{"errors":[{"message":"PersistedQueryNotFound"}]}', headers: json },
        { method: 'POST', host: GQL_HOST, path: '/gql', body: { operationName: 'ShareClipRenderStatus' }, status: 400, text: '{"error":"Bad Request","status":400,"message":"The \\"Client-ID\\" header is invalid."}', headers: json },
      ]),
    );
    const ctx = liveContext(F, r, { QUERY_HASHES: JSON.stringify({ VideoMetadata: 'a'.repeat(64) }) }, TWITCH_HOSTS);
    try {
      await runLive('twitch.clip', { clip: CLIP }, custom.ctx);
      expect(replay.seen.at(-1)!.headers['client-id']).toBe('operator-client-id');
      const stale = await failure(runLive('twitch.video', { video: '2404782496' }, ctx.ctx));
      expect([stale.code, stale.message]).toEqual(['sourceChanged', expect.stringContaining('QUARRY_TWITCH_QUERY_HASHES')]);
      expect((r.seen[0].body as any).extensions.persistedQuery.sha256Hash).toBe('a'.repeat(64));
      const refused = await failure(runLive('twitch.clip', { clip: CLIP }, ctx.ctx));
      expect([refused.code, refused.retryable, refused.message]).toEqual(['sourceUnavailable', false, expect.stringContaining('QUARRY_TWITCH_CLIENT_ID')]);
      const broken = liveContext(F, r, { QUERY_HASHES: '{"VideoMetadata":"short"}' }, TWITCH_HOSTS);
      expect((await failure(runLive('twitch.video', { video: '2' }, broken.ctx))).message).toMatch(/QUARRY_TWITCH_QUERY_HASHES is not/);
      await broken.close();
    } finally {
      await custom.close();
      await ctx.close();
      await r.close();
    }
  });

  it('drift: a video without its view count → sourceChanged; a later page than recorded is not answered', async () => {
    replay.mutate = (name, body) => (name.startsWith('twitch/FilterableVideoTower') ? body.replace(/"viewCount": \d+,/g, '') : body);
    expect((await failure(runLive('twitch.videos', { channel: 'twitch' }, live.ctx))).code).toBe('sourceChanged');
    replay.mutate = undefined;
    expect((await failure(runLive('twitch.videos', { channel: 'twitch', cursor: '2562321254|32695|2025-09-09T18:46:10Z|4541' }, live.ctx))).code).toBe('sourceUnavailable');
  });
});

describe.skipIf(!haveRecordings(F))(`twitch through the gateway${skipReason(F)}`, () => {
  const g = useSourceGateway(() => ({
    replay: twitchReplay([gqlRoute('ChannelShell', 'BrowsePage_AllDirectories.2-integrity-challenge.json', (v) => v.login === 'walled')]),
    hosts: TWITCH_HOSTS,
    env: { QUARRY_UPSTREAM_RETRIES: '0' },
  }));

  it('live: a profile for 1 credit, 45 videos for 2 (per 30), paging by the cursor', async () => {
    const before = await g.balance();
    const p = await g.post('/v1/twitch/profile', { channel: 'xqc' });
    expect([p.status, p.json.creditsUsed]).toEqual([200, 1]);
    const first = await g.post('/v1/twitch/videos', { channel: 'twitch', limit: 25 });
    expect([first.status, first.json.data.videos.length, first.json.creditsUsed, first.json.data.cursor]).toEqual([200, 25, 1, '25~']);
    const next = await g.post('/v1/twitch/videos', { channel: 'twitch', limit: 25, cursor: '25~' });
    expect([next.json.data.videos.length, next.json.creditsUsed]).toEqual([5, 1]);
    const clips = await g.post('/v1/twitch/clips', { channel: 'xqc', limit: 100 });
    expect([clips.json.data.clips.length, clips.json.creditsUsed]).toEqual([20, 1]);
    expect(await g.balance()).toBe(before - 4);
    expect((await g.post('/v1/twitch/profile', { channel: 'xqc' }, 'anonymous')).status).toBe(401);
  });

  it('test mode answers every example from the samples, never upstream, no credits spent', async () => {
    await g.expectTestMode(async () => {
      await g.expectExamples('twitch');
      const next = await g.post('/v1/twitch/streams', { category: 'x', cursor: '15~' }, 'test');
      expect(next.json.data.streams).toHaveLength(15);
    });
  });

  it('drift → 502 sourceChanged; an integrity challenge → 502 sourceRefused; unknown → 404; all unbilled', async () => {
    await g.expectDrift('/v1/twitch/video', { video: '2404782496', maxAge: 0 }, (name, body) => (name === 'twitch/VideoMetadata.1-archive.json' ? body.replace('"lengthSeconds": 4621,', '') : body));
    await g.expectRefused('/v1/twitch/profile', { channel: 'walled' });
    await g.expectFailure('/v1/twitch/profile', { channel: 'this_user_doesnt_exist_' }, { status: 404, code: 'notFound' });
  });
});
