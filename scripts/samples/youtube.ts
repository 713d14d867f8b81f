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
  {
    endpoint: 'youtube.suggest',
    replay: YOUTUBE_REPLAY,
    pages: [{ query: 'hello', country: 'de' }],
    note: `${ORIGIN} The recorded suggestions for "hello" in Germany; any query answers them.`,
  },
  {
    endpoint: 'youtube.music.search',
    replay: YOUTUBE_REPLAY,
    pages: [{ query: 'mocromaniac' }, { query: 'mocromaniac', cursor: PREVIOUS_CURSOR }],
    note: `${ORIGIN} Two recorded pages of a YouTube Music songs search for "mocromaniac"; any query and type answer them.`,
  },
  {
    endpoint: 'youtube.music.suggestions',
    replay: YOUTUBE_REPLAY,
    pages: [{ query: '' }],
    note: `${ORIGIN} The one recorded suggestions answer was asked with an empty input, and holds none.`,
  },
  { endpoint: 'youtube.music.album', replay: YOUTUBE_REPLAY, pages: [{ album: 'MPREb_Tr9YVfRfip1' }], note: `${ORIGIN} One recorded album page (ytmusicapi, 2026-05); any album answers it.` },
  { endpoint: 'youtube.music.artist', replay: YOUTUBE_REPLAY, pages: [{ artist: 'UCJwGWV914kBlV4dKRn7AEFA' }], note: `${ORIGIN} One recorded artist page (ytmusicapi, 2026-05); any artist answers it.` },
  ...documentedCases(),
];

/** Endpoints no recording exists for: their samples come from the documented fixtures of the tests, and say so. */
function documentedCases(): SampleCase[] {
  const DOCUMENTED =
    'NOT a recording: no answer of this kind exists in shared/upstream, so this sample comes from test/fixtures/documented/youtube/, ' +
    'written from the documented interface (each fixture\'s _note names the public source of its field names; values are made up).';
  return [
    { endpoint: 'youtube.livechat', replay: YOUTUBE_REPLAY, pages: [{ video: 'X4VbdwhkE10' }], note: `The chat continuation comes from a recorded watch page (video-live.next.json); the chat batch is ${DOCUMENTED}` },
    { endpoint: 'youtube.music.song', replay: YOUTUBE_REPLAY, pages: [{ song: 'HhQGHxWZCd0' }], note: `The YouTube Music watch answer is ${DOCUMENTED}` },
    { endpoint: 'youtube.music.lyrics', replay: YOUTUBE_REPLAY, pages: [{ song: 'HhQGHxWZCd0' }], note: `The YouTube Music watch and lyrics answers are ${DOCUMENTED}` },
    { endpoint: 'youtube.music.playlist', replay: YOUTUBE_REPLAY, pages: [{ playlist: 'RDCLAK5uy_kmPRjHDECIcuVwnKsx2Ng7fyNgFKWNJFs', limit: 1 }], note: `The YouTube Music playlist answer is ${DOCUMENTED}` },
    { endpoint: 'youtube.kids.search', replay: YOUTUBE_REPLAY, pages: [{ query: 'dinosaurs' }], note: `The YouTube Kids search answer is ${DOCUMENTED}` },
    { endpoint: 'youtube.kids.video', replay: YOUTUBE_REPLAY, pages: [{ video: 'kidsVideo01' }], note: `The YouTube Kids player answer is ${DOCUMENTED}` },
  ];
}

export async function youtubeSamples(only?: string[]): Promise<void> {
  for (const c of CASES) {
    if (only && !only.includes(c.endpoint)) continue;
    console.log(`wrote ${await recordSamples(c)}`);
  }
}
