/**
 * Zillow's search cards and home objects as the shared property record. Pure functions. Zillow writes statuses and
 * home types in upper snake case (`FOR_RENT`, `SINGLE_FAMILY`): statuses map to HOME_STATUSES, home types to camel
 * case (`singleFamily`). Areas are square feet unless Zillow says otherwise; a rent is per month.
 */
import type { ZILLOW_CARD, ZILLOW_PROPERTY } from '../../catalogue/endpoints/zillow.js';
import type { TypeOf } from '../../catalogue/types.js';
import { money, parseMoney } from '../kit/money.js';
import { changed, compact, int, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import { WEB } from './client.js';

export type ZillowCard = TypeOf<typeof ZILLOW_CARD>;
export type ZillowProperty = TypeOf<typeof ZILLOW_PROPERTY>;
type Area = NonNullable<ZillowProperty['livingArea']>;

const STATUSES: Record<string, ZillowProperty['status']> = {
  FOR_SALE: 'forSale',
  FOR_RENT: 'forRent',
  SOLD: 'sold',
  RECENTLY_SOLD: 'sold',
  PENDING: 'pending',
  COMING_SOON: 'comingSoon',
  OFF_MARKET: 'offMarket',
  OTHER: 'offMarket',
};

export const statusOf = (v: unknown): string | undefined => STATUSES[str(v)?.toUpperCase() ?? ''];

/** `SINGLE_FAMILY` → `singleFamily`. */
export function camel(v: unknown): string | undefined {
  const s = str(v);
  if (!s || !/^[A-Z0-9_]+$/.test(s)) return s;
  return s.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const absolute = (href: string | undefined): string | undefined => (href ? new URL(href, WEB).href : undefined);

/** Zillow's unit names ("Square Feet", "sqft", "Acres") as the record's units. */
function unitOf(v: unknown): string | undefined {
  const u = str(v)?.toLowerCase();
  if (!u) return undefined;
  if (u.startsWith('sq') && /f/.test(u)) return 'sqft';
  if (u.startsWith('acre')) return 'acres';
  if (u.startsWith('sq') && /m/.test(u)) return 'sqm';
  return u;
}

function area(value: unknown, unit: unknown): Area | undefined {
  const v = num(value);
  const u = unitOf(unit);
  return v !== undefined && v > 0 && u ? { value: v, unit: u } : undefined;
}

/** "USA" as Zillow writes it; other countries kept as written. */
const country = (v: unknown): string | undefined => (str(v) === 'USA' ? 'US' : str(v));

// Search cards.

/** The cards of a search page and what Zillow says of the whole search. */
export function searchCards(state: Obj): { cards: ZillowCard[]; total?: number; pages: number } {
  const cat = need(obj(state.cat1), 'zillow', 'search page without cat1');
  const results = need(obj(cat.searchResults), 'zillow', 'search page without searchResults');
  if (!Array.isArray(results.listResults)) throw changed('zillow', 'searchResults without listResults');
  const list = obj(cat.searchList);
  return {
    cards: objs(results.listResults).map(card),
    total: int(list?.totalResultCount),
    pages: Math.max(1, int(list?.totalPages) ?? 1),
  };
}

function card(c: Obj): ZillowCard {
  const home = obj(obj(c.hdpData)?.homeInfo) ?? {};
  const currency = str(home.currency) ?? (str(c.countryCurrency) === '$' ? 'USD' : undefined);
  const status = statusOf(c.statusType) ?? statusOf(home.homeStatus);
  const geo = obj(c.latLong);
  const photos = objs(c.carouselPhotos).flatMap((p) => (str(p.url) ? [{ url: str(p.url)! }] : []));
  const units = objs(c.units).map((u) =>
    compact({ priceText: str(u.price), price: parseMoney(u.price, { currency: currency ?? 'USD' }), beds: int(u.beds), isRoom: u.roomForRent === true ? true : undefined }),
  );
  const address = compact({
    full: str(c.address),
    street: str(c.addressStreet) ?? str(home.streetAddress),
    city: str(c.addressCity) ?? str(home.city),
    state: str(c.addressState) ?? str(home.state),
    postalCode: str(c.addressZipcode) ?? str(home.zipcode),
    country: country(home.country),
  });
  return compact({
    type: 'property' as const,
    id: need(str(c.zpid) ?? (typeof c.zpid === 'number' ? String(c.zpid) : undefined), 'zillow', 'search card without zpid'),
    url: need(absolute(str(c.detailUrl)), 'zillow', 'search card without detailUrl'),
    title: str(c.buildingName),
    status,
    homeType: camel(home.homeType),
    price: money(num(c.unformattedPrice) ?? num(home.price), currency),
    pricePeriod: status === 'forRent' && (num(c.unformattedPrice) ?? num(home.price)) !== undefined ? 'month' : undefined,
    priceText: str(c.price),
    address: need(Object.keys(address).length ? address : undefined, 'zillow', 'search card without an address'),
    geo: num(geo?.latitude) !== undefined && num(geo?.longitude) !== undefined ? { latitude: num(geo!.latitude)!, longitude: num(geo!.longitude)! } : undefined,
    beds: int(c.beds) ?? int(home.bedrooms),
    baths: num(c.baths) ?? num(home.bathrooms),
    livingArea: area(c.area ?? home.livingArea, 'sqft'),
    daysOnMarket: int(home.daysOnZillow),
    estimate: money(home.zestimate, currency),
    rentEstimate: money(home.rentZestimate, currency),
    images: photos.length ? photos : str(c.imgSrc) ? [{ url: str(c.imgSrc)! }] : undefined,
    broker: str(c.brokerName),
    isBuilding: c.isBuilding === true ? true : undefined,
    units,
  }) as ZillowCard;
}

/** Cards within the caller's price and bedroom bounds (Zillow's page is asked without filters). */
export function withinBounds(c: ZillowCard, q: { priceMin?: number; priceMax?: number; bedsMin?: number }): boolean {
  const prices = [c.price?.amount, ...(c.units ?? []).map((u) => u.price?.amount)].filter((p): p is number => p !== undefined);
  const beds = [c.beds, ...(c.units ?? []).map((u) => u.beds)].filter((b): b is number => b !== undefined);
  if (q.priceMin !== undefined && !prices.some((p) => p >= q.priceMin!)) return false;
  if (q.priceMax !== undefined && !prices.some((p) => p <= q.priceMax!)) return false;
  if (q.bedsMin !== undefined && !beds.some((b) => b >= q.bedsMin!)) return false;
  return true;
}

// A home page.

export function property(p: Obj): ZillowProperty {
  const zpid = need(str(p.zpid) ?? (typeof p.zpid === 'number' ? String(p.zpid) : undefined), 'zillow', 'home without zpid');
  const currency = str(p.currency) ?? 'USD';
  const a = obj(p.address) ?? {};
  const facts = obj(p.resoFacts) ?? {};
  const street = str(a.streetAddress) ?? str(p.streetAddress);
  const city = str(a.city) ?? str(p.city);
  const state = str(a.state) ?? str(p.state);
  const zip = str(a.zipcode) ?? str(p.zipcode);
  const address = compact({
    full: [street, city, [state, zip].filter(Boolean).join(' ')].filter(Boolean).join(', ') || undefined,
    street,
    city,
    state,
    postalCode: zip,
    country: country(p.country),
  });
  const status = need(statusOf(p.homeStatus), 'zillow', `home with an unknown status ${String(p.homeStatus)}`);
  const agent = obj(p.attributionInfo);
  return compact({
    type: 'property' as const,
    id: zpid,
    url: absolute(str(p.hdpUrl)) ?? `${WEB}/homedetails/${zpid}_zpid/`,
    description: str(p.description),
    status,
    homeType: camel(p.homeType),
    price: money(p.price, currency),
    pricePeriod: status === 'forRent' && num(p.price) !== undefined ? 'month' : undefined,
    address: need(Object.keys(address).length ? address : undefined, 'zillow', 'home without an address'),
    geo: num(p.latitude) !== undefined && num(p.longitude) !== undefined ? { latitude: num(p.latitude)!, longitude: num(p.longitude)! } : undefined,
    beds: int(p.bedrooms),
    baths: num(p.bathrooms),
    bathsFull: int(facts.bathroomsFull),
    bathsHalf: int(facts.bathroomsHalf),
    livingArea: area(p.livingAreaValue ?? p.livingArea, p.livingAreaUnitsShort ?? p.livingAreaUnits ?? 'sqft'),
    lotSize: area(p.lotAreaValue, p.lotAreaUnits),
    yearBuilt: int(p.yearBuilt),
    listedAt: /^\d{4}-\d{2}-\d{2}$/.test(str(p.datePostedString) ?? '') ? str(p.datePostedString) : undefined,
    daysOnMarket: int(p.daysOnZillow),
    soldPrice: money(p.lastSoldPrice, currency),
    hoa: num(p.monthlyHoaFee) !== undefined ? { amount: num(p.monthlyHoaFee)!, currency, period: 'month' } : undefined,
    estimate: money(p.zestimate, currency),
    rentEstimate: money(p.rentZestimate, currency),
    taxes: objs(p.taxHistory).flatMap((t) => {
      const year = yearOf(t.time);
      return year ? [compact({ year, tax: money(t.taxPaid, currency), assessedValue: money(t.value, currency) })] : [];
    }),
    priceHistory: objs(p.priceHistory).flatMap((e) => {
      const date = str(e.date);
      return date ? [compact({ date, event: str(e.event), price: money(e.price, currency), source: str(e.source) })] : [];
    }),
    images: photosOf(p),
    agent: str(agent?.agentName) ? { name: str(agent!.agentName) } : undefined,
    broker: str(p.brokerageName) ?? str(agent?.brokerName),
    mlsId: str(p.mlsid),
    county: str(p.county),
  }) as ZillowProperty;
}

const yearOf = (ms: unknown): number | undefined => {
  const n = num(ms);
  return n === undefined ? undefined : new Date(n).getUTCFullYear();
};

/** Each photo's largest JPEG (`responsivePhotos`, else `photos`). */
function photosOf(p: Obj): { url: string; width?: number }[] {
  const list = objs(p.responsivePhotos).length ? objs(p.responsivePhotos) : objs(p.photos);
  return list.flatMap((photo) => {
    const sizes = objs(obj(photo.mixedSources)?.jpeg).filter((s) => str(s.url));
    const best = sizes.sort((x, y) => (num(y.width) ?? 0) - (num(x.width) ?? 0))[0];
    if (best) return [compact({ url: str(best.url)!, width: int(best.width) })];
    return str(photo.url) ? [{ url: str(photo.url)! }] : [];
  });
}
