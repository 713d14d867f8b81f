/**
 * snapchat samples: there is no recording of a Snapchat page, so the profile pages are written from the shape Snapchat
 * server-renders (test/fixtures/documented/snapchat/, after 2scraper/snapchat-scraper's captures) and the samples say so.
 */
import type { ReplayOptions, ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { recordSamples } from './kit.js';

const W = 'www.snapchat.com';
const html = { 'content-type': 'text/html; charset=utf-8' };

export const ROUTES: ReplayRoute[] = [
  { host: W, path: '/@spotlightcreator', text: documented('snapchat', 'profile-page.spotlightcreator.html'), headers: html },
  { host: W, path: '/@someone', text: documented('snapchat', 'profile-page.someone.html'), headers: html },
  { host: W, path: '/@nobody-here', status: 404, text: documented('snapchat', 'profile-page.not-found.html'), headers: html },
];

export const SNAPCHAT_REPLAY: ReplayOptions = { folders: [], routes: ROUTES };

const DOCUMENTED =
  "Written from the page shape Snapchat server-renders (test/fixtures/documented/snapchat/, after the captures of 2scraper/snapchat-scraper, MIT), not a recording: no licensed recording of a Snapchat page exists; the account and values are illustrative.";

export async function snapchatSamples(): Promise<void> {
  for (const c of [
    { endpoint: 'snapchat.profile', pages: [{ profile: 'spotlightcreator' }] },
    { endpoint: 'snapchat.spotlight', pages: [{ profile: 'spotlightcreator', limit: 25 }] },
  ]) {
    console.log(`wrote ${await recordSamples({ ...c, note: DOCUMENTED, replay: SNAPCHAT_REPLAY, extraHosts: [W] })}`);
  }
}
