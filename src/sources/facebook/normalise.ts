/**
 * `ads_archive` answers → ad records. Field names are Meta's documented ones
 * (https://developers.facebook.com/docs/marketing-api/reference/archived-ad/); the singular v5-era names
 * (`ad_creative_body`, `funding_entity`) of older answers are read too. Pure functions; nothing guessed.
 */
import type { FACEBOOK_AD } from '../../catalogue/endpoints/facebook.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, changed, compact, int, isObj, isoFromText, readsOf, num, obj, objs, str, type Obj } from '../kit/read.js';

export type Ad = TypeOf<typeof FACEBOOK_AD>;

export interface ArchivePage {
  ads: Ad[];
  /** Graph's `after` cursor when Meta says more follow (`paging.next`). */
  after?: string;
}

const { need } = readsOf('facebook');
const LIBRARY = 'https://www.facebook.com/ads/library/';

/** The strings of a plural field, or the one of its singular predecessor. */
function texts(a: Obj, plural: string, singular: string): string[] | undefined {
  const list = arr(a[plural]).map(str).filter((s): s is string => !!s);
  if (list.length) return list;
  const one = str(a[singular]);
  return one ? [one] : undefined;
}

/** Graph day or instant: "2024-06-12" stays a day; "2019-12-03T22:03:18+0000" becomes ISO 8601. */
function when(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  return /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : isoFromText(s);
}

/** Graph's `{lower_bound, upper_bound}` (strings or numbers; the top bucket has no upper bound). */
function bounds(v: unknown): { min?: number; max?: number } | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const r = compact({ min: int(o.lower_bound), max: int(o.upper_bound) });
  return Object.keys(r).length ? r : undefined;
}

const PLATFORMS: Record<string, string> = { audience_network: 'audienceNetwork' };
const platform = (p: string): string => PLATFORMS[p.toLowerCase()] ?? p.toLowerCase();

/** The library id of an ad: `id`, or (older answers, which did not return it) the `id` of its snapshot address. */
function adId(a: Obj): string | undefined {
  const id = str(a.id) ?? (typeof a.id === 'number' ? String(a.id) : undefined);
  if (id) return id;
  const snapshot = str(a.ad_snapshot_url);
  const fromSnapshot = snapshot && URL.canParse(snapshot) ? new URL(snapshot).searchParams.get('id') : undefined;
  return fromSnapshot && /^\d{1,25}$/.test(fromSnapshot) ? fromSnapshot : undefined;
}

function share(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && n >= 0 && n <= 1 ? n : undefined;
}

export function normaliseAd(a: Obj, status: 'active' | 'inactive' | 'all'): Ad {
  const id = need(adId(a), 'an archived ad without an id');
  const pageId = need(str(a.page_id) ?? (typeof a.page_id === 'number' ? String(a.page_id) : undefined), `ad ${id} without its page`);
  const currency = str(a.currency);
  const spend = bounds(a.spend);
  const payers = objs(a.beneficiary_payers);
  const byCountry = objs(a.age_country_gender_reach_breakdown).flatMap((c) => {
    const country = str(c.country);
    if (!country) return [];
    const byAge = objs(c.age_gender_breakdowns).flatMap((g) => {
      const age = str(g.age_range);
      return age ? [compact({ age, male: int(g.male), female: int(g.female), unknown: int(g.unknown) })] : [];
    });
    const total = byAge.reduce((sum, g) => sum + (g.male ?? 0) + (g.female ?? 0) + (g.unknown ?? 0), 0);
    return [compact({ country, reach: byAge.length ? total : undefined, byAge })];
  });
  const targetLocations = objs(a.target_locations).flatMap((l) => {
    const name = str(l.name);
    return name ? [compact({ name, type: str(l.type), isExcluded: typeof l.excluded === 'boolean' ? l.excluded : undefined })] : [];
  });
  return compact({
    type: 'ad' as const,
    id,
    url: `${LIBRARY}?id=${id}`,
    advertiser: compact({ id: pageId, name: str(a.page_name), url: `https://www.facebook.com/${pageId}` }),
    paidBy: str(a.bylines) ?? str(a.funding_entity) ?? str(payers[0]?.payer),
    beneficiary: str(payers[0]?.beneficiary),
    bodies: texts(a, 'ad_creative_bodies', 'ad_creative_body'),
    titles: texts(a, 'ad_creative_link_titles', 'ad_creative_link_title'),
    descriptions: texts(a, 'ad_creative_link_descriptions', 'ad_creative_link_description'),
    captions: texts(a, 'ad_creative_link_captions', 'ad_creative_link_caption'),
    platforms: arr(a.publisher_platforms ?? a.publisher_platform).map(str).filter((p): p is string => !!p).map(platform),
    languages: arr(a.languages).map(str).filter((l): l is string => !!l),
    createdAt: when(a.ad_creation_time),
    startedAt: need(when(a.ad_delivery_start_time), `ad ${id} without its delivery start`),
    endedAt: when(a.ad_delivery_stop_time),
    // Graph gives no status per ad; a search restricted to active (or inactive) ads says it for each.
    isActive: status === 'all' ? undefined : status === 'active',
    currency,
    spend: spend && currency ? { currency, ...spend } : undefined,
    impressions: bounds(a.impressions),
    audience: bounds(a.estimated_audience_size),
    reach: int(a.eu_total_reach),
    reachByCountry: byCountry,
    demographics: objs(a.demographic_distribution).flatMap((d) => {
      const s = share(d.percentage);
      return s === undefined ? [] : [compact({ share: s, age: str(d.age), gender: str(d.gender) })];
    }),
    regions: objs(a.delivery_by_region).flatMap((r) => {
      const region = str(r.region);
      const s = share(r.percentage);
      return region && s !== undefined ? [{ region, share: s }] : [];
    }),
    targeting: compact({
      ages: arr(a.target_ages).map(str).filter((x): x is string => !!x),
      gender: str(a.target_gender),
      locations: targetLocations,
    }),
  });
}

/** One `ads_archive` page: `{data: [...], paging: {cursors: {after}, next}}`. */
export function normalisePage(body: unknown, status: 'active' | 'inactive' | 'all'): ArchivePage {
  if (!isObj(body) || !Array.isArray(body.data)) throw changed('facebook', 'ads_archive answer without its data list');
  const ads = body.data.map((a) => {
    if (!isObj(a)) throw changed('facebook', 'ads_archive item that is not an object');
    return normaliseAd(a, status);
  });
  const paging = obj(body.paging);
  const after = paging && str(paging.next) ? str(obj(paging.cursors)?.after) : undefined;
  return after ? { ads, after } : { ads };
}
