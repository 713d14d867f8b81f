/**
 * The replay double for twitch. The recordings of ../shared/upstream/twitch are the mocks of
 * DmitryScaletta/twitch-gql-queries; their sidecars give each operation's example request, not the variables each mock
 * answered (four ChannelShell mocks share one request), so routes pick a recording by the operation and the variables
 * that tell them apart. The mocks describe different channels (xqc's shell, CohhCarnage's about panel, forsen's live
 * stream metadata): a profile built from them joins parts of several channels, which the tests and samples say.
 * The schedule's iCalendar is written from Twitch's reference (test/fixtures/documented/twitch/schedule.ics).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReplayOptions, ReplayRoute, Seen } from '../helpers/replay.js';

export const GQL_HOST = 'gql.twitch.tv';
export const HELIX_HOST = 'api.twitch.tv';
const json = { 'content-type': 'application/json' };

const vars = (s: Seen): Record<string, any> => ((s.body as { variables?: Record<string, any> })?.variables ?? {});

/** A recording answering one operation when `when` holds for its variables. */
export const gqlRoute = (operationName: string, file: string, when: (v: Record<string, any>) => boolean = () => true): ReplayRoute => ({
  method: 'POST',
  host: GQL_HOST,
  path: '/gql',
  body: { operationName },
  match: (s) => when(vars(s)),
  file: `twitch/${file}`,
  name: `twitch/${file}`,
});

/** Every recording is a first page: a request carrying a cursor is answered 404 (and listed as a miss). */
const laterPages: ReplayRoute = {
  method: 'POST',
  host: GQL_HOST,
  path: '/gql',
  match: (s) => vars(s).cursor != null,
  status: 404,
  text: '{"replay":"the page after a recorded one was not recorded"}',
  headers: json,
  name: 'unrecorded later page',
};

const ROUTES: ReplayRoute[] = [
  laterPages,
  gqlRoute('ChannelShell', 'ChannelShell.2-offline.json', (v) => v.login === 'xqc'),
  gqlRoute('ChannelShell', 'ChannelShell.1-online.json', (v) => v.login === 'nmplol'),
  gqlRoute('ChannelShell', 'ChannelShell.3-not-found.json', (v) => v.login === 'this_user_doesnt_exist_'),
  gqlRoute('ChannelShell', 'ChannelShell.5-banned-dmca.json', (v) => v.login === 'gaechkatm'),
  gqlRoute('ChannelRoot_AboutPanel', 'ChannelRoot_AboutPanel.2-with-schedule.json', (v) => v.skipSchedule === false && v.includeIsDJ === true),
  gqlRoute('StreamMetadata', 'StreamMetadata.1-online.json', (v) => v.channelLogin === 'nmplol'),
  gqlRoute('StreamMetadata', 'StreamMetadata.2-offline.json', (v) => v.channelLogin === 'xqc'),
  gqlRoute('FilterableVideoTower_Videos', 'FilterableVideoTower_Videos.1-type-archive.json', (v) => v.channelOwnerLogin === 'twitch' && v.broadcastType === 'ARCHIVE'),
  gqlRoute('FilterableVideoTower_Videos', 'FilterableVideoTower_Videos.3-type-upload.json', (v) => v.channelOwnerLogin === 'twitch' && v.broadcastType === 'UPLOAD'),
  gqlRoute('ClipsCards__User', 'ClipsCards__User.1.json', (v) => v.login === 'xqc'),
  gqlRoute('ClipsCards__Game', 'ClipsCards__Game.1.json', (v) => v.categorySlug === 'just-chatting'),
  gqlRoute('ShareClipRenderStatus', 'ShareClipRenderStatus.1-with-portrait.json', (v) => v.slug === 'UnusualEnchantingSproutGivePLZ-o5o0fw_2qOgZvAag'),
  gqlRoute('VideoMetadata', 'VideoMetadata.1-archive.json', (v) => v.videoID === '2404782496'),
  gqlRoute('SearchResultsPage_SearchResults', 'SearchResultsPage_SearchResults.4-targets-channel.json', (v) => v.options?.targets?.[0]?.index === 'CHANNEL'),
  gqlRoute('SearchResultsPage_SearchResults', 'SearchResultsPage_SearchResults.6-targets-game.json', (v) => v.options?.targets?.[0]?.index === 'GAME'),
  gqlRoute('SearchResultsPage_SearchResults', 'SearchResultsPage_SearchResults.7-targets-vod.json', (v) => v.options?.targets?.[0]?.index === 'VOD'),
  gqlRoute('DirectoryPage_Game', 'DirectoryPage_Game.1-sort-relevance.json', (v) => v.slug === 'just-chatting'),
  gqlRoute('BrowsePage_AllDirectories', 'BrowsePage_AllDirectories.1.json'),
];

export const ICS = readFileSync(fileURLToPath(new URL('../fixtures/documented/twitch/schedule.ics', import.meta.url)), 'utf8');

/** The documented iCalendar, answered for the recorded channel xqc (71092938). */
export const scheduleRoute: ReplayRoute = {
  host: HELIX_HOST,
  path: '/helix/schedule/icalendar',
  query: { broadcaster_id: '71092938' },
  text: ICS,
  headers: { 'content-type': 'text/calendar; charset=utf-8' },
  name: 'documented: twitch/schedule.ics',
};

export const TWITCH_HOSTS = [GQL_HOST, HELIX_HOST];

/** Test routes first: a test's own answer (a wall, a drifted shape) wins over the recordings. */
export const twitchReplay = (routes: ReplayRoute[] = []): ReplayOptions => ({
  folders: ['twitch'],
  routes: [...routes, ...ROUTES, scheduleRoute],
});
