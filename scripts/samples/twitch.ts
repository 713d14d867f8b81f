/**
 * twitch samples: the live operations against the replay double (test/sources/twitch-doubles.ts): the recorded web
 * GraphQL answers (DmitryScaletta/twitch-gql-queries mocks, MIT, 2025-2026) and, for the schedule, Twitch's documented
 * iCalendar example.
 */
import { TWITCH_HOSTS, twitchReplay } from '../../test/sources/twitch-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const ORIGIN = 'DmitryScaletta/twitch-gql-queries mocks (MIT, 2025-2026)';
const TEST_DATA = 'Content belongs to Twitch and its users; test data only.';
const CLIP = 'https://www.twitch.tv/xqc/clip/UnusualEnchantingSproutGivePLZ-o5o0fw_2qOgZvAag';

const CASES: Omit<SampleCase, 'replay'>[] = [
  {
    endpoint: 'twitch.profile',
    pages: [{ channel: 'xqc' }],
    note:
      `Three recorded answers (${ORIGIN}): xqc's ChannelShell and StreamMetadata (offline), and an about panel recorded for ` +
      'CohhCarnage (bio, followers, links, team, next stream): the parts do not describe one channel. ' + TEST_DATA,
  },
  {
    endpoint: 'twitch.videos',
    pages: [
      { channel: 'twitch', type: 'archive', limit: 15 },
      { channel: 'twitch', type: 'archive', limit: 15, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded page of 30 past broadcasts of the twitch channel (${ORIGIN}), as two pages of 15. ${TEST_DATA}`,
  },
  {
    endpoint: 'twitch.clips',
    pages: [
      { channel: 'xqc', within: 'week', limit: 10 },
      { channel: 'xqc', within: 'week', limit: 10, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded page of 20 clips of xqc's last week (${ORIGIN}), as two pages of 10. ${TEST_DATA}`,
  },
  {
    endpoint: 'twitch.schedule',
    pages: [{ channel: 'xqc' }],
    note:
      `xqc's recorded ChannelShell (${ORIGIN}) and, for the schedule, the example calendar of Twitch's API reference ` +
      '(Get Channel iCalendar; test/fixtures/documented/twitch/schedule.ics), which is TwitchDev\'s: written from the ' +
      'documentation, not a recording, and not xqc\'s. ' + TEST_DATA,
  },
  { endpoint: 'twitch.video', pages: [{ video: 'https://www.twitch.tv/videos/2404782496' }], note: `A recorded VideoMetadata answer (${ORIGIN}). ${TEST_DATA}` },
  { endpoint: 'twitch.clip', pages: [{ clip: CLIP }], note: `A recorded ShareClipRenderStatus answer; its MP4 address is signed with a token that has long expired (${ORIGIN}). ${TEST_DATA}` },
  { endpoint: 'twitch.search', pages: [{ query: 'action', type: 'channels' }], note: `A recorded search for "action" among channels (${ORIGIN}). ${TEST_DATA}` },
  {
    endpoint: 'twitch.streams',
    pages: [
      { category: 'just-chatting', sort: 'relevance', limit: 15 },
      { category: 'just-chatting', sort: 'relevance', limit: 15, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded page of 30 live Just Chatting streams (${ORIGIN}), as two pages of 15. ${TEST_DATA}`,
  },
  {
    endpoint: 'twitch.categories',
    pages: [
      { sort: 'relevance', limit: 50 },
      { sort: 'relevance', limit: 50, cursor: PREVIOUS_CURSOR },
    ],
    note: `One recorded page of 100 categories (${ORIGIN}), as two pages of 50. ${TEST_DATA}`,
  },
];

export async function twitchSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples({ ...c, replay: twitchReplay(), extraHosts: TWITCH_HOSTS })}`);
}
