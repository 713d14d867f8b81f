/**
 * The replay double for kick: no Kick answer is recorded in shared/upstream, so every answer is written from the
 * documented interface (test/fixtures/documented/kick/, each .about.json says from what) and served by route.
 */
import { documented } from '../../scripts/samples/documented.js';
import type { ReplayOptions, ReplayRoute } from '../helpers/replay.js';

export const KICK_HOST = 'kick.com';
export const NEXT = 'eyJpZCI6ImNsaXBfMDFFWEFNUExFMDAwMDAwMDAwMDAzIn0=';
const json = { 'content-type': 'application/json' };

const doc = (name: string, route: Omit<ReplayRoute, 'text'>): ReplayRoute => ({
  host: KICK_HOST,
  text: documented('kick', name),
  headers: json,
  name: `documented: kick/${name}`,
  ...route,
});

const ROUTES: ReplayRoute[] = [
  doc('channel.json', { path: '/api/v2/channels/examplestreamer' }),
  doc('channel.live.json', { path: '/api/v2/channels/examplelive' }),
  doc('clips.page2.json', { path: '/api/v2/channels/examplestreamer/clips', query: { cursor: NEXT } }),
  doc('clips.page1.json', { path: '/api/v2/channels/examplestreamer/clips', match: (s) => !s.query.has('cursor') }),
  doc('not-found.json', { path: /^\/api\/v2\/channels\/[^/]+(\/clips)?$/, status: 404 }),
];

/** Test routes first: a wall or a drifted answer a test sets up wins over the documented ones. */
export const kickReplay = (routes: ReplayRoute[] = []): ReplayOptions => ({ folders: [], routes: [...routes, ...ROUTES] });
