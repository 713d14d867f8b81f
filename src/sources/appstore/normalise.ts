/**
 * App Store answers into the shared app and review records. Pure functions over Apple's JSON: the Lookup/Search
 * `results` objects and the review feed's entries (every value wrapped as `{label}`).
 */
import type { APPSTORE_APP, APPSTORE_REVIEW } from '../../catalogue/endpoints/appstore.js';
import type { TypeOf } from '../../catalogue/types.js';
import { money } from '../kit/money.js';
import { arr, compact, int, isoFromText, need, num, obj, str, type Obj } from '../kit/read.js';

export type AppStoreApp = TypeOf<typeof APPSTORE_APP>;
export type AppStoreReview = TypeOf<typeof APPSTORE_REVIEW>;

const isApp = (r: Obj): boolean => r.wrapperType === 'software' || r.kind === 'software' || r.kind === 'mac-software';

/** The software results of a Lookup or Search answer (other media kinds are skipped). */
export function appsOf(results: unknown[]): AppStoreApp[] {
  return results.flatMap((r) => {
    const o = obj(r);
    return o && isApp(o) ? [normaliseApp(o)] : [];
  });
}

/** Apple's tracking parameter (`uo=4`) is dropped from the addresses it hands out. */
function cleanUrl(u: unknown): string | undefined {
  const s = str(u);
  if (!s || !URL.canParse(s)) return s;
  const url = new URL(s);
  url.searchParams.delete('uo');
  return url.href;
}

export function normaliseApp(r: Obj): AppStoreApp {
  const id = String(need(int(r.trackId), 'appstore', 'an app without a trackId'));
  const price = money(r.price, r.currency);
  const shots = [...arr(r.screenshotUrls), ...arr(r.ipadScreenshotUrls)].flatMap((u) => (str(u) ? [{ url: str(u)! }] : []));
  const languages = [...new Set(arr(r.languageCodesISO2A).flatMap((l) => (str(l) ? [str(l)!.toLowerCase()] : [])))];
  const ratingValue = num(r.averageUserRating);
  return compact({
    type: 'app' as const,
    id,
    url: cleanUrl(r.trackViewUrl) ?? `https://apps.apple.com/app/id${id}`,
    title: need(str(r.trackName) ?? str(r.trackCensoredName), 'appstore', `app ${id} has no name`),
    description: str(r.description),
    developer: compact({ id: r.artistId !== undefined ? String(r.artistId) : undefined, name: str(r.artistName) ?? str(r.sellerName), url: cleanUrl(r.artistViewUrl) }),
    price,
    isFree: price ? price.amount === 0 : undefined,
    rating: ratingValue !== undefined ? compact({ value: ratingValue, max: 5, count: int(r.userRatingCount) }) : undefined,
    version: str(r.version),
    releaseNotes: str(r.releaseNotes),
    releasedAt: isoFromText(r.releaseDate),
    updatedAt: isoFromText(r.currentVersionReleaseDate),
    sizeBytes: int(r.fileSizeBytes),
    contentRating: str(r.contentAdvisoryRating) ?? str(r.trackContentRating),
    genres: arr(r.genres).flatMap((g) => (str(g) ? [str(g)!] : [])),
    icon: str(r.artworkUrl512) ?? str(r.artworkUrl100) ?? str(r.artworkUrl60),
    screenshots: shots,
    languages,
    minimumOsVersion: str(r.minimumOsVersion),
    website: str(r.sellerUrl),
    bundleId: str(r.bundleId),
  });
}

const label = (v: unknown): string | undefined => str(obj(v)?.label);

/** One review-feed entry; entries without a rating (the app itself, which older feeds listed first) are skipped. */
export function normaliseReview(e: Obj): AppStoreReview | undefined {
  const rating = num(label(e['im:rating']));
  const id = label(e.id);
  if (rating === undefined || !id) return undefined;
  const author = obj(e.author);
  return compact({
    type: 'review' as const,
    id,
    rating,
    title: label(e.title),
    text: label(e.content),
    createdAt: isoFromText(label(e.updated)),
    author: compact({ name: label(author?.name), url: label(author?.uri) }),
    helpful: int(label(e['im:voteSum'])),
    appVersion: label(e['im:version']),
  });
}
