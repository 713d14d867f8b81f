/**
 * The YouTube source: the seven SPEC endpoints, plus the operations the legacy paths need (suggestions, live chat,
 * YouTube Music, YouTube Kids), all on our own InnerTube client (./client.ts). See README "Decisions" for why not
 * youtubei.js.
 */
import { YOUTUBE } from '../../catalogue/endpoints/youtube.js';
import type { OutputOf } from '../../catalogue/types.js';
import { operation } from '../kit/operation.js';
import { answerFromSamples, type SampleSet } from '../kit/samples.js';
import type { SourceModule } from '../types.js';
import { DEFAULTS } from './client.js';
import * as run from './operations.js';
import channelSamples from './samples/channel.json' with { type: 'json' };
import commentsSamples from './samples/comments.json' with { type: 'json' };
import repliesSamples from './samples/comments.replies.json' with { type: 'json' };
import playlistSamples from './samples/playlist.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import transcriptSamples from './samples/transcript.json' with { type: 'json' };
import videoSamples from './samples/video.json' with { type: 'json' };

const youtube: SourceModule = {
  id: 'youtube',
  needs: {
    settings: [
      { name: 'WEB_CLIENT_VERSION', required: false, purpose: `InnerTube WEB client version (default ${DEFAULTS.WEB_CLIENT_VERSION}); YouTube rotates it` },
      { name: 'ANDROID_CLIENT_VERSION', required: false, purpose: `InnerTube ANDROID client version for caption tracks (default ${DEFAULTS.ANDROID_CLIENT_VERSION})` },
      { name: 'MUSIC_CLIENT_VERSION', required: false, purpose: `YouTube Music WEB_REMIX client version (default ${DEFAULTS.MUSIC_CLIENT_VERSION})` },
      { name: 'KIDS_CLIENT_VERSION', required: false, purpose: `YouTube Kids WEB_KIDS client version (default ${DEFAULTS.KIDS_CLIENT_VERSION})` },
      { name: 'USER_AGENT', required: false, purpose: 'browser user agent of the web requests' },
    ],
    proxy: 'advised',
  },
  operations: [
    operation(YOUTUBE.search, { run: run.search, samples: searchSamples }),
    operation(YOUTUBE.video, { run: run.video, samples: videoSamples }),
    operation(YOUTUBE.transcript, { run: run.transcript, samples: transcriptSamples }),
    operation(YOUTUBE.comments, { run: run.comments, samples: commentsSamples }),
    operation(YOUTUBE.commentsReplies, {
      run: run.replies,
      // Every call names a comment's replies cursor: test mode answers the recorded first page for any cursor but
      // the ones its later pages answer.
      sample: (input) => {
        const set = repliesSamples as SampleSet<OutputOf<typeof YOUTUBE.commentsReplies>>;
        const later = set.pages.some((p) => p.request?.cursor === input.cursor);
        return answerFromSamples(YOUTUBE.commentsReplies, set, later ? input : { ...input, cursor: undefined });
      },
    }),
    operation(YOUTUBE.channel, { run: run.channel, samples: channelSamples }),
    operation(YOUTUBE.playlist, { run: run.playlist, samples: playlistSamples }),
  ],
  notBuilt: {
    'youtube.suggest': 'youtube.suggest is being built.',
    'youtube.livechat': 'youtube.livechat is being built.',
    'youtube.music.search': 'youtube.music.search is being built.',
    'youtube.music.suggestions': 'youtube.music.suggestions is being built.',
    'youtube.music.song': 'youtube.music.song is being built.',
    'youtube.music.lyrics': 'youtube.music.lyrics is being built.',
    'youtube.music.album': 'youtube.music.album is being built.',
    'youtube.music.artist': 'youtube.music.artist is being built.',
    'youtube.music.playlist': 'youtube.music.playlist is being built.',
    'youtube.kids.search': 'youtube.kids.search is being built.',
    'youtube.kids.video': 'youtube.kids.video is being built.',
  },
};

export default youtube;
