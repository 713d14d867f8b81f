/**
 * Airbnb as its web app reads it. Search results and a listing come from the pages anyone is served: both embed the
 * app's GraphQL answers in `<script id="data-deferred-state-0">` as `niobeClientData` pairs `[operation key, answer]`
 * (`StaysSearch:…` → `data.presentation.staysSearch.results`, `StaysPdpSections:…` → `data.node.pdpPresentation` and
 * `data.presentation.stayProductDetailPage`), the layout scrapfly/scrapfly-scrapers' Airbnb scraper reads. Reviews
 * and the availability calendar are the app's persisted GraphQL GETs (`/api/v3/StaysPdpReviewsQuery/{hash}`,
 * `/api/v3/PdpAvailabilityCalendar/{hash}`) with the public web API key every visitor's page carries, as pyairbnb
 * calls them; the key and both hashes are settings with the last known values, since Airbnb rotates them.
 */
import { QuarryError } from '../../errors.js';
import { scriptJsonById } from '../kit/embedded.js';
import { arr, obj, str, type Obj } from '../kit/read.js';
import { refuseWalls } from '../kit/web/walls.js';
import type { SourceContext } from '../types.js';

export const WEB = 'https://www.airbnb.com';
const PAGE_MAX_BYTES = 12 * 1024 * 1024;
const API_MAX_BYTES = 4 * 1024 * 1024;
const PAGE_HEADERS = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' };

/** The public key of Airbnb's web app (`"api_config":{"key":…}` on every page; pyairbnb reads it there). */
export const DEFAULT_API_KEY = 'd306zoyjsyarp7ifhu67rjxn52tv0t20';
/** Persisted-query hashes as pyairbnb (johnbalvin/pyairbnb @ fffe53e8) sends them. */
export const DEFAULT_REVIEWS_HASH = 'dec1c8061483e78373602047450322fd474e79ba9afa8d3dbbc27f504030f91d';
export const DEFAULT_CALENDAR_HASH = '8f08e03c7bd16fcad3c92a3592c19a8b559a0d0855a84028d1163d4733ed9ade';

/** Airbnb's global ids: base64 of `Type:id`. */
export const globalId = (type: string, id: string): string => Buffer.from(`${type}:${id}`).toString('base64');
export function idFromGlobal(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  if (/^\d+$/.test(s)) return s;
  const decoded = /^[A-Za-z0-9+/=]+$/.test(s) ? Buffer.from(s, 'base64').toString('utf8') : '';
  return /^[A-Za-z]+:(\d+)$/.exec(decoded)?.[1];
}

/** A place as Airbnb's search paths write it: words joined by `-`, commas dropped. */
export function searchSlug(location: string): string {
  return encodeURIComponent(location.trim().replace(/,\s*/g, '--').replace(/\s+/g, '-'));
}

/** The answer of the page's first niobe pair whose key starts with `operation`. */
function niobe(html: string, operation: string): Obj | undefined {
  const state = obj(scriptJsonById(html, 'data-deferred-state-0'));
  const pairs = arr(state?.niobeClientData ?? state?.niobeMinimalClientData);
  for (const pair of pairs) {
    const [key, value] = arr(pair);
    if (typeof key === 'string' && key.startsWith(operation)) return obj(value);
  }
  return undefined;
}

async function page(url: string, what: string, ctx: SourceContext): Promise<{ status: number; html: string }> {
  const res = await ctx.http.request({ url, headers: PAGE_HEADERS, maxBytes: PAGE_MAX_BYTES, passStatuses: [403, 404, 410, 429] }, ctx.signal);
  const html = res.text();
  refuseWalls('airbnb', res.headers, html);
  if (res.status === 403 || res.status === 429) throw new QuarryError('sourceRefused', `airbnb: Airbnb refused the ${what} (HTTP ${res.status})`);
  return { status: res.status, html };
}

export interface SearchAsk {
  location: string;
  checkIn?: string;
  checkOut?: string;
  adults: number;
  children: number;
  infants: number;
  pets: number;
  priceMin?: number;
  priceMax?: number;
  currency: string;
  language: string;
}

/** The search page's URL, filters as the site's own search box writes them. */
export function searchUrl(q: SearchAsk, cursor: string | undefined): string {
  const params = new URLSearchParams({ query: q.location, adults: String(q.adults) });
  if (q.children) params.set('children', String(q.children));
  if (q.infants) params.set('infants', String(q.infants));
  if (q.pets) params.set('pets', String(q.pets));
  if (q.checkIn && q.checkOut) {
    params.set('checkin', q.checkIn);
    params.set('checkout', q.checkOut);
  }
  if (q.priceMin !== undefined) params.set('price_min', String(Math.floor(q.priceMin)));
  if (q.priceMax !== undefined) params.set('price_max', String(Math.ceil(q.priceMax)));
  params.set('currency', q.currency);
  params.set('locale', q.language);
  if (cursor) params.set('cursor', cursor);
  return `${WEB}/s/${searchSlug(q.location)}/homes?${params}`;
}

/** `staysSearch.results` of a search page (`searchResults`, `paginationInfo`). */
export async function searchPage(q: SearchAsk, cursor: string | undefined, ctx: SourceContext): Promise<Obj> {
  const { status, html } = await page(searchUrl(q, cursor), 'search', ctx);
  if (status === 404 || status === 410) throw new QuarryError('notFound', `airbnb: Airbnb has no search page for "${q.location}"`);
  const results = obj(obj(obj(obj(niobe(html, 'StaysSearch')?.data)?.presentation)?.staysSearch)?.results);
  if (!results) throw new QuarryError('sourceChanged', 'airbnb: the search page carries no StaysSearch results');
  return results;
}

/** The listing page's StaysPdpSections answer (`data`). */
export async function listingPage(id: string, q: { checkIn?: string; checkOut?: string; adults: number; currency: string; language: string }, ctx: SourceContext): Promise<Obj> {
  const params = new URLSearchParams({ adults: String(q.adults), currency: q.currency, locale: q.language });
  if (q.checkIn && q.checkOut) {
    params.set('check_in', q.checkIn);
    params.set('check_out', q.checkOut);
  }
  const { status, html } = await page(`${WEB}/rooms/${id}?${params}`, 'listing page', ctx);
  if (status === 404 || status === 410) throw new QuarryError('notFound', `airbnb: no listing ${id}`);
  const data = obj(niobe(html, 'StaysPdpSections')?.data);
  if (!data) throw new QuarryError('sourceChanged', 'airbnb: the listing page carries no StaysPdpSections answer');
  return data;
}

/** One persisted-query GET of the web API, with the public key. */
async function persisted(operation: string, hash: string, variables: Obj, locale: string, currency: string, ctx: SourceContext): Promise<Obj> {
  const q = new URLSearchParams({
    operationName: operation,
    locale,
    currency,
    variables: JSON.stringify(variables),
    extensions: JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }),
  });
  const res = await ctx.http.request(
    {
      url: `${WEB}/api/v3/${operation}/${hash}?${q}`,
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-airbnb-api-key': ctx.settings.API_KEY ?? DEFAULT_API_KEY },
      maxBytes: API_MAX_BYTES,
      passStatuses: [400, 401, 403, 404, 429],
    },
    ctx.signal,
  );
  refuseWalls('airbnb', res.headers, res.body);
  if (res.status === 401) throw new QuarryError('sourceUnavailable', 'airbnb: Airbnb refused the web API key; set QUARRY_AIRBNB_API_KEY to the key its pages carry', { retryable: false });
  if (res.status === 403 || res.status === 429) throw new QuarryError('sourceRefused', `airbnb: Airbnb refused the ${operation} request (HTTP ${res.status})`);
  const answer = obj(res.status === 404 ? undefined : safeJson(res.text())) ?? {};
  const errors = arr(answer.errors);
  if (errors.length || res.status !== 200) {
    const message = str(obj(errors[0])?.message) ?? `HTTP ${res.status}`;
    // An unknown hash is Airbnb's PersistedQueryNotFound: the operator's setting is stale.
    const setting = operation === 'PdpAvailabilityCalendar' ? 'QUARRY_AIRBNB_CALENDAR_HASH' : 'QUARRY_AIRBNB_REVIEWS_HASH';
    throw new QuarryError('sourceChanged', `airbnb: ${operation} failed (${message.slice(0, 160)}); the persisted query may have rotated: ${setting}`);
  }
  return obj(answer.data) ?? {};
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One page of a listing's reviews, newest first (`data.presentation.stayProductDetailPage.reviews`). */
export async function reviewsPage(id: string, offset: number, limit: number, language: string, ctx: SourceContext): Promise<Obj> {
  const variables = {
    id: globalId('StayListing', id),
    pdpReviewsRequest: {
      fieldSelector: 'for_p3_translation_only',
      forPreview: false,
      limit,
      offset: String(offset),
      showingTranslationButton: false,
      first: limit,
      sortingPreference: 'MOST_RECENT',
      numberOfAdults: '1',
      numberOfChildren: '0',
      numberOfInfants: '0',
      numberOfPets: '0',
      after: null,
    },
  };
  const data = await persisted('StaysPdpReviewsQuery', ctx.settings.REVIEWS_HASH ?? DEFAULT_REVIEWS_HASH, variables, language, 'USD', ctx);
  const reviews = obj(obj(obj(data.presentation)?.stayProductDetailPage)?.reviews);
  if (!reviews) throw new QuarryError('notFound', `airbnb: no reviews answer for listing ${id}`);
  return reviews;
}

/** The calendar months from `month`/`year` on (`data.merlin.pdpAvailabilityCalendar.calendarMonths`). */
export async function calendarMonths(id: string, month: number, year: number, count: number, currency: string, ctx: SourceContext): Promise<unknown[]> {
  const data = await persisted('PdpAvailabilityCalendar', ctx.settings.CALENDAR_HASH ?? DEFAULT_CALENDAR_HASH, { request: { count, listingId: id, month, year } }, 'en', currency, ctx);
  const calendar = obj(obj(data.merlin)?.pdpAvailabilityCalendar);
  if (!calendar) throw new QuarryError('notFound', `airbnb: no calendar for listing ${id}`);
  if (!Array.isArray(calendar.calendarMonths)) throw new QuarryError('sourceChanged', 'airbnb: the calendar answer has no calendarMonths');
  return calendar.calendarMonths;
}
