/** The shopify source: `shopify.store` live (meta.json through the SSRF guard) and from the committed sample. */
import { SHOPIFY } from '../../catalogue/endpoints/shopify.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { countList, fetchMeta, looksLikeStorefront, storeOrigin } from './client.js';
import { isStorefrontMeta, normaliseMeta, notAStorefront, type StorefrontRecord } from './normalise.js';
import storeSamples from './samples/store.json' with { type: 'json' };

const answer = (store: StorefrontRecord) => ({ data: { store } });

const store = operation(SHOPIFY.store, {
  async run(input, ctx) {
    const origin = storeOrigin(input.store);
    const answers = await fetchMeta(origin, ctx);
    if (isStorefrontMeta(answers.meta)) {
      const meta = answers.meta;
      const counts: { products?: number; collections?: number } = {};
      if (!Number.isInteger(meta.published_products_count)) counts.products = await countList(origin, 'products', ctx);
      if (!Number.isInteger(meta.published_collections_count)) counts.collections = await countList(origin, 'collections', ctx);
      return answer(normaliseMeta(meta, origin, counts));
    }
    // meta.json hidden (password page, app proxy) but the platform's headers are there: a storefront with no details.
    if (looksLikeStorefront(answers.headers)) return answer({ ...notAStorefront(origin), isStorefront: true });
    return answer(notAStorefront(origin));
  },
  samples: storeSamples,
});

const shopify: SourceModule = {
  id: 'shopify',
  operations: [store],
};

export default shopify;
