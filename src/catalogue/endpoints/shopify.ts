import { endpoint, text } from '../fields.js';
import type { EndpointDef } from '../types.js';
import { bool, int, list, rec, str } from '../records.js';

export const SHOPIFY: readonly EndpointDef[] = [
  endpoint({
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
    // A site on another platform answers only `url` and `isStorefront: false`.
    output: rec({
      store: rec(
        { url: str, isStorefront: bool },
        { id: str, name: str, description: str, platformDomain: str, domain: str, currency: str, address: rec({}, { full: str, country: str }), shipsTo: list(str), products: int, collections: int },
      ),
    }),
  }),
];
