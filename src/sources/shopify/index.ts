/** The shopify source: `shopify.store` live (meta.json through the SSRF guard) and from the committed sample. */
import type { Operation, OperationResult, SourceModule } from '../types.js';
import { countList, fetchMeta, looksLikeStorefront, storeOrigin } from './client.js';
import { isStorefrontMeta, normaliseMeta, notAStorefront, type StorefrontRecord } from './normalise.js';
import sample from './samples/store.json' with { type: 'json' };

const result = (store: StorefrontRecord): OperationResult => ({ data: { store } as unknown as Record<string, unknown> });

const store: Operation = {
  async run(input, ctx) {
    const origin = storeOrigin(input.store as string);
    const answers = await fetchMeta(origin, ctx);
    if (isStorefrontMeta(answers.meta)) {
      const meta = answers.meta;
      const counts: { products?: number; collections?: number } = {};
      if (!Number.isInteger(meta.published_products_count)) counts.products = await countList(origin, 'products', ctx);
      if (!Number.isInteger(meta.published_collections_count)) counts.collections = await countList(origin, 'collections', ctx);
      return result(normaliseMeta(meta, origin, counts));
    }
    // meta.json hidden (password page, app proxy) but the platform's headers are there: a storefront with no details.
    if (looksLikeStorefront(answers.headers)) return result({ ...notAStorefront(origin), isStorefront: true });
    return result(notAStorefront(origin));
  },

  sample() {
    return result((sample as unknown as { data: { store: StorefrontRecord } }).data.store);
  },
};

const shopify: SourceModule = {
  id: 'shopify',
  operations: { 'shopify.store': store },
};

export default shopify;
