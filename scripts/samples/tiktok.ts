/**
 * tiktok samples: the recordings of ../shared/upstream/tiktok through the live operations, and, where TikTok's signed
 * APIs have no recording, answers written from their public shape (test/fixtures/documented/tiktok/). A signer double
 * (`signer.test`) stands for the operator's signing service: it answers the parameters the recording's placeholders
 * name, so the recorded For You request is matched as recorded.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute } from '../../test/helpers/replay.js';
import { documented } from './documented.js';
import { PREVIOUS_CURSOR, recordSamples } from './kit.js';

const W = 'www.tiktok.com';
const json = { 'content-type': 'application/json' };
const doc = (name: string) => documented('tiktok', name);

export const SIGNER = { SIGNER_URL: 'https://signer.test/sign' };
/** The signer double's answer: the recording's own placeholders, and the ad library's token header. */
export const SIGNED = {
  query: { device_id: '<device_id>', msToken: '<msToken>', 'X-Bogus': '<signature>', _signature: '<signature>' },
  headers: { 'x-ccl-str': 'signer-double-token' },
};

export const SIGNER_ROUTE: ReplayRoute = { method: 'POST', host: 'signer.test', path: '/sign', text: JSON.stringify(SIGNED), headers: json };

/** A documented answer served as a file, so `mutate` (drift) and sample provenance see it. */
const docFile = (name: string): string => path.relative(UPSTREAM_DIR, fileURLToPath(new URL(`../../test/fixtures/documented/tiktok/${name}`, import.meta.url)));

/** The Commercial Content API double's client, and the ads its documented answers stand for. */
export const RESEARCH = { CLIENT_KEY: 'replay-client', CLIENT_SECRET: 'replay-secret' };
export const AD_DETAIL_ID = '1923845247192304';
export const AD_TOKEN_REFUSED = '1000000000000401';
export const AD_THROTTLED = '1000000000000429';
export const AD_UNKNOWN = '1000000000000404';
const API = 'open.tiktokapis.com';
const adId = (id: string) => ({ ad_id: Number(id) });

/** TikTok's Commercial Content API: a client access token, then one ad's details (written from its documentation). */
export const RESEARCH_ROUTES: ReplayRoute[] = [
  { method: 'POST', host: API, path: '/v2/oauth/token/', match: (s) => String(s.body).includes('client_key=replay-client'), file: docFile('oauth-token.json'), headers: json },
  { method: 'POST', host: API, path: '/v2/oauth/token/', status: 400, file: docFile('oauth-token.refused.json'), headers: json },
  { method: 'POST', host: API, path: '/v2/research/adlib/ad/detail/', body: adId(AD_DETAIL_ID), file: docFile('ad-detail.json'), headers: json },
  { method: 'POST', host: API, path: '/v2/research/adlib/ad/detail/', body: adId(AD_TOKEN_REFUSED), status: 401, file: docFile('ad-detail.token-invalid.json'), headers: json },
  { method: 'POST', host: API, path: '/v2/research/adlib/ad/detail/', body: adId(AD_THROTTLED), status: 429, file: docFile('ad-detail.rate-limited.json'), headers: json },
  { method: 'POST', host: API, path: '/v2/research/adlib/ad/detail/', body: adId(AD_UNKNOWN), status: 400, file: docFile('ad-detail.not-found.json'), headers: json },
];

export const ROUTES: ReplayRoute[] = [
  ...RESEARCH_ROUTES,
  SIGNER_ROUTE,
  // No account's post list was recorded: the recorded For You answer (same item shape, per its sidecar) stands in.
  { host: W, path: '/api/post/item_list/', file: 'tiktok/recommend-item_list.foryou.json' },
  // Written from the public shape, not recordings.
  { host: W, path: '/api/comment/list/', query: { cursor: '0' }, text: doc('comments.page1.json'), headers: json },
  { host: W, path: '/api/comment/list/', query: { cursor: '20' }, text: doc('comments.page2.json'), headers: json },
  { host: W, path: '/api/search/item/full/', query: { cursor: '0' }, text: doc('search.page1.json'), headers: json },
  { host: W, path: '/api/search/item/full/', query: { cursor: '20' }, text: doc('search.page2.json'), headers: json },
  { method: 'POST', host: 'library.tiktok.com', path: '/api/v1/search', body: { search_id: '' }, text: doc('ads.page1.json'), headers: json },
  { method: 'POST', host: 'library.tiktok.com', path: '/api/v1/search', body: { search_id: JSON.parse(doc('ads.page1.json')).search_id }, text: doc('ads.page2.json'), headers: json },
];

/** The web app's browser-description parameters the recording carries; they describe the recorder, not the request. */
export const IGNORED_QUERY = [
  'browser_name', 'browser_online', 'browser_platform', 'browser_version', 'cookie_enabled', 'focus_state', 'history_len',
  'is_fullscreen', 'is_page_visible', 'os', 'priority_region', 'referer', 'root_referer', 'screen_height', 'screen_width',
  'tz_name', 'webcast_language',
];

export const TIKTOK_REPLAY: ReplayOptions = { folders: ['tiktok'], routes: ROUTES, ignoreQuery: IGNORED_QUERY };
export const EXTRA_HOSTS = ['signer.test', 'library.tiktok.com', API];

const CONTENT = 'Content belongs to TikTok and its users; test data only.';
const DOCUMENTED = 'Written from the public shape of the answer (test/fixtures/documented/tiktok/), not a recording: no licensed recording of it exists; values are illustrative.';

export async function tiktokSamples(): Promise<void> {
  const cases = [
    { endpoint: 'tiktok.profile', pages: [{ profile: '@illojuan' }], note: `The recorded profile page of @illojuan (metascraper, MIT, 2025-12). ${CONTENT}` },
    { endpoint: 'tiktok.video', pages: [{ video: 'https://www.tiktok.com/@illojuan/video/7571863205253778710' }], note: `The recorded video page (metascraper, MIT, 2025-12). ${CONTENT}` },
    {
      endpoint: 'tiktok.posts',
      pages: [{ profile: '@illojuan', limit: 30 }],
      settings: SIGNER,
      note:
        "The recorded profile page for the account's secUid, then a signed post list for which the recorded anonymous For You " +
        `answer (ericlingit/tiktok-trending, GPL-3.0, 2022-11) stands in: same item shape, but its videos are not @illojuan's and it carries no cursor. ${CONTENT}`,
    },
    { endpoint: 'tiktok.trending', pages: [{ country: 'tw', limit: 30 }], settings: SIGNER, note: `The recorded anonymous For You answer for region TW (ericlingit/tiktok-trending, GPL-3.0, 2022-11), signed by the signer double. ${CONTENT}` },
    { endpoint: 'tiktok.comments', pages: [{ video: '7571863205253778710', limit: 20 }, { video: '7571863205253778710', limit: 20, cursor: PREVIOUS_CURSOR }], settings: SIGNER, note: DOCUMENTED },
    { endpoint: 'tiktok.search', pages: [{ query: 'cooking', limit: 20 }, { query: 'cooking', limit: 20, cursor: PREVIOUS_CURSOR }], settings: SIGNER, note: DOCUMENTED },
    { endpoint: 'tiktok.ads.search', pages: [{ query: 'nike', country: 'de', limit: 12 }, { query: 'nike', country: 'de', limit: 12, cursor: PREVIOUS_CURSOR }], settings: SIGNER, note: `${DOCUMENTED} Structure after the captures of 2scraper/tiktok-ads-scraper (MIT).` },
    {
      endpoint: 'tiktok.ads.ad',
      pages: [{ ad: `https://library.tiktok.com/ads/detail/?ad_id=${AD_DETAIL_ID}&region=DE` }],
      settings: RESEARCH,
      note:
        "NOT from a recording: no answer of TikTok's Commercial Content API is recorded. Built by the live tiktok.ads.ad from answers " +
        "written from TikTok's documentation (test/fixtures/documented/tiktok/oauth-token.json and ad-detail.json: 'Client Access Token " +
        "Management' and 'Get Ad Details', developers.tiktok.com); the ad id is the documentation's example, the other values illustrative.",
    },
  ];
  for (const c of cases) console.log(`wrote ${await recordSamples({ ...c, replay: TIKTOK_REPLAY, extraHosts: EXTRA_HOSTS })}`);
}
