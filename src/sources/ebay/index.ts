/** The ebay source: listings and sold listings from eBay's public pages, or from its Browse API with the operator's app. */
import { EBAY } from '../../catalogue/endpoints/ebay.js';
import { PAGE_TOKEN } from '../../catalogue/market.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { changed } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { apiItem, apiSearch, CREDENTIAL_SETTINGS, hasCredentials, itemPage, searchPage } from './client.js';
import { apiSearchItems, isMissingPage, itemFromApi, itemFromPage, searchCards, type EbayItem } from './normalise.js';
import { itemRefOf, siteOf } from './sites.js';
import itemSamples from './samples/item.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** eBay answers at most 10,000 results: 166 pages of 60. */
const MAX_PAGE = 166;

const search = operation(EBAY.search, {
  async run(input, ctx) {
    if (input.priceMin !== undefined && input.priceMax !== undefined && input.priceMin > input.priceMax) {
      throw new QuarryError('invalidRequest', 'priceMin: must not be above priceMax', { retryable: false });
    }
    const site = siteOf(input.country);
    // The Browse API has no sold listings: those always come from the pages.
    const viaApi = !input.sold && hasCredentials(ctx);
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    const { items, cursor } = await collectPages<EbayItem>(from, input.limit, async (token) => {
      const page = Number(token ?? 1);
      if (page > MAX_PAGE) return { items: [] };
      const q = { ...input, site, page };
      if (viaApi) {
        const { items: found, hasNext } = apiSearchItems(await apiSearch(q, ctx), site);
        return { items: found, ...(hasNext && page < MAX_PAGE ? { token: String(page + 1) } : {}) };
      }
      const cards = searchCards(await searchPage(q, ctx), site, input.sold);
      if (!cards.isResults) throw changed('ebay', 'the search page carries no result list');
      if (cards.cards >= 3 && !cards.items.length) throw changed('ebay', `none of the ${cards.cards} result cards could be read`);
      return { items: cards.items, ...(cards.hasNext && cards.items.length && page < MAX_PAGE ? { token: String(page + 1) } : {}) };
    });
    return { data: { items, ...(cursor ? { cursor } : {}), via: viaApi ? 'browseApi' : 'page' }, ...(items.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const item = operation(EBAY.item, {
  async run(input, ctx) {
    const ref = itemRefOf(input.item);
    const site = ref.site ?? siteOf(input.country);
    if (hasCredentials(ctx)) {
      const found = itemFromApi(await apiItem(ref.id, site, ctx), site);
      if (!found) throw changed('ebay', `the Browse API's item ${ref.id} has no title or id`);
      return { data: { item: found, via: 'browseApi' } };
    }
    const html = await itemPage(ref.id, site, ctx);
    const found = itemFromPage(html, ref.id, site);
    if (found) return { data: { item: found, via: 'page' } };
    if (isMissingPage(html)) throw new QuarryError('notFound', `ebay: no listing ${ref.id} on ${site.host}`);
    throw changed('ebay', `the listing page of ${ref.id} carries no schema.org Product`);
  },
  samples: itemSamples,
});

const ebay: SourceModule = {
  id: 'ebay',
  needs: {
    settings: ['CLIENT_ID', 'CLIENT_SECRET'].map((name) => ({
      name,
      required: false,
      purpose: 'an eBay developer application’s keys: live searches and listings then come from the Browse API (client-credentials token) instead of eBay’s pages; sold listings always come from the pages',
    })),
    proxy: 'advised',
  },
  operations: [search, item],
};

export default ebay;
