/** The etsy source: listings, search and shops on Etsy's Open API v3 with the operator's key; listings keyless from their pages. */
import { ETSY } from '../../catalogue/endpoints/etsy.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { changed, int, objs, str } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { hasKey, KEY_SETTING, listing, listingPage, listingsWithImages, needKey, searchListings, shopById, shopsByName } from './client.js';
import { listingFromApi, listingFromPage, shopFromApi } from './normalise.js';
import listingSamples from './samples/listing.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import shopSamples from './samples/shop.json' with { type: 'json' };

/** Etsy answers at most this many listings of a search (offset + limit). */
const MAX_RESULTS = 12_000;

function listingIdOf(input: string): string {
  const s = input.trim();
  if (/^\d{4,15}$/.test(s)) return s;
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const m = /\/listing\/(\d{4,15})(?:[/?#]|$)/.exec(url.pathname);
    if (/(?:^|\.)etsy\.com$/i.test(url.hostname) && m) return m[1];
  }
  throw new QuarryError('invalidRequest', 'listing: give an Etsy listing id or an etsy.com/listing/ address', { retryable: false });
}

function shopRefOf(input: string): { id: string } | { name: string } {
  const s = input.trim();
  if (/^\d{1,15}$/.test(s)) return { id: s };
  if (/^https?:\/\//i.test(s) && URL.canParse(s)) {
    const url = new URL(s);
    const m = /\/shop\/([A-Za-z0-9]{1,64})(?:[/?#]|$)/.exec(url.pathname);
    if (/(?:^|\.)etsy\.com$/i.test(url.hostname) && m) return { name: m[1] };
    throw new QuarryError('invalidRequest', 'shop: not an etsy.com/shop/ address', { retryable: false });
  }
  if (/^[A-Za-z0-9]{1,64}$/.test(s)) return { name: s };
  throw new QuarryError('invalidRequest', 'shop: give a shop name, a numeric shop id or an etsy.com/shop/ address', { retryable: false });
}

const search = operation(ETSY.search, {
  async run(input, ctx) {
    needKey(ctx, 'search');
    if (input.priceMin !== undefined && input.priceMax !== undefined && input.priceMin > input.priceMax) {
      throw new QuarryError('invalidRequest', 'priceMin: must not be above priceMax', { retryable: false });
    }
    const offset = Number(input.cursor ?? 0);
    const limit = Math.min(input.limit, MAX_RESULTS - offset);
    if (limit <= 0) return { data: { listings: [] }, free: true };
    const body = await searchListings({ ...input, limit, offset }, ctx);
    if (!Array.isArray(body.results)) throw changed('etsy', 'the search answer carries no results list');
    const found = objs(body.results);
    // The search answers listings without images: one batch request adds them, in the search's order.
    const withImages = found.length ? objs((await listingsWithImages(found.map((l) => String(l.listing_id)), ctx)).results) : [];
    const byId = new Map(withImages.map((l) => [String(l.listing_id), l]));
    const listings = found.flatMap((l, i) => listingFromApi({ ...l, images: byId.get(String(l.listing_id))?.images }, offset + i + 1) ?? []);
    const total = int(body.count);
    const next = offset + found.length;
    const more = found.length === limit && (total === undefined || next < total) && next < MAX_RESULTS;
    return { data: { listings, ...(more ? { cursor: String(next) } : {}), ...(total !== undefined ? { total } : {}) }, ...(listings.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const listingOp = operation(ETSY.listing, {
  async run(input, ctx) {
    const id = listingIdOf(input.listing);
    if (hasKey(ctx)) {
      const found = listingFromApi(await listing(id, ctx));
      if (!found) throw changed('etsy', `the Open API's listing ${id} has no id or title`);
      return { data: { listing: found, via: 'openApi' } };
    }
    const found = listingFromPage(await listingPage(id, ctx), id);
    if (!found) throw changed('etsy', `the page of listing ${id} carries no schema.org Product`);
    return { data: { listing: found, via: 'page' } };
  },
  samples: listingSamples,
});

const shop = operation(ETSY.shop, {
  async run(input, ctx) {
    needKey(ctx, 'a shop');
    const ref = shopRefOf(input.shop);
    if ('id' in ref) return { data: { shop: shopFromApi(await shopById(ref.id, ctx)) } };
    const body = await shopsByName(ref.name, ctx);
    // Etsy's shop search matches names loosely: the shop asked is the one of exactly that name.
    const exact = objs(body.results).find((s) => str(s.shop_name)?.toLowerCase() === ref.name.toLowerCase());
    if (!exact) throw new QuarryError('notFound', `etsy: no shop named ${ref.name}`);
    return { data: { shop: shopFromApi(exact) } };
  },
  samples: shopSamples,
});

const etsy: SourceModule = {
  id: 'etsy',
  needs: {
    settings: [
      {
        name: 'API_KEY',
        required: false,
        purpose: "an Etsy Open API v3 app key (developer app, public scopes): etsy.search and etsy.shop need it; etsy.listing uses it when set, else reads the listing's public page",
      },
    ],
  },
  operations: [search, listingOp, shop],
};

export default etsy;
