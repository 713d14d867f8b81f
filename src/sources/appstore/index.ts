/** The appstore source: Apple's keyless iTunes Search and Lookup APIs and its customer-review RSS feed. */
import { APPSTORE } from '../../catalogue/endpoints/appstore.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { PAGE_TOKEN } from '../../catalogue/market.js';
import type { SourceContext, SourceModule } from '../types.js';
import { lookup, reviewPage, search } from './client.js';
import { appsOf, normaliseReview, type AppStoreApp, type AppStoreReview } from './normalise.js';
import { appRefOf, type AppRef } from './refs.js';
import appSamples from './samples/app.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

/** Apple's search answers at most this many results. */
const SEARCH_MAX = 200;

async function findApp(ref: AppRef, country: string, ctx: SourceContext): Promise<AppStoreApp> {
  const app = appsOf(await lookup(ref, country, ctx))[0];
  if (!app) throw new QuarryError('notFound', `appstore: no app ${'id' in ref ? ref.id : ref.bundleId} in the ${country.toUpperCase()} App Store`);
  return app;
}

const searchOp = operation(APPSTORE.search, {
  async run(input, ctx) {
    const offset = input.cursor === undefined ? 0 : Number(input.cursor);
    if (offset >= SEARCH_MAX) return { data: { apps: [] }, free: true };
    const count = Math.min(SEARCH_MAX, offset + input.limit);
    const results = await search({ term: input.query, country: input.country, language: input.language, device: input.device, count }, ctx);
    const apps = appsOf(results.slice(offset, count));
    // A full answer may have more behind it (up to Apple's 200); a short one is the end of the list.
    const next = results.length >= count && count < SEARCH_MAX ? String(count) : undefined;
    return { data: { apps, ...(next ? { cursor: next } : {}) }, ...(apps.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const appOp = operation(APPSTORE.app, {
  async run(input, ctx) {
    return { data: { app: await findApp(appRefOf(input.app), input.country, ctx) } };
  },
  samples: appSamples,
});

const reviewsOp = operation(APPSTORE.reviews, {
  async run(input, ctx) {
    const ref = appRefOf(input.app);
    // The feed is keyed by the numeric id: a bundle id is looked up first.
    const id = 'id' in ref ? ref.id : (await findApp(ref, input.country, ctx)).id;
    const from = readSkipCursor(input.cursor, PAGE_TOKEN);
    if (Number(from.token ?? 1) > 10) return { data: { app: id, reviews: [] }, free: true };
    const { items, cursor } = await collectPages<AppStoreReview>(from, input.limit, async (token) => {
      const page = Number(token ?? 1);
      const { entries, hasNext } = await reviewPage(id, input.country, input.sort, page, ctx);
      return { items: entries.flatMap((e) => normaliseReview(e) ?? []), ...(hasNext ? { token: String(page + 1) } : {}) };
    });
    return { data: { app: id, reviews: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: reviewsSamples,
});

const appstore: SourceModule = {
  id: 'appstore',
  operations: [searchOp, appOp, reviewsOp],
};

export default appstore;
