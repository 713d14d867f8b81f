/**
 * Amazon pages into the shared product and review records. Pure functions over the bounded DOM: product pages by
 * their stable element ids (`productTitle`, `acrPopover`, `bylineInfo`, the price blocks, `feature-bullets`, the
 * details tables), search results by their `s-search-result` cards, best-seller lists by their `gridItemRoot` cells,
 * reviews by their `data-hook` marks. Prices are read in the marketplace's currency unless the text names another.
 */
import type { Element } from 'domhandler';
import type { AMAZON_PRODUCT, AMAZON_REVIEW } from '../../catalogue/endpoints/amazon.js';
import type { TypeOf } from '../../catalogue/types.js';
import { dayFromText } from '../kit/local-date.js';
import { parseMoney, type Money } from '../kit/money.js';
import { compact, count, need } from '../kit/read.js';
import { parseHtml } from '../kit/web/dom.js';
import { all, attr, both, first, hasClass, lineOf, named, textOf, withAttr, withId, type Match } from '../kit/web/select.js';
import type { Market } from './markets.js';

export type AmazonProduct = TypeOf<typeof AMAZON_PRODUCT>;
export type AmazonReview = TypeOf<typeof AMAZON_REVIEW>;
type Root = ReturnType<typeof parseHtml>;

export const parsePage = (html: string): Root => parseHtml(html);

const ASIN = /^[A-Z0-9]{10}$/;

/** "4,1 de 5 estrellas", "4.7 out of 5 stars", "5,0 von 5 Sternen" → the first number, decimal comma or point. */
export function starsOf(text: string | undefined): number | undefined {
  const m = /(\d+(?:[.,]\d+)?)/.exec(text ?? '');
  const n = m ? Number(m[1].replace(',', '.')) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 5 ? n : undefined;
}

/** A count Amazon prints with grouping in any locale ("5.182 valoraciones", "21,200 ratings", "(1.2K)"). */
function countOf(text: string | undefined): number | undefined {
  if (!text) return undefined;
  if (/\d\s*[KMB]\b/i.test(text)) return count(text);
  const digits = /\d[\d.,\s\u00a0\u202f]*/.exec(text)?.[0].replace(/\D/g, '');
  return digits ? Number(digits) : undefined;
}

const moneyIn = (text: string | undefined, market: Market): Money | undefined => parseMoney(text, { currency: market.currency });

/** The first element of `root` matching one of `ids`, in that order of preference. */
function firstById(root: Root | Element, ids: string[]): Element | undefined {
  for (const id of ids) {
    const e = first(root, withId(id));
    if (e) return e;
  }
  return undefined;
}

const offscreen = (e: Element | undefined): string | undefined => lineOf(first(e, hasClass('a-offscreen')));
const notStruck: Match = (e) => hasClass('a-price')(e) && e.attribs['data-a-strike'] !== 'true' && !hasClass('a-text-price')(e);
const struck: Match = (e) => hasClass('a-price')(e) && (e.attribs['data-a-strike'] === 'true' || hasClass('a-text-price')(e));

// Product pages.

const PRICE_BLOCKS = [
  'corePriceDisplay_desktop_feature_div', 'corePrice_feature_div', 'corePrice_desktop', 'apex_desktop', 'priceblock_dealprice',
  'priceblock_ourprice', 'priceblock_saleprice', 'kindle-price', 'price', 'newBuyBoxPrice', 'tp_price_block_total_price_ww',
];

function pagePrice(root: Root, market: Market): { price?: Money; listPrice?: Money } {
  for (const id of PRICE_BLOCKS) {
    const block = first(root, withId(id));
    if (!block) continue;
    const price = moneyIn(offscreen(first(block, notStruck)) ?? (block.attribs.id === 'kindle-price' || block.attribs.id?.startsWith('priceblock') ? lineOf(block) : undefined), market);
    if (price) return { price, listPrice: moneyIn(offscreen(first(block, struck)), market) };
  }
  return {};
}

/** The images the page names: the main image's largest size (data-old-hires, else its dynamic sizes), else its src. */
function pageImages(root: Root): { url: string; width?: number; height?: number }[] {
  const img = firstById(root, ['landingImage', 'imgBlkFront', 'ebooksImgBlkFront', 'main-image']);
  if (!img) return [];
  const hires = attr(img, 'data-old-hires');
  if (hires) return [{ url: hires }];
  try {
    const sizes = Object.entries(JSON.parse(attr(img, 'data-a-dynamic-image') ?? '{}') as Record<string, [number, number]>);
    sizes.sort((a, b) => b[1][0] * b[1][1] - a[1][0] * a[1][1]);
    if (sizes.length) return [{ url: sizes[0][0], width: sizes[0][1][0], height: sizes[0][1][1] }];
  } catch {
    /* not JSON: fall back to src */
  }
  const src = attr(img, 'src');
  return src && /^https?:/.test(src) ? [{ url: src }] : [];
}

/** Rows of the product details tables and bullets, as name/value pairs (ratings and rank widgets left out). */
function pageAttributes(root: Root): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  const add = (name: string | undefined, value: string | undefined) => {
    const n = name?.replace(/[\u200e\u200f:]/g, '').trim();
    const v = value?.replace(/[\u200e\u200f]/g, '').trim();
    if (n && v && n.length <= 100 && v.length <= 1000 && !out.some((a) => a.name === n)) out.push({ name: n, value: v });
  };
  for (const table of all(root, (e) => e.name === 'table' && /^productDetails_/.test(e.attribs.id ?? ''))) {
    for (const row of all(table, named('tr'))) {
      const value = first(row, named('td'));
      if (!value || first(value, (e) => hasClass('a-icon-star')(e) || withId('acrPopover')(e))) continue;
      add(lineOf(first(row, named('th'))), lineOf(value));
    }
  }
  const bullets = first(root, withId('detailBullets_feature_div'));
  for (const item of all(bullets, hasClass('a-list-item'))) {
    const parts = all(item, named('span')).filter((s) => s.parent === item).map((s) => lineOf(s));
    if (parts.length >= 2) add(parts[0], parts.slice(1).join(' '));
  }
  return out;
}

function brandOf(root: Root): string | undefined {
  const href = attr(first(root, withId('bylineInfo')), 'href') ?? '';
  const m = /\/stores\/([^/]+)\/page\//.exec(href);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1].replace(/\+/g, ' '));
  } catch {
    return m[1];
  }
}

function authorsOf(root: Root): string[] {
  const byline = first(root, withId('bylineInfo'));
  return all(byline, hasClass('author')).flatMap((a) => lineOf(first(a, named('a'))) ?? []);
}

export function productFromPage(root: Root, asin: string, market: Market): AmazonProduct {
  const title = need(lineOf(first(root, withId('productTitle'))), 'amazon', `the product page of ${asin} has no productTitle`);
  const stars = starsOf(attr(first(root, withId('acrPopover')), 'title') ?? lineOf(first(first(root, withId('acrPopover')), hasClass('a-icon-alt'))));
  const ratings = countOf(lineOf(first(root, withId('acrCustomerReviewText'))));
  const { price, listPrice } = pagePrice(root, market);
  const features = all(first(root, withId('feature-bullets')), both(named('span'), hasClass('a-list-item'))).flatMap((s) => lineOf(s) ?? []);
  const breadcrumbs = all(first(root, withId('wayfinding-breadcrumbs_feature_div')), named('a')).flatMap((a) => lineOf(a) ?? []);
  const sellerLink = first(root, withId('sellerProfileTriggerId'));
  const sellerId = /[?&]seller=([A-Z0-9]+)/.exec(attr(sellerLink, 'href') ?? '')?.[1];
  return compact({
    type: 'product' as const,
    id: asin,
    url: `https://${market.host}/dp/${asin}`,
    title,
    description: textOf(firstById(root, ['productDescription', 'bookDescription_feature_div'])),
    brand: brandOf(root),
    authors: authorsOf(root),
    price,
    listPrice,
    rating: stars !== undefined ? compact({ value: stars, max: 5, count: ratings }) : undefined,
    images: pageImages(root),
    seller: sellerLink ? compact({ id: sellerId, name: lineOf(sellerLink), url: sellerId ? `https://${market.host}/sp?seller=${sellerId}` : undefined }) : undefined,
    availability: lineOf(first(root, withId('availability'))),
    category: breadcrumbs.length ? breadcrumbs.join(' › ') : undefined,
    features,
    attributes: pageAttributes(root),
  });
}

// Search results.

function cardProduct(card: Element, position: number, market: Market): AmazonProduct | undefined {
  const asin = card.attribs['data-asin'];
  if (!asin || !ASIN.test(asin)) return undefined;
  const heads = all(card, named('h2'));
  const titled = heads.filter((h) => first(h, named('a')) || first(h.parent ?? undefined, (e) => e.name === 'a'));
  const title = lineOf(titled.at(-1) ?? heads.at(-1));
  if (!title) return undefined;
  const brand = heads.length > 1 && heads[0] !== (titled.at(-1) ?? heads.at(-1)) ? lineOf(heads[0]) : undefined;
  const img = first(card, both(named('img'), hasClass('s-image')));
  const starLabel = lineOf(first(card, (e) => hasClass('a-icon-alt')(e) && !!e.parent && /a-icon-star/.test(e.parent.type === 'tag' ? (e.parent as Element).attribs.class ?? '' : '')));
  const stars = starsOf(starLabel);
  const reviewsLink = first(card, (e) => e.name === 'a' && /#customerReviews/.test(e.attribs.href ?? ''));
  const sponsored =
    /\bAdHolder\b/.test(card.attribs.class ?? '') || !!first(card, (e) => /(?:^|\s)(?:s-sponsored-label-text|puis-sponsored-label-text)(?:\s|$)/.test(e.attribs.class ?? ''));
  return compact({
    type: 'product' as const,
    id: asin,
    url: `https://${market.host}/dp/${asin}`,
    title,
    brand,
    price: moneyIn(offscreen(first(card, notStruck)), market),
    listPrice: moneyIn(offscreen(first(card, struck)), market),
    rating: stars !== undefined ? compact({ value: stars, max: 5, count: countOf(lineOf(reviewsLink)) }) : undefined,
    images: attr(img, 'src') ? [compact({ url: attr(img, 'src')!, alt: attr(img, 'alt') })] : [],
    isSponsored: sponsored,
    position,
  });
}

export function searchResults(root: Root, market: Market): { products: AmazonProduct[]; hasNext: boolean } {
  const cards = all(root, (e) => e.attribs['data-component-type'] === 's-search-result');
  const products = cards.flatMap((c, i) => cardProduct(c, i + 1, market) ?? []);
  const next = first(root, (e) => hasClass('s-pagination-next')(e) && e.name === 'a');
  return { products, hasNext: !!next };
}

/** Whether a page is a search results page at all (its result list's slot is there, results or none). */
export function isSearchPage(root: Root): boolean {
  return !!first(root, (e) => e.attribs['data-component-type'] === 's-search-result' || /\bs-main-slot\b/.test(e.attribs.class ?? '') || e.attribs['data-component-type'] === 's-messaging-widget-results-header');
}

// Best-seller lists.

export function bestsellers(root: Root, market: Market): AmazonProduct[] {
  const cells = all(root, withId('gridItemRoot'));
  return cells.flatMap((cell, i) => {
    const faceout = first(cell, (e) => hasClass('p13n-sc-uncoverable-faceout')(e) && ASIN.test(e.attribs.id ?? ''));
    const asin = faceout?.attribs.id;
    if (!asin) return [];
    const img = first(cell, named('img'));
    const titleLink = all(cell, (e) => e.name === 'a' && /\/dp\//.test(e.attribs.href ?? '')).find((a) => !!lineOf(a));
    const title = lineOf(titleLink) ?? attr(img, 'alt');
    if (!title) return [];
    const ratingLink = first(cell, (e) => e.name === 'a' && /\/product-reviews\//.test(e.attribs.href ?? ''));
    const stars = starsOf(attr(ratingLink, 'title'));
    const rank = Number(/#?\s*(\d+)/.exec(lineOf(first(cell, hasClass('zg-bdg-text'))) ?? '')?.[1] ?? i + 1);
    return [
      compact({
        type: 'product' as const,
        id: asin,
        url: `https://${market.host}/dp/${asin}`,
        title,
        price: moneyIn(lineOf(first(cell, hasClass('a-color-price'))), market),
        rating: stars !== undefined ? compact({ value: stars, max: 5, count: countOf(lineOf(first(ratingLink, hasClass('a-size-small')))) }) : undefined,
        images: attr(img, 'src') ? [compact({ url: attr(img, 'src')!, alt: attr(img, 'alt') })] : [],
        rank,
        position: i + 1,
      }),
    ];
  });
}

// Reviews (the product page's top reviews and the signed-in review pages share their markup).

const hook = (name: string): Match => withAttr('data-hook', name);

function reviewOf(e: Element, market: Market): AmazonReview | undefined {
  const id = e.attribs.id;
  const stars = starsOf(lineOf(first(e, (x) => hook('review-star-rating')(x) || hook('cmps-review-star-rating')(x))));
  if (!id || stars === undefined) return undefined;
  const titleLink = first(e, hook('review-title'));
  const titleSpans = all(titleLink, named('span')).filter((s) => !hasClass('a-icon-alt')(s) && !hasClass('a-letter-space')(s));
  const profile = first(e, both(named('a'), hasClass('a-profile')));
  const profileHref = attr(profile, 'href');
  const avatar = attr(first(profile, named('img')), 'data-src') ?? attr(first(profile, named('img')), 'src');
  const dated = lineOf(first(e, hook('review-date')));
  const body = first(e, hook('review-collapsed')) ?? first(e, hook('review-body'));
  const bodyText = textOf(first(body, (x) => x.name === 'span' && !x.attribs.class) ?? body);
  const helpfulText = lineOf(first(e, hook('helpful-vote-statement')));
  const helpful = helpfulText ? countOf(helpfulText) ?? (/\b(?:one|una?|eine?|une)\b/i.test(helpfulText) ? 1 : undefined) : undefined;
  const images = all(e, (x) => x.name === 'img' && /review-image/.test(`${x.attribs['data-hook'] ?? ''} ${x.attribs.class ?? ''}`)).flatMap((img) => {
    const src = attr(img, 'src');
    return src && /^https?:/.test(src) ? [{ url: src }] : [];
  });
  return compact({
    type: 'review' as const,
    id,
    rating: stars,
    url: `https://${market.host}/gp/customer-reviews/${id}`,
    title: lineOf(titleSpans.at(-1)),
    text: bodyText,
    createdAt: dayFromText(dated, market.country === 'us' ? 'mdy' : 'dmy'),
    author: compact({
      id: /amzn1\.account\.[A-Z0-9]+/.exec(profileHref ?? '')?.[0],
      name: lineOf(first(e, hasClass('a-profile-name'))),
      url: profileHref ? new URL(profileHref, `https://${market.host}`).href.replace(/\/ref=[^?]*/, '').replace(/\?.*$/, '') : undefined,
      avatar: avatar && !/grey-pixel/.test(avatar) ? avatar : undefined,
    }),
    helpful,
    isVerified: first(e, (x) => hook('avp-badge')(x) || hook('avp-badge-linkless')(x)) ? true : undefined,
    images,
  });
}

export function reviewsOf(root: Root, market: Market): AmazonReview[] {
  const seen = new Set<string>();
  return all(root, hook('review')).flatMap((e) => {
    const r = reviewOf(e, market);
    if (!r || seen.has(r.id)) return [];
    seen.add(r.id);
    return [r];
  });
}

/** Whether a signed-in review page offers a next page (its pagination's "next" link). */
export function hasNextReviews(root: Root): boolean {
  return !!first(root, (e) => hasClass('a-last')(e) && !!first(e, named('a')));
}
