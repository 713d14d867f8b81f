/**
 * What the marketplaces (amazon, ebay, walmart, etsy) and the app stores (appstore, googleplay) share: their records,
 * built once from the vocabulary so a product, a review, a shop and an app read alike in every one of them, and the
 * inputs every marketplace search takes (price range, condition, the page cursor).
 */
import { choice, cursor, number, text } from './fields.js';
import { bool, int, literal, rec, str } from './records.js';
import type { JsonSchema } from './types.js';
import { APP_FIELDS, MONEY_RANGE, PERSON, PRODUCT_FIELDS, PROFILE_FIELDS, RATING, REVIEW_FIELDS } from './vocabulary.js';

/** A product or listing: the platform's id, its page, its title; the rest where the page shows it. */
export function productRecord<S extends Record<string, JsonSchema> = {}>(extra?: S) {
  const { url: _url, title: _title, ...rest } = PRODUCT_FIELDS;
  return rec(
    { type: literal('product'), id: str, url: str, title: str },
    {
      ...rest,
      /** A listing offered at a range of prices (variations): its bounds; `price` is the lowest. */
      priceRange: MONEY_RANGE,
      /** Position on the page of results it was found on, from 1. */
      position: int,
      ...(extra ?? ({} as S)),
    },
  );
}

/** A customer review of a product, a shop or an app. Every store's review carries its star rating. */
export function reviewRecord<S extends Record<string, JsonSchema> = {}>(extra?: S) {
  const { rating, ...rest } = REVIEW_FIELDS;
  return rec({ type: literal('review'), id: str, rating }, { ...rest, ...(extra ?? ({} as S)) });
}

/** A shop or seller: the profile vocabulary plus its rating, sales and listings. */
export const SHOP = rec(
  { type: literal('shop'), id: str, url: str, name: str },
  {
    username: PROFILE_FIELDS.username,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    createdAt: PROFILE_FIELDS.createdAt,
    location: PROFILE_FIELDS.location,
    website: PROFILE_FIELDS.website,
    followers: PROFILE_FIELDS.followers,
    owner: PERSON,
    title: str,
    announcement: str,
    rating: RATING,
    sales: int,
    listings: int,
    currency: str,
    isVacation: bool,
  },
);

/** An app of an app store (APP_FIELDS); `id` is the store's own (a numeric App Store id, a Play package name). */
export function appRecord<S extends Record<string, JsonSchema> = {}>(extra?: S) {
  const { url: _url, title: _title, ...rest } = APP_FIELDS;
  return rec({ type: literal('app'), id: str, url: str, title: str }, { ...rest, ...(extra ?? ({} as S)) });
}

// Inputs every marketplace search takes.

export const priceMin = () => number(0, 1_000_000_000);
export const priceMax = () => number(0, 1_000_000_000);

/** Item condition; `any` asks for every condition. */
export const CONDITIONS = ['any', 'new', 'used', 'refurbished'] as const;
export const condition = () => ({ ...choice(CONDITIONS, 'any'), description: 'item condition' });

/**
 * A cursor over numbered result pages: the next page's number, or `N~page` when `limit` stopped after N results of
 * that page (the rest is still owed, ./sources/kit/paging.ts).
 */
export const pageCursor = () => cursor('^(?:[0-9]{1,4}~[0-9]{0,3}|[0-9]{1,3})$', 'a page number, or N~page', 8);
export const PAGE_TOKEN = /^[1-9][0-9]{0,2}$/;

/** A product, listing or app given as the platform's id or its address. */
export const itemRef = (what: string) => text(1, 2048, what);
