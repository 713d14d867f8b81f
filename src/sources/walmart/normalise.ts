/**
 * Walmart's page state into the shared product and review records. Pure functions over `initialData`: the product
 * (`data.product` with `data.idml` specifications), the reviews (`data.reviews.customerReviews`, the product page
 * carrying its first ones), and search results (`searchResult.itemStacks[].items`, products only: ads and banners
 * have another `__typename`). Walmart prices in dollars; a price given only as text is read as such.
 */
import type { WALMART_PRODUCT, WALMART_REVIEW } from '../../catalogue/endpoints/walmart.js';
import type { TypeOf } from '../../catalogue/types.js';
import { htmlText } from '../kit/html-text.js';
import { dayFromText } from '../kit/local-date.js';
import { money, parseMoney, type Money } from '../kit/money.js';
import { compact, int, need, num, obj, objs, str, type Obj } from '../kit/read.js';

export type WalmartProduct = TypeOf<typeof WALMART_PRODUCT>;
export type WalmartReview = TypeOf<typeof WALMART_REVIEW>;

const WALMART = 'https://www.walmart.com';
const abs = (path: unknown): string | undefined => {
  const p = str(path);
  return p ? new URL(p.replace(/\?.*$/, ''), WALMART).href : undefined;
};

function priceOf(p: unknown): Money | undefined {
  const o = obj(p);
  return money(o?.price, o?.currencyUnit ?? 'USD') ?? parseMoney(str(o?.priceString), { currency: 'USD' });
}

export function productOf(data: Obj, id: string): WalmartProduct {
  const p = need(obj(data.product), 'walmart', `the page of item ${id} carries no product`);
  const info = obj(p.priceInfo);
  const idml = obj(data.idml);
  const reviews = obj(data.reviews);
  const avg = num(p.averageRating) ?? num(reviews?.averageOverallRating);
  const path = objs(obj(p.category)?.path).flatMap((c) => str(c.name) ?? []);
  const bullets = [...(str(idml?.longDescription) ?? '').matchAll(/<li>([\s\S]*?)<\/li>/g)].flatMap((m) => htmlText(m[1]) ?? []);
  const usItemId = str(p.usItemId) ?? id;
  return compact({
    type: 'product' as const,
    id: usItemId,
    url: abs(p.canonicalUrl) ?? `${WALMART}/ip/${usItemId}`,
    title: need(str(p.name), 'walmart', `item ${id} has no name`),
    description: htmlText(str(p.shortDescription) ?? str(idml?.shortDescription)),
    brand: str(p.brand),
    price: priceOf(info?.currentPrice),
    listPrice: priceOf(info?.wasPrice) ?? priceOf(info?.listPrice),
    rating: avg !== undefined ? compact({ value: avg, max: 5, count: int(p.numberOfReviews) ?? int(reviews?.totalReviewCount) }) : undefined,
    images: objs(obj(p.imageInfo)?.allImages).flatMap((i) => (str(i.url) ? [{ url: str(i.url)! }] : [])),
    seller: compact({ id: str(p.sellerId), name: str(p.sellerDisplayName) ?? str(p.sellerName) }),
    condition: str(p.conditionType),
    availability: str(obj(p.availabilityStatusV2)?.display) ?? str(p.availabilityStatus),
    category: path.length ? path.join(' › ') : undefined,
    features: bullets,
    attributes: objs(idml?.specifications).flatMap((s) => (str(s.name) && str(s.value) ? [{ name: str(s.name)!, value: str(s.value)! }] : [])),
  });
}

export function reviewOf(r: Obj, itemId: string): WalmartReview | undefined {
  const id = str(r.reviewId);
  const rating = num(r.rating);
  if (!id || rating === undefined) return undefined;
  const verified = objs(r.badges).some((b) => b.id === 'VerifiedPurchaser' || obj(b.glassBadge)?.id === 'VerifiedPurchaser');
  const reply = objs(r.clientResponses)[0];
  return compact({
    type: 'review' as const,
    id,
    rating,
    url: `${WALMART}/reviews/product/${itemId}`,
    title: str(r.reviewTitle),
    text: str(r.reviewText),
    createdAt: dayFromText(str(r.reviewSubmissionTime), 'mdy'),
    author: compact({ name: str(r.userNickname) }),
    language: str(r.originalLocale)?.replace('_', '-'),
    helpful: int(r.positiveFeedback),
    isVerified: verified || undefined,
    images: objs(r.photos).flatMap((ph) => {
      const url = str(obj(ph.sizes)?.normal ? obj(obj(ph.sizes)!.normal)?.url : undefined) ?? str(ph.normalUrl) ?? str(ph.url);
      return url ? [{ url }] : [];
    }),
    response: reply && str(reply.response) ? compact({ text: str(reply.response)!, createdAt: dayFromText(str(reply.date), 'mdy'), author: str(reply.name) }) : undefined,
  });
}

/** The reviews of a page, and whether Walmart offers another page of them. */
export function reviewsOf(data: Obj, itemId: string): { reviews: WalmartReview[]; hasNext: boolean; found: boolean } {
  const block = obj(obj(data.data)?.reviews) ?? obj(data.reviews);
  const reviews = objs(block?.customerReviews).flatMap((r) => reviewOf(r, itemId) ?? []);
  const pagination = obj(block?.pagination);
  return { reviews, hasNext: !!obj(pagination?.next) || !!str(pagination?.next), found: !!block };
}

function searchItem(item: Obj, position: number): WalmartProduct | undefined {
  if (item.__typename !== 'Product') return undefined;
  const id = str(item.usItemId);
  const title = str(item.name);
  if (!id || !title) return undefined;
  const info = obj(item.priceInfo);
  const price = money(item.price, 'USD') ?? priceOf(info?.currentPrice) ?? parseMoney(str(info?.linePrice) ?? str(info?.itemPrice), { currency: 'USD' });
  const avg = num(item.averageRating) ?? num(obj(item.rating)?.averageRating);
  return compact({
    type: 'product' as const,
    id,
    url: abs(item.canonicalUrl) ?? `${WALMART}/ip/${id}`,
    title,
    brand: str(item.brand),
    price,
    listPrice: parseMoney(str(info?.wasPrice), { currency: 'USD' }),
    rating: avg !== undefined ? compact({ value: avg, max: 5, count: int(item.numberOfReviews) ?? int(obj(item.rating)?.numberOfReviews) }) : undefined,
    images: str(obj(item.imageInfo)?.thumbnailUrl) ?? str(item.image) ? [{ url: str(obj(item.imageInfo)?.thumbnailUrl) ?? str(item.image)! }] : [],
    seller: str(item.sellerName) ? { name: str(item.sellerName) } : undefined,
    availability: str(obj(item.availabilityStatusV2)?.display) ?? str(item.availabilityStatus),
    isSponsored: item.isSponsoredFlag === true ? true : undefined,
    position,
  });
}

/** The products of a search page, whether a next page exists, and whether the page had results at all. */
export function searchOf(data: Obj, page: number): { products: WalmartProduct[]; hasNext: boolean; found: boolean } {
  const result = obj(data.searchResult);
  const items = objs(result?.itemStacks).flatMap((s) => objs(s.items));
  const products: WalmartProduct[] = [];
  for (const item of items) {
    const p = searchItem(item, products.length + 1);
    if (p && !products.some((x) => x.id === p.id)) products.push(p);
  }
  const maxPage = int(obj(result?.paginationV2)?.maxPage) ?? int(obj(result?.pagination)?.maxPage);
  return { products, hasNext: maxPage !== undefined ? page < maxPage : products.length > 0, found: !!result };
}
