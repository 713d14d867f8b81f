/** The replay double's options for ../shared/upstream/video, shared by the YouTube tests and the sample maker. */
import { readFileSync } from 'node:fs';
import type { ReplayOptions } from '../helpers/replay.js';

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
  ],
};

