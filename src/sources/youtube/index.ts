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
import * as more from './extras.js';
import * as run from './operations.js';
import kidsSearchSamples from './samples/kids.search.json' with { type: 'json' };
import kidsVideoSamples from './samples/kids.video.json' with { type: 'json' };
import livechatSamples from './samples/livechat.json' with { type: 'json' };
import musicAlbumSamples from './samples/music.album.json' with { type: 'json' };
import musicArtistSamples from './samples/music.artist.json' with { type: 'json' };
import musicLyricsSamples from './samples/music.lyrics.json' with { type: 'json' };
import musicPlaylistSamples from './samples/music.playlist.json' with { type: 'json' };
import musicSearchSamples from './samples/music.search.json' with { type: 'json' };
import musicSongSamples from './samples/music.song.json' with { type: 'json' };
import musicSuggestionsSamples from './samples/music.suggestions.json' with { type: 'json' };
import suggestSamples from './samples/suggest.json' with { type: 'json' };
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
    operation(YOUTUBE.suggest, { run: more.suggest, samples: suggestSamples }),
    operation(YOUTUBE.livechat, { run: more.livechat, samples: livechatSamples }),
    operation(YOUTUBE.musicSearch, { run: more.musicSearch, samples: musicSearchSamples }),
    operation(YOUTUBE.musicSuggestions, { run: more.musicSuggestionsOp, samples: musicSuggestionsSamples }),
    operation(YOUTUBE.musicSong, { run: more.musicSong, samples: musicSongSamples }),
    operation(YOUTUBE.musicLyrics, { run: more.musicLyrics, samples: musicLyricsSamples }),
    operation(YOUTUBE.musicAlbum, { run: more.musicAlbum, samples: musicAlbumSamples }),
    operation(YOUTUBE.musicArtist, { run: more.musicArtist, samples: musicArtistSamples }),
    operation(YOUTUBE.musicPlaylist, { run: more.musicPlaylist, samples: musicPlaylistSamples }),
    operation(YOUTUBE.kidsSearch, { run: more.kidsSearchOp, samples: kidsSearchSamples }),
    operation(YOUTUBE.kidsVideo, { run: more.kidsVideoOp, samples: kidsVideoSamples }),
  ],
};

export default youtube;
