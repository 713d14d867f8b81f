import { endpoint, text } from '../fields.js';
import { bool, int, list, rec, str } from '../records.js';
import { ADDRESS } from '../vocabulary.js';

/** SPEC "Storefront record". */
export const STOREFRONT = {
  ...rec(
    { url: str, isStorefront: bool },
    { id: str, name: str, description: str, platformDomain: str, domain: str, currency: str, address: ADDRESS, shipsTo: list(str), products: int, collections: int },
  ),
  if: { required: ['platformDomain'] },
  then: { required: ['id', 'name', 'domain', 'currency', 'products', 'collections'] },
};

export const SHOPIFY = {
  store: endpoint({
    id: 'shopify.store',
    title: 'Shopify store',
    summary:
      'Returns whether a site is a Shopify store and, if so, its name, platform domain, currency, address, shipping countries and product and collection counts.',
    credits: 1,
    // SPEC: only "1 credit; no paging"; keyless, perItems and cacheTtlSeconds not stated; chosen keyed, fixed price
    // and a day (store facts change slowly).
    keyless: false,
    perItems: null,
    cacheTtlSeconds: 86400,
    fields: {
      // SPEC: "string, a store's domain", bounds not stated; chosen 1-2048 so a full address is accepted too.
      store: text(1, 2048, "the store's domain, e.g. example.com"),
    },
    required: ['store'],
    example: { store: 'allbirds.com' },
    // A site on another platform answers only `url` and `isStorefront: false`; a storefront hiding its meta.json only
    // `url`, `domain` and `isStorefront: true`. Once meta.json was read (it names the platform domain), the facts
    // every storefront's meta.json gives are required: an answer without them is drift, not a thinner success.
    output: rec({ store: STOREFRONT }),
  }),
};
