/** The realtor source: a place's listings through Realtor.com's GraphQL `home_search`, and one `home`. */
import { REALTOR } from '../../catalogue/endpoints/realtor.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { home, resolvePlace, searchPage, searchQuery } from './client.js';
import { property, withinBounds, type RealtorProperty } from './normalise.js';
import { propertyIdOf } from './refs.js';
import propertySamples from './samples/property.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** Realtor.com answers at most 200 results a request (HomeHarvest's page size). */
const PAGE = 200;
/** Requests per call at most, when the bounds thin pages out. */
const MAX_PAGES = 3;

const search = operation(REALTOR.search, {
  async run(input, ctx) {
    const q = searchQuery(await resolvePlace(input.location, input.status, ctx), input.status);
    const properties: RealtorProperty[] = [];
    let offset = Number(input.cursor ?? 0);
    let total: number | undefined;
    let more = true;
    for (let n = 0; n < MAX_PAGES && more && properties.length < input.limit; n++) {
      const asked = Math.min(PAGE, input.limit - properties.length);
      const page = await searchPage(q, offset, asked, ctx);
      total ??= page.total;
      let read = 0;
      for (const r of page.results) {
        if (properties.length >= input.limit) break;
        read++;
        const p = property(r);
        if (withinBounds(p, input)) properties.push(p);
      }
      offset += read;
      // Results left on this page are owed; else a short page, or the total reached, is the end of the list.
      more = read < page.results.length || (page.results.length >= asked && (total === undefined || offset < total));
    }
    const cursor = more ? String(offset) : undefined;
    return { data: { properties, ...(total !== undefined ? { total } : {}), ...(cursor ? { cursor } : {}) }, ...(properties.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const one = operation(REALTOR.property, {
  async run(input, ctx) {
    return { data: { property: property(await home(propertyIdOf(input.property), ctx)) } };
  },
  samples: propertySamples,
});

const realtor: SourceModule = {
  id: 'realtor',
  needs: { proxy: 'advised' },
  operations: [search, one],
};

export default realtor;
