/**
 * The site source (issue 5): `site.map` (a site's pages from its sitemaps, or a bounded crawl) and `site.seo` (an SEO
 * check of one page), live through the open-web toolkit (src/sources/kit/web) and, in test mode, from the committed
 * sample pages (scripts/samples/site.ts).
 */
import { SITE } from '../../catalogue/endpoints/site.js';
import { intSetting } from '../../config.js';
import { operation } from '../kit/operation.js';
import type { SourceContext, SourceModule } from '../types.js';
import { Budget, webFetcher, type Fetcher } from '../kit/web/fetch.js';
import { siteAddress } from './address.js';
import { mapSite } from './map.js';
import { checkPage } from './seo.js';
import mapSamples from './samples/map.json' with { type: 'json' };
import seoSamples from './samples/seo.json' with { type: 'json' };

/** Wall-clock budget of one call (QUARRY_SITE_TIME_BUDGET_MS): a map or check that runs out answers what it has. */
const DEFAULT_BUDGET_MS = 25_000;

/** Per-request ceiling; the call's remaining budget cuts it further. */
const REQUEST_TIMEOUT_MS = 10_000;

const TIME_BUDGET = { min: 1000 };

const budgetOf = (settings: Readonly<Record<string, string | undefined>>): Budget => new Budget(intSetting(settings, 'TIME_BUDGET_MS', TIME_BUDGET) ?? DEFAULT_BUDGET_MS);

const fetcherOf = (ctx: SourceContext, budget: Budget): Fetcher => webFetcher(ctx, { budget, timeoutMs: REQUEST_TIMEOUT_MS });

const map = operation(SITE.map, {
  async run(input, ctx) {
    const start = siteAddress(input.url);
    const budget = budgetOf(ctx.settings);
    return { data: await mapSite({ start, limit: input.limit, cursor: input.cursor, fetcher: fetcherOf(ctx, budget), budget }) };
  },
  samples: mapSamples,
});

const seo = operation(SITE.seo, {
  async run(input, ctx) {
    const start = siteAddress(input.url);
    return { data: await checkPage(start, fetcherOf(ctx, budgetOf(ctx.settings))) };
  },
  samples: seoSamples,
});

const site: SourceModule = {
  id: 'site',
  needs: {
    settings: [
      { name: 'TIME_BUDGET_MS', required: false, purpose: 'wall-clock budget of one site.map or site.seo call (default 25000, at least 1000)', integer: TIME_BUDGET },
    ],
  },
  operations: [map, seo],
};

export default site;
