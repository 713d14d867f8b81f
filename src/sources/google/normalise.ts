/** Pure functions from the Ads Transparency Center's RPC answers (numbered fields) to the shared ad records. */
import type { GOOGLE_AD, GOOGLE_ADVERTISER } from '../../catalogue/endpoints/google.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, compact, int, isoFromSeconds, readsOf, obj, objs, str, type Obj } from '../kit/read.js';
import { findTags } from '../kit/web/index.js';
import { SITE } from './client.js';
import { countryOfGeoTarget } from './regions.js';

export type GoogleAd = TypeOf<typeof GOOGLE_AD>;
export type GoogleAdvertiser = TypeOf<typeof GOOGLE_ADVERTISER>;

export const { need, changed } = readsOf('google');

const FORMATS: Record<number, GoogleAd['format']> = { 1: 'text', 2: 'image', 3: 'video' };

export const advertiserUrl = (id: string) => `${SITE}/advertiser/${id}`;
export const adUrl = (advertiserId: string, creativeId: string) => `${advertiserUrl(advertiserId)}/creative/${creativeId}`;

/** A timestamp as Google writes it: `{"1": seconds (as a string), "2": nanoseconds}`. */
const instant = (v: unknown): string | undefined => isoFromSeconds(obj(v)?.['1']);

/** An ad's content node: an archived image (`3.2`, one `<img>`) or Google's rendering script (`1.4`). */
function contentOf(node: unknown): { images?: { url: string }[]; previewUrl?: string } {
  const n = obj(node);
  const markup = str(obj(n?.['3'])?.['2']);
  const src = markup ? str(findTags(markup, { names: ['img'] })[0]?.attrs.src) : undefined;
  const preview = str(obj(n?.['1'])?.['4']);
  return compact({
    images: src && /^https:\/\//.test(src) ? [{ url: src }] : undefined,
    previewUrl: preview && /^https:\/\//.test(preview) ? preview : undefined,
  });
}

/** One creative of a SearchCreatives answer. */
export function creativeOf(item: Obj): GoogleAd {
  const id = need(str(item['2']), 'creative without id (2)');
  const advertiserId = need(str(item['1']), `creative ${id} without advertiser (1)`);
  const content = contentOf(item['3']);
  return compact({
    type: 'ad' as const,
    id,
    url: adUrl(advertiserId, id),
    advertiser: compact({ id: advertiserId, name: str(item['12']), url: advertiserUrl(advertiserId) }),
    format: FORMATS[int(item['4']) ?? 0],
    startedAt: need(instant(item['6']), `creative ${id} without its first shown day (6)`),
    endedAt: instant(item['7']),
    daysShown: int(item['13']),
    domain: str(item['14']),
    ...content,
  });
}

export interface CreativesPage {
  ads: GoogleAd[];
  total?: { min?: number; max?: number };
  token?: string;
}

/** A SearchCreatives answer: its creatives, Google's estimate of how many match (4 and 5), the next page's token. */
export function creativesOf(body: Obj): CreativesPage {
  // An empty object is Google's answer for "nothing matches".
  if (body['1'] !== undefined && !Array.isArray(body['1'])) throw changed('SearchCreatives answer whose 1 is not a list');
  const min = int(body['4']);
  const max = int(body['5']);
  return {
    ads: objs(body['1']).map(creativeOf),
    ...(min !== undefined || max !== undefined ? { total: compact({ min, max }) } : {}),
    ...(str(body['2']) ? { token: str(body['2']) } : {}),
  };
}

/** A GetCreativeById answer (`{"1": …}`): the ad, its versions' images and previews, last shown day and countries. */
export function creativeDetailOf(body: Obj, ref: { advertiserId: string; creativeId: string }): GoogleAd {
  const root = obj(body['1']);
  if (!root) throw changed('GetCreativeById answer without 1');
  const id = str(root['2']) ?? ref.creativeId;
  const advertiserId = str(root['1']) ?? ref.advertiserId;
  const versions = arr(root['5']).map(contentOf);
  const images = versions.flatMap((v) => v.images ?? []);
  const previews = versions.flatMap((v) => v.previewUrl ?? []);
  const countries = [...new Set(objs(root['17']).flatMap((r) => countryOfGeoTarget(int(r['1']) ?? 0) ?? []))];
  return compact({
    type: 'ad' as const,
    id,
    url: adUrl(advertiserId, id),
    advertiser: compact({ id: advertiserId, name: str(obj(root['22'])?.['1']), url: advertiserUrl(advertiserId) }),
    endedAt: instant(root['4']),
    images,
    previewUrl: previews[0],
    countries,
  });
}

/** A SearchSuggestions answer: advertisers (`1`: name, id, country, ad counts) and domains (`2`). */
export function suggestionsOf(body: Obj): { advertisers: GoogleAdvertiser[]; domains: string[] } {
  if (body['1'] !== undefined && !Array.isArray(body['1'])) throw changed('SearchSuggestions answer whose 1 is not a list');
  const advertisers: GoogleAdvertiser[] = [];
  const domains: string[] = [];
  for (const s of objs(body['1'])) {
    const a = obj(s['1']);
    if (a) {
      const id = need(str(a['2']), 'suggested advertiser without id (1.2)');
      const counts = obj(obj(a['4'])?.['2']);
      const min = int(counts?.['1']);
      const max = int(counts?.['2']);
      advertisers.push(
        compact({
          type: 'advertiser' as const,
          id,
          name: need(str(a['1']), `suggested advertiser ${id} without name (1.1)`),
          url: advertiserUrl(id),
          country: str(a['3'])?.toLowerCase(),
          ads: min !== undefined || max !== undefined ? compact({ min: min !== undefined && max !== undefined ? Math.min(min, max) : min, max: min !== undefined && max !== undefined ? Math.max(min, max) : max }) : undefined,
        }),
      );
    }
    const domain = str(obj(s['2'])?.['1']);
    if (domain) domains.push(domain);
  }
  return { advertisers, domains };
}
