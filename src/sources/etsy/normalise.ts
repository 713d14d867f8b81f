/**
 * Etsy answers into the shared listing and shop records. Pure functions over the Open API v3's listing and shop
 * objects (prices as `{amount, divisor, currency_code}`, times as Unix seconds, texts HTML-escaped) and over a listing
 * page's schema.org Product (an AggregateOffer's range when the listing has variations).
 */
import type { ETSY_LISTING, ETSY_SHOP } from '../../catalogue/endpoints/etsy.js';
import type { TypeOf } from '../../catalogue/types.js';
import { jsonLd } from '../kit/embedded.js';
import { money, moneyFromMinor } from '../kit/money.js';
import { arr, compact, int, isoFromSeconds, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import { parseHtml } from '../kit/web/dom.js';
import { textOf } from '../kit/web/select.js';

export type EtsyListing = TypeOf<typeof ETSY_LISTING>;
export type EtsyShop = TypeOf<typeof ETSY_SHOP>;

const ETSY = 'https://www.etsy.com';

/** Etsy escapes its texts (`&quot;`, `&#39;`): unescaped here, line breaks kept. */
export function unescape(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  return /&[#a-z0-9]+;/i.test(s) ? textOf(parseHtml(s.replace(/</g, '&lt;'))) : s;
}

const strings = (v: unknown): string[] => arr(v).flatMap((x) => unescape(x) ?? []);

export function listingFromApi(o: Obj, position?: number): EtsyListing | undefined {
  const id = o.listing_id !== undefined ? String(int(o.listing_id) ?? '') : '';
  const title = unescape(o.title);
  if (!id || !title) return undefined;
  const price = obj(o.price);
  const shop = obj(o.shop);
  const images = objs(o.images)
    .sort((a, b) => (num(a.rank) ?? 0) - (num(b.rank) ?? 0))
    .flatMap((i) => {
      const url = str(i.url_fullxfull) ?? str(i.url_570xN);
      return url ? [compact({ url, width: int(i.full_width), height: int(i.full_height), alt: unescape(i.alt_text) })] : [];
    });
  const shopName = str(shop?.shop_name);
  return compact({
    type: 'product' as const,
    id,
    url: str(o.url)?.replace(/\?.*$/, '') ?? `${ETSY}/listing/${id}`,
    title,
    description: unescape(o.description),
    price: moneyFromMinor(price?.amount, price?.divisor, price?.currency_code),
    images,
    seller: compact({ id: o.shop_id !== undefined ? String(o.shop_id) : undefined, username: shopName, url: shopName ? `${ETSY}/shop/${shopName}` : undefined }),
    availability: str(o.state),
    tags: strings(o.tags),
    materials: strings(o.materials),
    favorites: int(o.num_favorers),
    views: int(o.views),
    quantity: int(o.quantity),
    createdAt: isoFromSeconds(o.created_timestamp ?? o.creation_timestamp),
    updatedAt: isoFromSeconds(o.updated_timestamp ?? o.last_modified_timestamp),
    position,
  });
}

/** A listing page's schema.org Product (the keyless path). */
export function listingFromPage(html: string, id: string): EtsyListing | undefined {
  const product = jsonLd(html).find((o) => o['@type'] === 'Product');
  if (!product) return undefined;
  const offers = obj(product.offers);
  const currency = offers?.priceCurrency;
  const low = money(offers?.lowPrice ?? offers?.price, currency);
  const high = money(offers?.highPrice, currency);
  const rating = obj(product.aggregateRating);
  const value = num(rating?.ratingValue);
  // The shop is named by the page's marketplace meta tag (etsymarketplace:shop) and by the Product's brand.
  const shopUrl = /<meta property="etsymarketplace:shop" content="([^"]+)"/.exec(html.slice(0, 200_000))?.[1];
  const shopName = shopUrl ? /\/shop\/([^/?#]+)/.exec(shopUrl)?.[1] : str(product.brand);
  const images = (Array.isArray(product.image) ? product.image : [product.image]).flatMap((u) => (str(u) ? [{ url: str(u)! }] : []));
  return compact({
    type: 'product' as const,
    id,
    url: `${ETSY}/listing/${id}`,
    title: need(unescape(product.name), 'etsy', `listing ${id} has no name`),
    description: unescape(product.description),
    price: low,
    priceRange: low && high && high.amount > low.amount ? { currency: low.currency, min: low.amount, max: high.amount } : undefined,
    rating: value !== undefined ? compact({ value, max: 5, count: int(rating?.reviewCount) ?? int(rating?.ratingCount) }) : undefined,
    images,
    seller: shopName ? { username: shopName, url: `${ETSY}/shop/${shopName}` } : undefined,
    availability: str(offers?.availability)?.replace(/^https?:\/\/schema\.org\//, ''),
    category: str(product.category)?.split(/\s*<\s*/).join(' › '),
  });
}

export function shopFromApi(o: Obj): EtsyShop {
  const id = String(need(int(o.shop_id), 'etsy', 'a shop without shop_id'));
  const name = need(str(o.shop_name), 'etsy', `shop ${id} has no name`);
  const average = num(o.review_average);
  const location = [str(o.shop_location_country_iso), str(o.shipping_from_country_iso)].find(Boolean);
  return compact({
    type: 'shop' as const,
    id,
    url: str(o.url)?.replace(/\?.*$/, '') ?? `${ETSY}/shop/${name}`,
    name,
    username: str(o.login_name),
    title: unescape(o.title),
    announcement: unescape(o.announcement),
    avatar: str(o.icon_url_fullxfull),
    banner: str(o.image_url_760x100),
    createdAt: isoFromSeconds(o.created_timestamp ?? o.create_date),
    location,
    followers: int(o.num_favorers),
    rating: average !== undefined && (int(o.review_count) ?? 0) > 0 ? compact({ value: average, max: 5, count: int(o.review_count) }) : undefined,
    sales: int(o.transaction_sold_count),
    listings: int(o.listing_active_count),
    currency: str(o.currency_code),
    isVacation: o.is_vacation === true ? true : o.is_vacation === false ? false : undefined,
  });
}
