/** The zillow source: a place's listings from Zillow's search results page, and one home from its page. */
import { ZILLOW } from '../../catalogue/endpoints/zillow.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import type { SourceModule } from '../types.js';
import { homePage, searchPage } from './client.js';
import { property, searchCards, withinBounds, type ZillowCard } from './normalise.js';
import { zpidOf } from './refs.js';
import propertySamples from './samples/property.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** Zillow's page numbers as cursor tokens. */
const PAGE_TOKEN = /^[1-9][0-9]{0,3}$/;
/** Result pages read at most per call (41 cards a page). */
const MAX_PAGES = 5;

const search = operation(ZILLOW.search, {
  async run(input, ctx) {
    let total: number | undefined;
    const { items, cursor } = await collectPages<ZillowCard>(
      readSkipCursor(input.cursor, PAGE_TOKEN),
      input.limit,
      async (token) => {
        const n = Number(token ?? 1);
        const page = searchCards(await searchPage(input.location, input.status, n, ctx));
        total ??= page.total;
        return { items: page.cards.filter((c) => withinBounds(c, input)), token: n < page.pages ? String(n + 1) : undefined };
      },
      MAX_PAGES,
    );
    return { data: { properties: items, ...(total !== undefined ? { total } : {}), ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const home = operation(ZILLOW.property, {
  async run(input, ctx) {
    return { data: { property: property(await homePage(zpidOf(input.property), ctx)) } };
  },
  samples: propertySamples,
});

const zillow: SourceModule = {
  id: 'zillow',
  needs: { proxy: 'advised' },
  operations: [search, home],
};

export default zillow;
