/**
 * Google Play's positional data into the shared app and review records. Pure functions; the positions are those
 * google-play-scraper (MIT) reads, checked against the recorded details pages: the app sits in the block whose
 * `[1][2]` is the details array (`ds:4` on 2022 pages, `ds:5` on 2025 ones), found by the package it names at
 * `[77][0]`; late fields (version, update time, release notes) moved into a sparse object at the array's end whose
 * keys count from 1 (`"141"` is position 140). Pages of the layout Google retired in 2022 carry no such array and are
 * `sourceChanged`.
 */
import type { GOOGLEPLAY_APP, GOOGLEPLAY_REVIEW } from '../../catalogue/endpoints/googleplay.js';
import type { TypeOf } from '../../catalogue/types.js';
import { htmlText } from '../kit/html-text.js';
import { money } from '../kit/money.js';
import { arr, changed, compact, int, isObj, isoFromSeconds, need, num, str } from '../kit/read.js';
import type { DataBlocks } from './client.js';

export type PlayApp = TypeOf<typeof GOOGLEPLAY_APP>;
export type PlayReview = TypeOf<typeof GOOGLEPLAY_REVIEW>;

const PLAY = 'https://play.google.com';

/** The value at a path of nested arrays, or undefined where the path breaks. */
export function at(v: unknown, ...path: number[]): unknown {
  let cur = v;
  for (const i of path) {
    if (!Array.isArray(cur)) return undefined;
    cur = cur[i];
  }
  return cur ?? undefined;
}

/** Position `i` of the details array, or its place in the sparse tail object (keys count from 1). */
function field(d: unknown[], i: number): unknown {
  if (d[i] !== undefined && d[i] !== null) return d[i];
  const tail = d[d.length - 1];
  return isObj(tail) ? tail[String(i + 1)] ?? undefined : undefined;
}

/** The details array of the page's app (the block naming `pkg` at [1][2][77][0]). */
export function detailsOf(blocks: DataBlocks, pkg: string): unknown[] | undefined {
  for (const block of Object.values(blocks)) {
    const d = at(block, 1, 2);
    if (Array.isArray(d) && at(d, 77, 0) === pkg) return d;
  }
  return undefined;
}

const html = (v: unknown): string | undefined => htmlText(str(v));
const iso = (pair: unknown): string | undefined => isoFromSeconds(at(pair, 0));
const abs = (path: unknown): string | undefined => {
  const p = str(path);
  return p ? new URL(p, PLAY).href : undefined;
};

export function normaliseApp(d: unknown[], pkg: string): PlayApp {
  const title = need(str(at(d, 0, 0)), 'googleplay', `app ${pkg} has no title`);
  const offer = at(d, 57, 0, 0, 0, 0, 1, 0);
  const micros = num(at(offer, 0));
  const price = micros !== undefined ? money(micros / 1e6, at(offer, 1)) : undefined;
  const ratingValue = num(at(d, 51, 0, 1));
  const ratings = int(at(d, 51, 2, 1));
  const devPath = str(at(d, 68, 1, 4, 2));
  const genres = [str(at(d, 79, 0, 0, 0)), ...arr(at(d, 118)).flatMap((g) => str(at(g, 0)) ?? [])].filter((g): g is string => !!g);
  const shots = arr(at(d, 78, 0)).flatMap((s) => {
    const url = str(at(s, 3, 2));
    return url ? [compact({ url, width: int(at(s, 2, 0)), height: int(at(s, 2, 1)) })] : [];
  });
  return compact({
    type: 'app' as const,
    id: pkg,
    url: `${PLAY}/store/apps/details?id=${encodeURIComponent(pkg)}`,
    title,
    summary: html(at(d, 73, 0, 1)),
    // A translated description (shown when the page's language differs from the developer's) comes first.
    description: html(at(d, 12, 0, 0, 1)) ?? html(at(d, 72, 0, 1)),
    developer: compact({
      id: devPath ? new URL(devPath, PLAY).searchParams.get('id') ?? undefined : undefined,
      name: str(at(d, 68, 0)),
      url: abs(devPath),
    }),
    price,
    isFree: price ? price.amount === 0 : undefined,
    hasInAppPurchases: at(d, 19, 0) ? true : undefined,
    hasAds: at(d, 48) ? true : undefined,
    // A store page with no ratings says 0 of 0: no rating rather than a rating of 0.
    rating: ratingValue !== undefined && ratings ? { value: ratingValue, max: 5, count: ratings } : undefined,
    installs: int(at(d, 13, 1)),
    installsText: str(at(d, 13, 0)),
    version: str(at(field(d, 140), 0, 0, 0)),
    releaseNotes: html(at(field(d, 144), 1, 1)),
    releasedAt: iso(at(d, 10, 1)),
    updatedAt: iso(at(field(d, 145), 0, 1)),
    contentRating: str(at(d, 9, 0)),
    genres: [...new Set(genres)],
    icon: str(at(d, 95, 0, 3, 2)),
    screenshots: shots,
    minimumOsVersion: str(at(field(d, 140), 1, 1, 0, 0, 1)),
    website: str(at(d, 69, 0, 5, 2)),
    privacyPolicy: str(at(d, 99, 0, 5, 2)),
  });
}

/** The apps of a search page, in Google's order (`ds:1`'s first section). */
export function searchApps(blocks: DataBlocks): PlayApp[] {
  const sections = arr(at(blocks['ds:1'], 0, 1, 0, 0));
  const items = arr(at(sections, 0));
  const apps = items.flatMap((item) => {
    const pkg = str(at(item, 12, 0));
    const title = str(at(item, 2));
    if (!pkg || !title) return [];
    const offer = at(item, 7, 0, 3, 2, 1, 0);
    const micros = num(at(offer, 0));
    const price = micros !== undefined ? money(micros / 1e6, at(offer, 1)) : undefined;
    const score = num(at(item, 6, 0, 2, 1, 1));
    const devPath = str(at(item, 4, 0, 0, 1, 4, 2));
    return [
      compact({
        type: 'app' as const,
        id: pkg,
        url: abs(at(item, 9, 4, 2)) ?? `${PLAY}/store/apps/details?id=${encodeURIComponent(pkg)}`,
        title,
        summary: html(at(item, 4, 1, 1, 1, 1)),
        developer: compact({
          id: devPath ? new URL(devPath, PLAY).searchParams.get('id') ?? undefined : undefined,
          name: str(at(item, 4, 0, 0, 0)),
          url: abs(devPath),
        }),
        price,
        isFree: price ? price.amount === 0 : undefined,
        rating: score ? { value: score, max: 5 } : undefined,
        icon: str(at(item, 1, 1, 0, 3, 2)),
      }),
    ];
  });
  return apps;
}

/** One review entry (the RPC's and the details page's share it). */
export function normaliseReview(e: unknown, pkg: string): PlayReview | undefined {
  const id = str(at(e, 0));
  const rating = num(at(e, 2));
  if (!id || rating === undefined) return undefined;
  const reply = at(e, 7);
  const replyText = str(at(reply, 1));
  return compact({
    type: 'review' as const,
    id,
    rating,
    url: `${PLAY}/store/apps/details?id=${encodeURIComponent(pkg)}&reviewId=${encodeURIComponent(id)}`,
    text: str(at(e, 4)),
    createdAt: iso(at(e, 5)),
    author: compact({ name: str(at(e, 1, 0)), avatar: str(at(e, 1, 1, 3, 2)) }),
    helpful: int(at(e, 6)),
    appVersion: str(at(e, 10)),
    response: replyText ? compact({ text: replyText, createdAt: iso(at(reply, 2)), author: str(at(reply, 0)) }) : undefined,
  });
}

/** The reviews and next token of the RPC's JSON (`[reviews, [null, token]]`; null when there are none). */
export function reviewsPage(payload: unknown, pkg: string): { reviews: PlayReview[]; token?: string } {
  if (payload === null) return { reviews: [] };
  if (!Array.isArray(payload)) throw changed('googleplay', 'the reviews answer is not a list');
  const reviews = arr(payload[0]).flatMap((e) => normaliseReview(e, pkg) ?? []);
  return { reviews, token: str(at(payload, 1, 1)) };
}

/** The reviews a details page embeds (the same entries), for the record tests; the block that holds them varies. */
export function embeddedReviews(blocks: DataBlocks, pkg: string): PlayReview[] {
  for (const block of Object.values(blocks)) {
    const entries = arr(at(block, 0));
    if (entries.length && entries.every((e) => Array.isArray(e) && typeof at(e, 0) === 'string' && Array.isArray(at(e, 5)))) {
      return entries.flatMap((e) => normaliseReview(e, pkg) ?? []);
    }
  }
  return [];
}
