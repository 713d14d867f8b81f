/**
 * Booking.com as its web app reads it. A search is the results page (`/searchresults.html?ss=…&checkin=…&offset=…`),
 * whose Apollo store (`<script data-capla-store-data="apollo">`, ROOT_QUERY.searchQueries `search({…})`) holds the
 * `SearchQueryOutput` the page renders (results, pagination), as scrapfly/scrapfly-scrapers reads it. A property is
 * its page (`/hotel/{cc}/{name}.html`): its schema.org JSON-LD, the `b_hotel_id` and map coordinates its markup
 * carries. Reviews are the site's GraphQL `ReviewList` (`POST /dml/graphql`) with the page's CSRF token, hotel id,
 * UFI and country, the body scrapfly's review scraper sends. Booking.com answers clients without a browser with an
 * AWS WAF challenge: `sourceRefused`, never an empty answer.
 */
import { QuarryError } from '../../errors.js';
import { rootQuery } from '../kit/apollo.js';
import { jsonLd, scripts } from '../kit/embedded.js';
import { isObj, obj, objs, str, type Obj } from '../kit/read.js';
import type { Stay } from '../kit/stay.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const WEB = 'https://www.booking.com';
export const IMAGES = 'https://cf.bstatic.com';
const PAGE_MAX_BYTES = 12 * 1024 * 1024;
const API_MAX_BYTES = 4 * 1024 * 1024;
const PAGE_HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' };

/** Booking.com's `lang` codes: a bare `en` is US English, other tags lower-cased. */
export const langOf = (language: string): string => (language.toLowerCase() === 'en' ? 'en-us' : language.toLowerCase());

export interface SearchAsk {
  destination: string;
  stay: Stay;
  adults: number;
  childrenAges: number[];
  rooms: number;
  currency: string;
  language: string;
}

/** The results page's address, the parameters the site's own search box writes. */
export function searchUrl(q: SearchAsk, offset: number): string {
  const params = new URLSearchParams({
    ss: q.destination,
    checkin: q.stay.checkIn,
    checkout: q.stay.checkOut,
    group_adults: String(q.adults),
    group_children: String(q.childrenAges.length),
    no_rooms: String(q.rooms),
    selected_currency: q.currency,
    lang: langOf(q.language),
  });
  for (const age of q.childrenAges) params.append('age', String(age));
  if (offset) params.set('offset', String(offset));
  return `${WEB}/searchresults.html?${params}`;
}

async function page(url: string, what: string, ctx: SourceContext): Promise<{ status: number; html: string; url: string }> {
  const res = await ctx.http.request({ url, headers: PAGE_HEADERS, maxBytes: PAGE_MAX_BYTES, passStatuses: [202, 403, 404, 410, 429] }, ctx.signal);
  const html = res.text();
  refuseWalls('booking', res.headers, html);
  if (res.status === 202 || res.status === 403 || res.status === 429) throw new QuarryError('sourceRefused', `booking: Booking.com refused the ${what} (HTTP ${res.status})`);
  return { status: res.status, html, url: res.url };
}

/** The page's Apollo store. */
function apolloStore(html: string): Obj | undefined {
  const tag = scripts(html).find((s) => s.attrs['data-capla-store-data'] === 'apollo');
  if (!tag) return undefined;
  try {
    return obj(JSON.parse(tag.text));
  } catch {
    return undefined;
  }
}

/** The `SearchQueryOutput` of a results page (`results`, `pagination`). */
export async function searchPage(q: SearchAsk, offset: number, ctx: SourceContext): Promise<Obj> {
  const { html } = await page(searchUrl(q, offset), 'search', ctx);
  const store = apolloStore(html);
  const queries = obj(obj(store?.ROOT_QUERY)?.searchQueries);
  if (!store || !queries) throw new QuarryError('sourceChanged', 'booking: the results page carries no Apollo searchQueries');
  const output = rootQuery({ ...store, ROOT_QUERY: queries }, 'search(', (v) => Array.isArray(v.results));
  if (!output) throw new QuarryError('sourceChanged', 'booking: the results page carries no search results');
  return output;
}

/** A property as callers name it: its address on any Booking.com host, or `<country>/<name>`. */
export function hotelPath(input: string): { country: string; name: string } {
  const v = input.trim();
  const m =
    /^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*booking\.com\/hotel\/([a-z]{2})\/([a-z0-9-]{1,200})(?:\.[a-z-]{2,8})?\.html/i.exec(v) ??
    /^([a-z]{2})\/([a-z0-9-]{1,200})$/i.exec(v);
  if (!m) throw new QuarryError('invalidRequest', 'hotel: a booking.com/hotel/<country>/<name>.html address, or <country>/<name>', { retryable: false });
  return { country: m[1].toLowerCase(), name: m[2].toLowerCase() };
}

export interface HotelPage {
  url: string;
  country: string;
  name: string;
  html: string;
  /** The page's schema.org Hotel (or lodging) object. */
  ld?: Obj;
  hotelId?: string;
  ufi?: number;
  csrf?: string;
  latLng?: [number, number];
}

const scriptVar = (html: string, name: string): string | undefined => new RegExp(`\\b${name}\\s*:\\s*['"]?(-?[A-Za-z0-9._-]+)['"]?`).exec(html)?.[1];

export async function hotelPage(input: string, language: string, ctx: SourceContext): Promise<HotelPage> {
  const { country, name } = hotelPath(input);
  const url = `${WEB}/hotel/${country}/${name}.html`;
  const res = await page(`${url}?${new URLSearchParams({ lang: langOf(language) })}`, 'property page', ctx);
  if (res.status === 404 || res.status === 410) throw new QuarryError('notFound', `booking: no property ${country}/${name}`);
  // A property Booking.com no longer lists redirects to a search or the home page.
  if (!/\/hotel\//.test(new URL(res.url).pathname)) throw new QuarryError('notFound', `booking: no property ${country}/${name}`);
  const ld = jsonLd(res.html).find((o) => /Hotel|Lodging|Hostel|Apartment|Resort|BedAndBreakfast|Campground|Motel/i.test(String(o['@type'] ?? '')));
  const latLng = /data-atlas-latlng="(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)"/.exec(res.html);
  const ufi = Number(scriptVar(res.html, 'b_ufi'));
  return {
    url,
    country,
    name,
    html: res.html,
    ld,
    hotelId: scriptVar(res.html, 'b_hotel_id'),
    ufi: Number.isFinite(ufi) ? ufi : undefined,
    csrf: scriptVar(res.html, 'b_csrf_token'),
    latLng: latLng ? [Number(latLng[1]), Number(latLng[2])] : undefined,
  };
}

const REVIEW_LIST_QUERY =
  'query ReviewList($input: ReviewListFrontendInput!) { reviewListFrontend(input: $input) { ' +
  '... on ReviewListFrontendResult { reviewCard { reviewUrl ' +
  'guestDetails { username avatarUrl countryCode countryName anonymous guestTypeTranslation } ' +
  'bookingDetails { customerType roomId roomType { id name } checkoutDate checkinDate numNights stayStatus } ' +
  'reviewedDate isTranslatable helpfulVotesCount reviewScore ' +
  'textDetails { title positiveText negativeText textTrivialFlag lang } isApproved partnerReply { reply } ' +
  'photos { id urls { size url } kind } } reviewsCount } ' +
  '... on ReviewsFrontendError { statusCode message } } }';

/** One page of a property's reviews (`reviewListFrontend`): the review cards and the count. */
export async function reviewList(p: HotelPage, skip: number, limit: number, ctx: SourceContext): Promise<Obj> {
  const hotelId = Number(p.hotelId);
  if (!Number.isFinite(hotelId) || p.ufi === undefined || !p.csrf) throw new QuarryError('sourceChanged', 'booking: the property page carries no b_hotel_id, b_ufi or b_csrf_token');
  const score = Number(/data-review-score="([\d.]+)"/.exec(p.html)?.[1] ?? obj(p.ld?.aggregateRating)?.ratingValue ?? 0);
  const body = {
    operationName: 'ReviewList',
    variables: {
      input: {
        hotelId,
        ufi: p.ufi,
        hotelCountryCode: p.country,
        sorter: 'MOST_RELEVANT',
        filters: { text: '' },
        skip,
        limit,
        hotelScore: Number.isFinite(score) ? score : 0,
        upsortReviewUrl: '',
        searchFeatures: { destId: p.ufi, destType: 'CITY' },
      },
    },
    extensions: {},
    query: REVIEW_LIST_QUERY,
  };
  const res = await ctx.http.request(
    {
      url: `${WEB}/dml/graphql?lang=en-gb`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-booking-csrf-token': p.csrf, origin: WEB, referer: p.url },
      body: JSON.stringify(body),
      maxBytes: API_MAX_BYTES,
      idempotent: true,
      passStatuses: [202, 403, 429],
    },
    ctx.signal,
  );
  refuseWalls('booking', res.headers, res.body);
  if (res.status !== 200) throw new QuarryError('sourceRefused', `booking: Booking.com refused the review request (HTTP ${res.status})`);
  const answer = obj(res.json()) ?? {};
  const errors = objs(answer.errors);
  if (errors.length) throw new QuarryError('sourceChanged', `booking: GraphQL error: ${(str(errors[0].message) ?? 'unknown').slice(0, 200)}`);
  const list = obj(obj(answer.data)?.reviewListFrontend);
  if (!list) throw new QuarryError('sourceChanged', 'booking: the answer carries no reviewListFrontend');
  if (str(list.__typename) === 'ReviewsFrontendError' || (list.statusCode !== undefined && !isObj(list.reviewCard) && !Array.isArray(list.reviewCard))) {
    throw new QuarryError('sourceChanged', `booking: ReviewList error ${String(list.statusCode ?? '')} ${str(list.message) ?? ''}`.trim());
  }
  return list;
}
