/**
 * Builds the committed, normalised samples from the recorded upstream answers in ../shared/upstream.
 * Run: npx tsx scripts/make-samples.ts. Samples hold normalised records only, never raw recordings.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { atMost } from '../src/sources/reddit/index.js';
import { normaliseListing, normaliseSubforum } from '../src/sources/reddit/normalise.js';
import type { SampleSet } from '../src/sources/kit/samples.js';
import { writeSampleSet } from './samples/kit.js';
import { etsySamples } from './samples/etsy.js';
import { walmartSamples } from './samples/walmart.js';
import { ebaySamples } from './samples/ebay.js';
import { amazonSamples } from './samples/amazon.js';
import { googleplaySamples } from './samples/googleplay.js';
import { appstoreSamples } from './samples/appstore.js';
import { normaliseMeta } from '../src/sources/shopify/normalise.js';
import { technologies } from './samples/technologies.js';
import { domainSamples } from './samples/domain.js';
import { siteSamples } from './samples/site.js';
import { webContacts } from './samples/contacts.js';
import { emailVerify } from './samples/email.js';
import { youtubeSamples } from './samples/youtube.js';
import { cryptoSamples } from './samples/crypto.js';
import { instagramSamples } from './samples/instagram.js';
import { tiktokSamples } from './samples/tiktok.js';
import { pinterestSamples } from './samples/pinterest.js';
import { snapchatSamples } from './samples/snapchat.js';
import { threadsSamples } from './samples/threads.js';
import { financeSamples } from './samples/finance.js';
import { mapsSamples } from './samples/maps.js';
import { webSearchSamples } from './samples/websearch.js';
import { facebookSamples } from './samples/facebook.js';
import { indeedSamples } from './samples/indeed.js';
import { linkedinSamples } from './samples/linkedin.js';
import { redditSamples } from './samples/reddit.js';
import { xSamples } from './samples/x.js';
import { telegramSamples } from './samples/telegram.js';
import { hackernewsSamples } from './samples/hackernews.js';
import { blueskySamples } from './samples/bluesky.js';
import { twitchSamples } from './samples/twitch.js';
import { truthsocialSamples } from './samples/truthsocial.js';
import { kickSamples } from './samples/kick.js';
import { googleSamples } from './samples/google.js';
import { zillowSamples } from './samples/zillow.js';
import { realtorSamples } from './samples/realtor.js';
import { airbnbSamples } from './samples/airbnb.js';
import { bookingSamples } from './samples/booking.js';
import { tripadvisorSamples } from './samples/tripadvisor.js';
import { glassdoorSamples } from './samples/glassdoor.js';
import { upworkSamples } from './samples/upwork.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const forum = `${repo}../shared/upstream/forum/`;
if (!existsSync(forum)) {
  console.error(`recordings not found at ${forum}; nothing written`);
  process.exit(1);
}

const read = (name: string): unknown => JSON.parse(readFileSync(`${forum}${name}`, 'utf8'));

/** Origin of a recording, from its request sidecar. */
function origin(name: string): Record<string, unknown> {
  const side = read(name.replace(/\.json$/, '.request.json')) as {
    source: { repository: string; commit: string; path: string; licence: string };
    request: { url?: string; url_pattern?: string };
  };
  return {
    recording: `shared/upstream/forum/${name}`,
    repository: side.source.repository,
    commit: side.source.commit,
    path: side.source.path,
    licence: side.source.licence,
    request: side.request.url ?? side.request.url_pattern,
  };
}

/**
 * reddit.subforum: one recorded listing of 100 posts, served as pages of 25 the way Reddit pages a listing (each page's
 * cursor is the `t3_` name of its last post; the last page carries the recording's own `after`).
 */
function redditSubforum(): void {
  const files = { listing: 'listing-popular-hot.json', about: 'subreddit-about-golang.json', rules: 'subreddit-rules-fitness.json' };
  const listing = normaliseListing(read(files.listing));
  const about = (read(files.about) as { data: unknown }).data;
  const subforum = normaliseSubforum(about, read(files.rules));
  const size = 25;
  const pages: SampleSet['pages'] = [];
  for (let at = 0, asked: string | undefined; at < listing.posts.length; at += size) {
    const { posts, cursor } = atMost(listing.posts.slice(at), listing.cursor, size);
    pages.push({ ...(asked ? { request: { cursor: asked } } : {}), data: { posts, subforum, ...(cursor ? { cursor } : {}) } });
    asked = cursor;
  }
  writeSampleSet('src/sources/reddit/samples/subforum.json', {
    _provenance: {
      note:
        'Normalised by src/sources/reddit/normalise.ts from real recorded answers (scripts/make-samples.ts). ' +
        `Posts come from one recorded r/popular listing of ${listing.posts.length}, served as pages of ${size} as Reddit pages a ` +
        'listing; the subforum record joins r/golang about with r/Fitness rules, so the three parts do not describe one ' +
        'subreddit. Content belongs to Reddit and its users; test data only.',
      sources: Object.values(files).map(origin),
    },
    pages,
  });
  console.log(`wrote reddit sample: ${pages.length} pages of up to ${size} posts`);
}

const upstream = `${repo}../shared/upstream/`;

/** shopify.store: the one recorded storefront meta.json (README "storefront"), through the storefront normaliser. */
function shopifyStore(): void {
  const file = 'storefront/meta.davidan.json';
  const meta = JSON.parse(readFileSync(`${upstream}${file}`, 'utf8'));
  const store = normaliseMeta(meta, 'https://davidan.md');
  writeSampleSet('src/sources/shopify/samples/store.json', {
    _provenance: {
      note: 'Normalised by src/sources/shopify/normalise.ts from a real recorded meta.json (scripts/make-samples.ts). Test data only.',
      sources: [{ recording: `shared/upstream/${file}`, request: 'GET https://davidan.md/meta.json' }],
    },
    pages: [{ data: { store } }],
  });
  console.log(`wrote shopify sample: ${store.name}`);
}

redditSubforum();
await redditSamples();
await xSamples();
await telegramSamples();
await hackernewsSamples();
await blueskySamples();
await twitchSamples();
await truthsocialSamples();
await kickSamples();
await googleSamples();
shopifyStore();
await domainSamples();
await webContacts();
await siteSamples();
await emailVerify();
await linkedinSamples();
await facebookSamples();
await indeedSamples();
await technologies();
await instagramSamples();
await tiktokSamples();
await pinterestSamples();
await snapchatSamples();
await threadsSamples();
await financeSamples();
await mapsSamples();
await webSearchSamples();
await youtubeSamples();
await cryptoSamples();
await appstoreSamples();
await googleplaySamples();
await zillowSamples();
await amazonSamples();
await realtorSamples();
await airbnbSamples();
await ebaySamples();
await walmartSamples();
await bookingSamples();
await etsySamples();
await tripadvisorSamples();
await glassdoorSamples();
await upworkSamples();
