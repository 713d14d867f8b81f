/**
 * eBay answers into the shared listing record. Pure functions: search result cards of both layouts eBay has served
 * (`li.s-item`, recorded; `li.s-card`, eBay's 2025 cards, as public scrapers read them), a listing page's schema.org
 * Product, and the Browse API's item summaries and items. Prices are read in the site's currency unless the text
 * names another ("US $20.00" on ebay.de stays dollars).
 */
import type { Element } from 'domhandler';
import type { EBAY_ITEM } from '../../catalogue/endpoints/ebay.js';
import type { TypeOf } from '../../catalogue/types.js';
import { jsonLd } from '../kit/embedded.js';
import { dayFromText } from '../kit/local-date.js';
import { money, parseMoney, type Money } from '../kit/money.js';
import { arr, changed, compact, int, isoFromText, need, obj, objs, str, type Obj } from '../kit/read.js';
import { parseHtml } from '../kit/web/dom.js';
import { all, attr, first, hasClass, lineOf } from '../kit/web/select.js';
import type { Site } from './sites.js';

export type EbayItem = TypeOf<typeof EBAY_ITEM>;

const itemUrl = (site: Site, id: string) => `https://${site.host}/itm/${id}`;
const idOfHref = (href: string | undefined): string | undefined => /\/itm\/(?:[^/?#]+\/)?(\d{9,15})(?:[/?#]|$)/.exec(href ?? '')?.[1];
/** "Kostenloser Versand", "Free shipping", "Livraison gratuite", "Envío gratis", "Spedizione gratuita". */
const FREE = /\b(?:free|kostenlos\w*|gratuit\w*|gratis|gratuita|darmowa)\b/i;

function shippingOf(text: string | undefined, site: Site): Money | undefined {
  if (!text) return undefined;
  if (FREE.test(text)) return { amount: 0, currency: site.currency };
  return parseMoney(text, { currency: site.currency });
}

/** A price or a price range ("EUR 10,00 bis EUR 20,00", "$5.00 to $9.00"): the lowest, and the range when there is one. */
function priceOf(text: string | undefined, site: Site): { price?: Money; priceRange?: { currency: string; min: number; max: number } } {
  if (!text) return {};
  const parts = text.split(/\s+(?:to|bis|à|a|a partir de|do|tot)\s+/i);
  const low = parseMoney(parts[0], { currency: site.currency });
  const high = parts.length > 1 ? parseMoney(parts[parts.length - 1], { currency: site.currency }) : undefined;
  if (low && high && high.currency === low.currency && high.amount > low.amount) return { price: low, priceRange: { currency: low.currency, min: low.amount, max: high.amount } };
  return { price: low };
}

const numberIn = (text: string | undefined): number | undefined => {
  const digits = /\d[\d.,\s]*/.exec(text ?? '')?.[0].replace(/\D/g, '');
  return digits ? Number(digits) : undefined;
};

// Search result cards.

function legacyCard(li: Element, position: number, site: Site, sold: boolean): EbayItem | undefined {
  const link = first(li, hasClass('s-item__link'));
  const id = idOfHref(attr(link, 'href'));
  const heading = first(first(li, hasClass('s-item__title')), (e) => e.attribs.role === 'heading') ?? first(li, hasClass('s-item__title'));
  // "Neues Angebot" / "New listing" is a highlight inside the heading, not part of the title.
  const title = lineOf(heading)?.replace(lineOf(first(heading, hasClass('LIGHT_HIGHLIGHT'))) ?? '\u0000', '').trim();
  if (!id || !title || /^shop on ebay$/i.test(title) || id === '123456') return undefined;
  const img = first(li, hasClass('s-item__image-img'));
  const tag = first(li, (e) => /s-item__title--tag/.test(e.attribs.class ?? ''));
  const soldText = sold ? lineOf(first(tag, hasClass('POSITIVE')) ?? tag) : undefined;
  return compact({
    type: 'product' as const,
    id,
    url: itemUrl(site, id),
    title,
    ...priceOf(lineOf(first(li, hasClass('s-item__price'))), site),
    listPrice: parseMoney(lineOf(first(first(li, hasClass('s-item__trending-price')), hasClass('STRIKETHROUGH'))), { currency: site.currency }),
    condition: lineOf(first(first(li, hasClass('s-item__subtitle')), hasClass('SECONDARY_INFO'))),
    images: attr(img, 'src') && !/ir\.ebaystatic\.com\/rs\//.test(attr(img, 'src')!) ? [compact({ url: attr(img, 'src')!, alt: attr(img, 'alt') })] : [],
    bids: numberIn(lineOf(first(li, hasClass('s-item__bids')))),
    sold: numberIn(lineOf(first(li, hasClass('s-item__quantitySold')))),
    shipping: shippingOf(lineOf(first(li, hasClass('s-item__shipping'))), site),
    soldAt: dayFromText(soldText, site.country === 'us' ? 'mdy' : 'dmy'),
    isSponsored: first(li, (e) => /s-item__title--tagblock__SPONSORED/.test(e.attribs.class ?? '')) ? true : undefined,
    position,
  });
}

function cardRow(li: Element, pattern: RegExp): string | undefined {
  return all(li, (e) => hasClass('s-card__attribute-row')(e) || hasClass('s-card__caption')(e)).map((r) => lineOf(r) ?? '').find((t) => pattern.test(t));
}

function newCard(li: Element, position: number, site: Site, sold: boolean): EbayItem | undefined {
  const id = li.attribs['data-listingid'] ?? idOfHref(attr(first(li, (e) => e.name === 'a' && /\/itm\//.test(e.attribs.href ?? '')), 'href'));
  const title = lineOf(first(li, hasClass('s-card__title')))?.replace(/\s*(?:Opens in a new window or tab|Wird in neuem Fenster oder Tab geöffnet)$/i, '');
  if (!id || !/^\d{9,15}$/.test(id) || !title || /^shop on ebay$/i.test(title)) return undefined;
  const img = first(li, (e) => e.name === 'img' && (hasClass('s-card__image')(e) || /ebayimg/.test(e.attribs.src ?? '')));
  const caption = lineOf(first(li, hasClass('s-card__caption')));
  return compact({
    type: 'product' as const,
    id,
    url: itemUrl(site, id),
    title,
    ...priceOf(lineOf(first(li, hasClass('s-card__price'))), site),
    condition: lineOf(first(li, hasClass('s-card__subtitle'))),
    images: attr(img, 'src') ? [compact({ url: attr(img, 'src')!, alt: attr(img, 'alt') })] : [],
    bids: numberIn(cardRow(li, /\b(?:bids?|Gebote?|enchères?|ofertas|offerte)\b/i)),
    shipping: shippingOf(cardRow(li, /(?:shipping|delivery|Versand|livraison|envío|spedizione)/i), site),
    soldAt: sold ? dayFromText(caption, site.country === 'us' ? 'mdy' : 'dmy') : undefined,
    position,
  });
}

export interface Cards {
  items: EbayItem[];
  /** Result cards on the page, read or not (cards that all fail to read are drift, not an empty search). */
  cards: number;
  hasNext: boolean;
  /** Whether the page has a result list at all (a page without one is drift, not an empty search). */
  isResults: boolean;
}

export function searchCards(html: string, site: Site, sold: boolean): Cards {
  const root = parseHtml(html);
  const river = first(root, (e) => e.attribs.id === 'srp-river-results' || hasClass('srp-results')(e));
  const cards = all(river ?? root, (e) => e.name === 'li' && (hasClass('s-item')(e) || hasClass('s-card')(e)));
  const items: EbayItem[] = [];
  for (const li of cards) {
    const item = hasClass('s-card')(li) ? newCard(li, items.length + 1, site, sold) : legacyCard(li, items.length + 1, site, sold);
    if (item && !items.some((i) => i.id === item.id)) items.push(item);
  }
  const next = first(root, (e) => hasClass('pagination__next')(e) && e.name === 'a' && e.attribs['aria-disabled'] !== 'true' && !!e.attribs.href);
  const isResults = !!river || !!first(root, (e) => hasClass('srp-controls')(e) || hasClass('srp-save-null-search')(e) || e.attribs.id === 'srp-river-main');
  return { items, cards: cards.length, hasNext: !!next, isResults };
}

// A listing page.

export function itemFromPage(html: string, id: string, site: Site): EbayItem | undefined {
  const product = jsonLd(html).find((o) => o['@type'] === 'Product' || (Array.isArray(o['@type']) && o['@type'].includes('Product')));
  if (!product) return undefined;
  const offers = obj(product.offers) ?? objs(product.offers)[0];
  const root = parseHtml(html);
  const sellerCard = first(root, (e) => /\bx-sellercard-atf\b/.test(e.attribs.class ?? '') || e.attribs['data-testid'] === 'x-sellercard-atf');
  const sellerLink = first(sellerCard, (e) => e.name === 'a' && /\/(?:str|usr)\/[^/?#]+/.test(e.attribs.href ?? ''));
  const username = /\/(?:str|usr)\/([^/?#]+)/.exec(attr(sellerLink, 'href') ?? '')?.[1];
  const images = (Array.isArray(product.image) ? product.image : [product.image]).flatMap((u) => (str(u) ? [{ url: str(u)! }] : []));
  const condition = str(offers?.itemCondition)?.replace(/^https?:\/\/schema\.org\//, '').replace(/Condition$/, '');
  const brand = str(obj(product.brand)?.name) ?? str(product.brand);
  const aspects = all(root, hasClass('ux-labels-values')).flatMap((row) => {
    const name = lineOf(first(row, hasClass('ux-labels-values__labels')))?.replace(/:$/, '');
    const value = lineOf(first(row, hasClass('ux-labels-values__values')));
    return name && value ? [{ name, value }] : [];
  });
  return compact({
    type: 'product' as const,
    id,
    url: itemUrl(site, id),
    title: need(str(product.name) ?? lineOf(first(root, hasClass('x-item-title__mainTitle'))), 'ebay', `listing ${id} has no name`),
    description: str(product.description),
    brand,
    price: money(offers?.price, offers?.priceCurrency),
    shipping: money(obj(obj(offers?.shippingDetails)?.shippingRate)?.value, obj(obj(offers?.shippingDetails)?.shippingRate)?.currency),
    condition,
    availability: str(offers?.availability)?.replace(/^https?:\/\/schema\.org\//, ''),
    images,
    seller: username ? compact({ username: decodeURIComponent(username), url: `https://${site.host}/usr/${username}` }) : undefined,
    category: str(product.category),
    attributes: aspects,
  });
}

/** Whether a listing page says the listing is gone ("We looked everywhere." / "page is missing"). */
export function isMissingPage(html: string): boolean {
  return /we looked everywhere|page is missing|this listing (?:was|has been) (?:ended|removed)/i.test(html.slice(0, 300_000));
}

// The Browse API.

const OPTIONS: Record<string, string> = { AUCTION: 'auction', FIXED_PRICE: 'buyItNow', BEST_OFFER: 'bestOffer', CLASSIFIED_AD: 'classified' };

export function itemFromApi(o: Obj, site: Site, position?: number): EbayItem | undefined {
  const id = str(o.legacyItemId) ?? /^v1\|(\d+)\|/.exec(str(o.itemId) ?? '')?.[1];
  const title = str(o.title);
  if (!id || !title) return undefined;
  const price = obj(o.price);
  const bid = obj(o.currentBidPrice);
  const original = obj(obj(o.marketingPrice)?.originalPrice);
  const seller = obj(o.seller);
  const ship = obj(objs(o.shippingOptions)[0]?.shippingCost);
  const location = obj(o.itemLocation);
  const images = [obj(o.image), ...objs(o.additionalImages), ...objs(o.thumbnailImages)].flatMap((i) => (str(i?.imageUrl) ? [{ url: str(i!.imageUrl)! }] : []));
  const availability = objs(o.estimatedAvailabilities)[0];
  return compact({
    type: 'product' as const,
    id,
    url: str(o.itemWebUrl)?.replace(/\?.*$/, '') ?? itemUrl(site, id),
    title,
    description: str(o.shortDescription),
    brand: str(o.brand),
    price: money(bid?.value ?? price?.value, bid?.currency ?? price?.currency),
    listPrice: money(original?.value, original?.currency),
    condition: str(o.condition),
    availability: str(availability?.estimatedAvailabilityStatus),
    images: [...new Map(images.map((i) => [i.url, i])).values()],
    seller: seller ? compact({ username: str(seller.username), url: str(seller.username) ? `https://${site.host}/usr/${str(seller.username)}` : undefined }) : undefined,
    category: str(o.categoryPath) ?? objs(o.categories).map((c) => str(c.categoryName)).filter(Boolean).reverse().join(' › '),
    attributes: objs(o.localizedAspects).flatMap((a) => (str(a.name) && str(a.value) ? [{ name: str(a.name)!, value: str(a.value)! }] : [])),
    bids: int(o.bidCount),
    sold: int(availability?.estimatedSoldQuantity),
    shipping: money(ship?.value, ship?.currency),
    endsAt: isoFromText(o.itemEndDate),
    buyingOptions: arr(o.buyingOptions).flatMap((b) => (typeof b === 'string' && OPTIONS[b] ? [OPTIONS[b]] : [])),
    itemLocation: location ? compact({ city: str(location.city), state: str(location.stateOrProvince), postalCode: str(location.postalCode), country: str(location.country) }) : undefined,
    position,
  });
}

export function apiSearchItems(body: Obj, site: Site): { items: EbayItem[]; hasNext: boolean } {
  if (!Array.isArray(body.itemSummaries) && body.total === undefined) throw changed('ebay', 'a Browse search answer without itemSummaries or total');
  const items = objs(body.itemSummaries).flatMap((o, i) => itemFromApi(o, site, i + 1) ?? []);
  return { items, hasNext: !!str(body.next) };
}
