/** The replay double's options for ../shared/upstream/video, shared by the YouTube tests and the sample maker. */
import { readFileSync } from 'node:fs';
import type { ReplayOptions, ReplayRoute } from '../helpers/replay.js';

/** A route answering with a documented (not recorded) answer. */
function documentedRoute(host: string, path: string, body: Record<string, unknown>, file: string): ReplayRoute {
  return { method: 'POST', host, path, body, text: documented(file), headers: { 'content-type': 'application/json; charset=UTF-8' } };
}

export const documented = (name: string): string => readFileSync(new URL(`../fixtures/documented/youtube/${name}`, import.meta.url), 'utf8');

/** Player recordings whose request carried no usable video id get one here; the caption track is documented. */
export const YOUTUBE_REPLAY: ReplayOptions = {
  folders: ['video'],
  // VISIONOS player: a random `t` and `cpn` per request (cache busters).
  ignoreQuery: ['t', 'id'],
  ignoreBody: ['cpn'],
  routes: [
    { method: 'POST', path: '/youtubei/v1/player', body: { videoId: 'GJLlxj_dtq8' }, file: 'video/transcript.player-android-captions.json' },
    { method: 'POST', path: '/youtubei/v1/player', body: { videoId: 'BotCheck000' }, file: 'video/player-android.bot-check-blocked.json' },
    { method: 'POST', path: '/youtubei/v1/player', body: { videoId: 'Unavailabl0' }, file: 'video/player-android.video-unavailable.json' },
    { method: 'GET', host: 'www.youtube.com', path: '/api/timedtext', text: documented('timedtext.xml'), headers: { 'content-type': 'text/xml; charset=UTF-8' } },
    // Answers no recording exists for, written from the documented interface (each file's `_note` says from what).
    documentedRoute('www.youtube.com', '/youtubei/v1/live_chat/get_live_chat', {}, 'live-chat.get_live_chat.json'),
    documentedRoute('music.youtube.com', '/youtubei/v1/next', { videoId: 'HhQGHxWZCd0' }, 'music-watch.next.json'),
    documentedRoute('music.youtube.com', '/youtubei/v1/browse', { browseId: 'MPLYt_example_lyrics_1' }, 'music-lyrics.browse.json'),
    documentedRoute('music.youtube.com', '/youtubei/v1/browse', { browseId: 'VLRDCLAK5uy_kmPRjHDECIcuVwnKsx2Ng7fyNgFKWNJFs' }, 'music-playlist.browse.json'),
    documentedRoute('www.youtubekids.com', '/youtubei/v1/search', {}, 'kids-search.json'),
    documentedRoute('www.youtubekids.com', '/youtubei/v1/player', {}, 'kids-player.json'),
  ],
};

