/**
 * Realtor.com's keyless interfaces, as its web app and HomeHarvest (Bunsly/HomeHarvest, MIT) use them: a place is
 * resolved by Move's location suggester (`parser-external.geo.moveaws.com/suggest`), then listed by the site's
 * GraphQL (`POST www.realtor.com/api/v1/rdc_search_srp`, `home_search` by city, county, state or ZIP code, newest
 * first, `limit`/`offset`); one home is `home(property_id)` on the same endpoint. The query asks only the fields
 * HomeHarvest's queries ask (plus `permalink` and `baths`, which the site's own answers carry). GraphQL `errors` mean
 * the query no longer fits the schema (`sourceChanged`); a bot wall is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { obj, objs, str, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const GRAPHQL = 'https://www.realtor.com/api/v1/rdc_search_srp?client_id=rdc-search-new-communities&schema=vesta';
export const SUGGEST = 'https://parser-external.geo.moveaws.com/suggest';
export const WEB = 'https://www.realtor.com';
const MAX_BYTES = 8 * 1024 * 1024;
const HEADERS = { accept: 'application/json', 'content-type': 'application/json', origin: WEB, 'accept-language': 'en-US,en;q=0.9' };

const HOME_FIELDS = `
  property_id listing_id href permalink list_date status last_sold_price last_sold_date list_price list_price_max
  list_price_min price_per_sqft
  flags { is_contingent is_pending is_new_construction }
  description { type sqft beds baths baths_full baths_half lot_sqft year_built garage name stories text }
  source { id listing_id }
  hoa { fee }
  location {
    address { street_direction street_number street_name street_suffix line unit city state_code postal_code coordinate { lon lat } }
    county { name fips_code }
    neighborhoods { name }
  }
  primary_photo { href }
  photos { href }
  advertisers { type name email broker { name } office { name } }`;

const ESTIMATE = 'source { type name } estimate estimateHigh: estimate_high estimateLow: estimate_low date isBestHomeValue: isbest_homevalue';

/** The statuses Realtor.com searches by; pending is a for-sale search restricted to pending and contingent homes. */
const STATUS = { forSale: 'for_sale', forRent: 'for_rent', sold: 'sold', pending: 'for_sale' } as const;

export type Place = Obj;

/** The place the suggester resolves a location to (city, county, state, ZIP code, or an address's `mpr_id`). */
export async function resolvePlace(location: string, status: keyof typeof STATUS, ctx: SourceContext): Promise<Place> {
  const q = new URLSearchParams({
    input: location,
    client_id: STATUS[status].replace('_', '-'),
    limit: '1',
    area_types: 'city,state,county,postal_code,address,street,neighborhood,school,school_district,university,park',
  });
  const res = await ctx.http.request({ url: `${SUGGEST}?${q}`, headers: { accept: 'application/json' }, maxBytes: MAX_BYTES, passStatuses: [403, 429] }, ctx.signal);
  refuseWalls('realtor', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `realtor: the location suggester refused the request (HTTP ${res.status})`);
  const answer = obj(res.json());
  if (!answer || !Array.isArray(answer.autocomplete)) throw new QuarryError('sourceChanged', 'realtor: the suggester answered no autocomplete list');
  const place = objs(answer.autocomplete)[0];
  if (!place || !str(place.area_type)) throw new QuarryError('notFound', `realtor: Realtor.com knows no place "${location}"`);
  return place;
}

/** The `home_search` query of a place (or of one address's property), newest first. */
export function searchQuery(place: Place, status: keyof typeof STATUS): { query: string; variables: Obj } {
  const sold = status === 'sold';
  const sort = `sort: [{ field: ${sold ? 'sold_date' : 'list_date'}, direction: desc }]`;
  const pending = status === 'pending' ? 'or_filters: { contingent: true, pending: true }' : '';
  if (str(place.area_type) === 'address' && str(place.mpr_id)) {
    return {
      query: `query Property_search($property_id: [ID]!, $offset: Int!, $limit: Int!) { home_search(query: { property_id: $property_id } limit: $limit offset: $offset) { count total results { ${HOME_FIELDS} } } }`,
      variables: { property_id: [str(place.mpr_id)] },
    };
  }
  const variables: Obj = {};
  for (const [k, v] of [['city', place.city], ['state_code', place.state_code], ['postal_code', place.postal_code]] as const) if (str(v)) variables[k] = str(v);
  if (str(place.county)) variables.county = [str(place.county)];
  return {
    query:
      'query Home_search($city: String, $county: [String], $state_code: String, $postal_code: String, $offset: Int!, $limit: Int!) { ' +
      `home_search(query: { city: $city county: $county postal_code: $postal_code state_code: $state_code status: ${STATUS[status]} ${pending} } ` +
      `${sort} limit: $limit offset: $offset) { count total results { ${HOME_FIELDS} current_estimates { ${ESTIMATE} } } } }`,
    variables,
  };
}

/** One GraphQL answer's `data`. */
async function graphql(body: { query: string; variables: Obj }, ctx: SourceContext): Promise<Obj> {
  const res = await ctx.http.request(
    { url: GRAPHQL, method: 'POST', headers: HEADERS, body: JSON.stringify(body), maxBytes: MAX_BYTES, idempotent: true, passStatuses: [403, 429] },
    ctx.signal,
  );
  refuseWalls('realtor', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `realtor: Realtor.com refused the request (HTTP ${res.status})`);
  const answer = obj(res.json()) ?? {};
  const errors = objs(answer.errors);
  if (errors.length) throw new QuarryError('sourceChanged', `realtor: GraphQL error: ${(str(errors[0].message) ?? 'unknown').slice(0, 200)}`);
  const data = obj(answer.data);
  if (!data) throw new QuarryError('sourceChanged', 'realtor: the GraphQL answer carries no data');
  return data;
}

/** One page of a search: the raw results and Realtor.com's total. */
export async function searchPage(q: { query: string; variables: Obj }, offset: number, limit: number, ctx: SourceContext): Promise<{ results: Obj[]; total?: number }> {
  const data = await graphql({ query: q.query, variables: { ...q.variables, offset, limit } }, ctx);
  const search = obj(data.home_search);
  if (!search || !Array.isArray(search.results)) throw new QuarryError('sourceChanged', 'realtor: home_search answered no results list');
  return { results: objs(search.results), total: typeof search.total === 'number' ? search.total : undefined };
}

/** One home by its property id; Realtor.com answers `home: null` for one it does not know. */
export async function home(propertyId: string, ctx: SourceContext): Promise<Obj> {
  const query =
    `query Home($property_id: ID!) { home(property_id: $property_id) { ${HOME_FIELDS} ` +
    'taxHistory: tax_history { tax year assessment { building land total } } ' +
    `estimates { currentValues: current_values { ${ESTIMATE} } } } }`;
  const data = await graphql({ query, variables: { property_id: propertyId } }, ctx);
  const found = obj(data.home);
  if (!found) throw new QuarryError('notFound', `realtor: no home with property id ${propertyId}`);
  return found;
}
