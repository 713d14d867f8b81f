/**
 * The replay double's setup for the telegram source. The HTML recordings of ../shared/upstream/messaging have no
 * sidecars, so routes say which request each answers: the full t.me/s page for its channel (whatever `before`
 * asks: the recording is one page), each message fragment for its post's widget (`?embed=1`). Pages no recording
 * holds are the documented ones of test/fixtures/documented/telegram/ (see its README.txt).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReplayOptions, ReplayRoute } from '../helpers/replay.js';

export const DOCUMENTED_TELEGRAM = fileURLToPath(new URL('../fixtures/documented/telegram/', import.meta.url));
export const documented = (name: string): string => readFileSync(`${DOCUMENTED_TELEGRAM}${name}`, 'utf8');

const HTML = { 'content-type': 'text/html; charset=utf-8' };

/** Each recorded message fragment and the post it is. */
export const FRAGMENTS = {
  'oper_goblin/22358': 'messaging/message-forwarded.fragment.html',
  'oper_goblin/22360': 'messaging/message-link-preview.fragment.html',
  'anna_news/46908': 'messaging/message-photo-and-video.fragment.html',
  'it_begin/488': 'messaging/message-poll.fragment.html',
  'oper_goblin/939': 'messaging/message-voice.fragment.html',
} as const;

export function telegramReplay(extra: ReplayRoute[] = []): ReplayOptions {
  return {
    folders: [],
    routes: [
      ...extra,
      { host: 't.me', path: '/s/topwar_official', file: 'messaging/channel-preview-full.html', headers: HTML },
      // The fragments are cut from t.me/s pages; a widget page holds the same message markup.
      ...Object.entries(FRAGMENTS).map(([post, file]) => ({ host: 't.me', path: `/${post}`, query: { embed: '1' }, file, headers: HTML })),
      { host: 't.me', path: '/durov/99999', query: { embed: '1' }, text: documented('embed-not-found.html'), headers: HTML, name: 'test/fixtures/documented/telegram/embed-not-found.html' },
      // A channel without a web preview, and a person: /s/ redirects to the plain page.
      { host: 't.me', path: '/s/example_quiet', status: 302, headers: { location: 'https://t.me/example_quiet' }, name: 'redirect to the channel page' },
      { host: 't.me', path: '/example_quiet', text: documented('channel-page-no-preview.html'), headers: HTML, name: 'test/fixtures/documented/telegram/channel-page-no-preview.html' },
      { host: 't.me', path: '/s/example_person', status: 302, headers: { location: 'https://t.me/example_person' }, name: 'redirect to the user page' },
      { host: 't.me', path: '/example_person', text: documented('user-page.html'), headers: HTML, name: 'test/fixtures/documented/telegram/user-page.html' },
    ],
  };
}
