/** The googleplay source: Google Play's public store pages and its reviews RPC, keyless. */
import { GOOGLEPLAY } from '../../catalogue/endpoints/googleplay.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { changed } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { detailsPage, reviewsRpc, searchPage } from './client.js';
import { detailsOf, normaliseApp, reviewsPage, searchApps, type PlayReview } from './normalise.js';
import { packageOf } from './refs.js';
import appSamples from './samples/app.json' with { type: 'json' };
import reviewsSamples from './samples/reviews.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const TOKEN = /^[A-Za-z0-9+/=_-]{1,2000}$/;

const searchOp = operation(GOOGLEPLAY.search, {
  async run(input, ctx) {
    const blocks = await searchPage({ query: input.query, country: input.country, language: input.language, price: input.price }, ctx);
    if (!('ds:1' in blocks)) throw changed('googleplay', 'the search page carries no ds:1 block');
    const apps = searchApps(blocks).slice(0, input.limit);
    return { data: { apps }, ...(apps.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const appOp = operation(GOOGLEPLAY.app, {
  async run(input, ctx) {
    const pkg = packageOf(input.app);
    const blocks = await detailsPage(pkg, input.country, input.language, ctx);
    const details = detailsOf(blocks, pkg);
    if (!details) throw changed('googleplay', `the details page of ${pkg} carries no details block naming it`);
    return { data: { app: normaliseApp(details, pkg) } };
  },
  samples: appSamples,
});

const reviewsOp = operation(GOOGLEPLAY.reviews, {
  async run(input, ctx) {
    const pkg = packageOf(input.app);
    const from = readSkipCursor(input.cursor, TOKEN);
    const { items, cursor } = await collectPages<PlayReview>(from, input.limit, async (token, want) => {
      const payload = await reviewsRpc(
        { pkg, country: input.country, language: input.language, sort: input.sort, rating: input.rating, count: Math.min(199, want), token },
        ctx,
      );
      const page = reviewsPage(payload, pkg);
      return { items: page.reviews, ...(page.token ? { token: page.token } : {}) };
    });
    return { data: { app: pkg, reviews: items, ...(cursor ? { cursor } : {}) }, ...(items.length ? {} : { free: true }) };
  },
  samples: reviewsSamples,
});

const googleplay: SourceModule = {
  id: 'googleplay',
  needs: { proxy: 'advised' },
  operations: [searchOp, appOp, reviewsOp],
};

export default googleplay;
