/**
 * Realtor.com's `home_search` results and `home` as the shared property record. Pure functions. Realtor.com prices in
 * US dollars; areas are square feet; `status` `for_sale` with a pending or contingent flag is `pending`; a home's
 * type (`single_family`) becomes camel case like Zillow's.
 */
import type { REALTOR_PROPERTY } from '../../catalogue/endpoints/realtor.js';
import type { TypeOf } from '../../catalogue/types.js';
import { money } from '../kit/money.js';
import { compact, int, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import { WEB } from './client.js';

export type RealtorProperty = TypeOf<typeof REALTOR_PROPERTY>;

const CURRENCY = 'USD';
const usd = (v: unknown) => money(v, CURRENCY);

const STATUSES: Record<string, string> = {
  for_sale: 'forSale',
  for_rent: 'forRent',
  sold: 'sold',
  pending: 'pending',
  contingent: 'pending',
  coming_soon: 'comingSoon',
  off_market: 'offMarket',
};

const camel = (v: unknown): string | undefined => str(v)?.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const day = (v: unknown): string | undefined => /^(\d{4}-\d{2}-\d{2})/.exec(str(v) ?? '')?.[1];
const sqft = (v: unknown) => (num(v) !== undefined && num(v)! > 0 ? { value: num(v)!, unit: 'sqft' } : undefined);

/** A result of `home_search` or a `home`. */
export function property(r: Obj): RealtorProperty {
  const id = need(str(r.property_id), 'realtor', 'home without property_id');
  const flags = obj(r.flags) ?? {};
  const d = obj(r.description) ?? {};
  const loc = obj(r.location) ?? {};
  const a = obj(loc.address) ?? {};
  const coordinate = obj(a.coordinate);
  const street = [a.street_number, a.street_direction, a.street_name, a.street_suffix].map(str).filter(Boolean).join(' ') || undefined;
  const raw = need(str(r.status), 'realtor', 'home without status');
  const status = flags.is_pending === true || flags.is_contingent === true ? 'pending' : (STATUSES[raw] ?? camel(raw));
  const address = compact({
    full: [str(a.line), str(a.city), [str(a.state_code), str(a.postal_code)].filter(Boolean).join(' ')].filter(Boolean).join(', ') || undefined,
    street: street ?? str(a.line),
    city: str(a.city),
    state: str(a.state_code),
    postalCode: str(a.postal_code),
    country: 'US',
  });
  const seller = objs(r.advertisers).find((x) => str(x.type) === 'seller');
  const estimates = objs(r.current_estimates).length ? objs(r.current_estimates) : objs(obj(r.estimates)?.currentValues);
  const best = estimates.find((e) => e.isBestHomeValue === true) ?? estimates[0];
  const listPrice = num(r.list_price) ?? num(r.list_price_min);
  const photos = objs(r.photos).flatMap((p) => (str(p.href) ? [{ url: str(p.href)! }] : []));
  const primary = str(obj(r.primary_photo)?.href);
  return compact({
    type: 'property' as const,
    id,
    url: urlOf(r),
    title: str(d.name),
    description: str(d.text),
    status: need(status, 'realtor', `home with an unknown status ${raw}`),
    homeType: camel(d.type),
    price: usd(listPrice),
    pricePeriod: raw === 'for_rent' && listPrice !== undefined ? 'month' : undefined,
    address: need(Object.keys(address).length > 1 ? address : undefined, 'realtor', 'home without an address'),
    geo: num(coordinate?.lat) !== undefined && num(coordinate?.lon) !== undefined ? { latitude: num(coordinate!.lat)!, longitude: num(coordinate!.lon)! } : undefined,
    beds: int(d.beds),
    baths: num(d.baths),
    bathsFull: int(d.baths_full),
    bathsHalf: int(d.baths_half),
    livingArea: sqft(d.sqft),
    lotSize: sqft(d.lot_sqft),
    yearBuilt: int(d.year_built),
    stories: int(d.stories),
    garage: int(d.garage),
    listedAt: day(r.list_date),
    soldAt: day(r.last_sold_date),
    soldPrice: usd(r.last_sold_price),
    hoa: num(obj(r.hoa)?.fee) !== undefined ? { amount: num(obj(r.hoa)!.fee)!, currency: CURRENCY, period: 'month' } : undefined,
    estimate: usd(best?.estimate),
    taxes: objs(r.taxHistory)
      .flatMap((t) => {
        const year = int(t.year);
        const assessment = obj(t.assessment);
        return year ? [compact({ year, tax: usd(t.tax), assessedValue: usd(assessment?.total), landValue: usd(assessment?.land), buildingValue: usd(assessment?.building) })] : [];
      })
      .sort((x, y) => y.year - x.year),
    images: photos.length ? photos : primary ? [{ url: primary }] : undefined,
    agent: str(seller?.name) ? compact({ name: str(seller!.name) }) : undefined,
    broker: str(obj(seller?.broker)?.name) ?? str(obj(seller?.office)?.name),
    mlsId: str(obj(r.source)?.listing_id),
    county: str(obj(loc.county)?.name),
    neighborhoods: objs(loc.neighborhoods).flatMap((n) => (str(n.name) ? [str(n.name)!] : [])),
    isNewConstruction: flags.is_new_construction === true ? true : undefined,
  }) as RealtorProperty;
}

/** The listing's page: `href` as answered, else its permalink on the detail path. */
function urlOf(r: Obj): string {
  const href = str(r.href);
  if (href) return new URL(href, WEB).href;
  return `${WEB}/realestateandhomes-detail/${need(str(r.permalink), 'realtor', 'home without href or permalink')}`;
}

/** Results within the caller's price and bedroom bounds. */
export function withinBounds(p: RealtorProperty, q: { priceMin?: number; priceMax?: number; bedsMin?: number }): boolean {
  const price = p.price?.amount;
  if (q.priceMin !== undefined && !(price !== undefined && price >= q.priceMin)) return false;
  if (q.priceMax !== undefined && !(price !== undefined && price <= q.priceMax)) return false;
  if (q.bedsMin !== undefined && !(p.beds !== undefined && p.beds >= q.bedsMin)) return false;
  return true;
}
