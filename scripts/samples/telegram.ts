/**
 * telegram.channel, telegram.posts and telegram.post samples: the live operations against the replay double serving
 * the t.me HTML of ../shared/upstream/messaging (routes in test/sources/telegram-doubles.ts).
 */
import { telegramReplay } from '../../test/sources/telegram-doubles.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const ORIGIN = 'Apkawa/rust-any2feed test fixtures (MIT, 2023)';
const TEST_DATA = 'Content belongs to Telegram channels; test data only.';

const CASES: SampleCase[] = [
  {
    endpoint: 'telegram.channel',
    replay: telegramReplay(),
    pages: [{ channel: 'topwar_official' }],
    note: `The channel header of a recorded t.me/s page (${ORIGIN}). ${TEST_DATA}`,
  },
  {
    endpoint: 'telegram.posts',
    replay: telegramReplay(),
    pages: [
      { channel: 'topwar_official', limit: 6 },
      { channel: 'topwar_official', limit: 6, cursor: PREVIOUS_CURSOR },
    ],
    note:
      `One recorded t.me/s page of 12 posts (${ORIGIN}), served as two pages of 6: the second asks for the posts ` +
      'before the first page\'s oldest, which the same recording holds. Older pages were not recorded. ' + TEST_DATA,
  },
  {
    endpoint: 'telegram.post',
    replay: telegramReplay(),
    pages: [{ post: 'https://t.me/anna_news/46908' }],
    note:
      `A recorded message (an album of a video and two photos, ${ORIGIN}), cut from a t.me/s page and served as the ` +
      'widget page of its post (no widget page was recorded; it holds the same message markup). ' + TEST_DATA,
  },
];

export async function telegramSamples(): Promise<void> {
  for (const c of CASES) console.log(`wrote ${await recordSamples(c)}`);
}
