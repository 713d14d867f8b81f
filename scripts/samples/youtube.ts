/**
 * YouTube's test-mode samples: each endpoint's live operation run against the recorded InnerTube answers of
 * shared/upstream/video (the replay double), two pages where a second page is recorded. Caption text has no recording:
 * the transcript sample's segments come from the documented timedtext fixture of the tests, and say so.
 */
import { YOUTUBE_REPLAY } from '../../test/sources/youtube-replay.js';
import { PREVIOUS_CURSOR, recordSamples, type SampleCase } from './kit.js';

const ORIGIN =
  'Normalised by src/sources/youtube from real recorded InnerTube answers (shared/upstream/video: NewPipeExtractor mocks, GPL-3.0; ' +
  'youtube-transcript-api and ytmusicapi fixtures, MIT) through the live code path (scripts/samples/youtube.ts). ' +
  'Content belongs to YouTube and its creators; test data only.';

const CASES: SampleCase[] = [
  {
    endpoint: 'youtube.search',
    replay: YOUTUBE_REPLAY,
    pages: [{ query: 'test' }, { query: 'test', cursor: PREVIOUS_CURSOR }],
    note: `${ORIGIN} The recorded search is for "test" (videos filter); any query answers these pages.`,
  },
  { endpoint: 'youtube.video', replay: YOUTUBE_REPLAY, pages: [{ video: 'M4gD1WSo5mA' }], note: `${ORIGIN} One recorded watch page (a CC-licensed lecture); any video answers it.` },
  {
    endpoint: 'youtube.transcript',
    replay: YOUTUBE_REPLAY,
    pages: [{ video: 'GJLlxj_dtq8', includeTimestamps: true }],
    note:
      `${ORIGIN} The caption list (languages) is a recorded ANDROID player answer; the caption text is NOT a recording: no timedtext ` +
      'body exists in shared/upstream, so it comes from test/fixtures/documented/youtube/timedtext.xml, written from youtube-transcript-api\'s parser.',
  },
  {
    endpoint: 'youtube.comments',
    replay: YOUTUBE_REPLAY,
    pages: [{ video: 'xaQJbozY_Is' }],
    note: `${ORIGIN} One recorded page of top comments (a Kurzgesagt video); its second page is not recorded, so test mode ends after it.`,
  },
  {
    endpoint: 'youtube.comments.replies',
    replay: YOUTUBE_REPLAY,
    pages: [{ video: 'xaQJbozY_Is', cursor: 'Eg0SC3hhUUpib3pZX0lzGAYygwEaUBIaVWd3U09NMFFIQkx5c0UzdlpFNTRBYUFCQWciAggAKhhVQ3NYVmszN2JsdEh4RDFyRFB3dE5NOFEyC3hhUUpib3pZX0lzQAFICoIBAggBQi9jb21tZW50LXJlcGxpZXMtaXRlbS1VZ3dTT00wUUhCTHlzRTN2WkU1NEFhQUJBZw%3D%3D' }],
    note: `${ORIGIN} The recorded replies of the pinned comment of the comments sample (its repliesCursor).`,
  },
  {
    endpoint: 'youtube.channel',
    replay: YOUTUBE_REPLAY,
    pages: [
      { channel: 'https://www.youtube.com/user/creativecommons', tab: 'videos', limit: 30 },
      { channel: 'https://www.youtube.com/user/creativecommons', tab: 'videos', limit: 30, cursor: PREVIOUS_CURSOR },
    ],
    note: `${ORIGIN} Two recorded pages of the Creative Commons channel's videos tab; any channel and tab answer them.`,
  },
  {
    endpoint: 'youtube.playlist',
    replay: YOUTUBE_REPLAY,
    pages: [{ playlist: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr' }, { playlist: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', cursor: PREVIOUS_CURSOR }],
    note: `${ORIGIN} The recorded 150-entry playlist in its two recorded pages (100, then 50); any playlist answers them.`,
  },
];

export async function youtubeSamples(only?: string[]): Promise<void> {
  for (const c of CASES) {
    if (only && !only.includes(c.endpoint)) continue;
    console.log(`wrote ${await recordSamples(c)}`);
  }
}
