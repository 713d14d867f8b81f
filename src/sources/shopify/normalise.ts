/**
 * Storefront record (SPEC.md "Storefront record") from a store's public `/meta.json`. Pure functions; an answer that
 * is JSON but not a storefront's meta is a non-storefront (`isStorefront: false`), never an error.
 */
import type { STOREFRONT } from '../../catalogue/endpoints/shopify.js';
import type { TypeOf } from '../../catalogue/types.js';

export type StorefrontRecord = TypeOf<typeof STOREFRONT>;
type StoreAddress = NonNullable<StorefrontRecord['address']>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const count = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

/** True when `meta` is a storefront's meta.json: an object naming its platform-assigned domain. */
export function isStorefrontMeta(meta: unknown): meta is Record<string, unknown> {
  return (
    !!meta && typeof meta === 'object' && !Array.isArray(meta) && /\.myshopify\.com$/i.test(str((meta as Record<string, unknown>).myshopify_domain) ?? '')
  );
}

/** The record of a site that is not a storefront: only its address and domain. */
export function notAStorefront(siteUrl: string): StorefrontRecord {
  return { url: siteUrl, isStorefront: false, domain: new URL(siteUrl).hostname };
}

/**
 * `siteUrl` is the address asked (origin), used when meta.json names none. `counts` fills products/collections when
 * meta.json lacks them (counted from /products.json and /collections.json).
 */
export function normaliseMeta(
  meta: Record<string, unknown>,
  siteUrl: string,
  counts: { products?: number; collections?: number } = {},
): StorefrontRecord {
  const city = str(meta.city);
  const state = str(meta.province);
  const country = str(meta.country);
  const parts = [city, state, country].filter(Boolean) as string[];
  const address: StoreAddress = { ...(parts.length ? { full: parts.join(', ') } : {}), city, state, country };
  const shipsTo = Array.isArray(meta.ships_to_countries)
    ? meta.ships_to_countries.filter((c): c is string => typeof c === 'string' && c.length > 0)
    : undefined;
  const id = typeof meta.id === 'number' || typeof meta.id === 'string' ? String(meta.id) : undefined;
  return {
    url: str(meta.url) ?? siteUrl,
    isStorefront: true,
    id,
    name: str(meta.name),
    description: str(meta.description),
    platformDomain: str(meta.myshopify_domain)?.toLowerCase(),
    domain: str(meta.domain)?.toLowerCase() ?? new URL(siteUrl).hostname,
    currency: str(meta.currency),
    address,
    shipsTo,
    products: count(meta.published_products_count) ?? counts.products,
    collections: count(meta.published_collections_count) ?? counts.collections,
  };
}
