/**
 * The site source (issue 5): `site.map` (a site's pages from its sitemaps, or a bounded crawl) and `site.seo` (an SEO
 * check of one page), live through the SSRF-guarded upstream client and from the committed samples.
 */
import { SITE } from '../../catalogue/endpoints/site.js';
import type { OutputOf } from '../../catalogue/types.js';
import { operation } from '../kit/operation.js';
import type { OperationResult, SourceContext, SourceModule } from '../types.js';
import { Budget, webFetcher, type Fetcher } from '../kit/web/fetch.js';
import { siteAddress } from './address.js';
import { mapSite, type MapData } from './map.js';
import { checkPage, type SeoRecord } from './seo.js';
import mapSample from './samples/map.json' with { type: 'json' };
import seoSample from './samples/seo.json' with { type: 'json' };

/** Wall-clock budget of one call (QUARRY_SITE_TIME_BUDGET_MS): a map or check that runs out answers what it has. */
const DEFAULT_BUDGET_MS = 25_000;

/** Per-request ceiling; the call's remaining budget cuts it further. */
const REQUEST_TIMEOUT_MS = 10_000;

const budgetOf = (settings: Readonly<Record<string, string | undefined>>): Budget => {
  const ms = Number(settings.TIME_BUDGET_MS);
  return new Budget(Number.isFinite(ms) && ms >= 1000 ? ms : DEFAULT_BUDGET_MS);
};

const fetcherOf = (ctx: SourceContext, budget: Budget): Fetcher => webFetcher(ctx, { budget, timeoutMs: REQUEST_TIMEOUT_MS });

const mapResult = (data: MapData): OperationResult<OutputOf<typeof SITE.map>> => ({ data, items: data.pages.length });

const map = operation(SITE.map, {
  async run(input, ctx) {
    const start = siteAddress(input.url as string);
    const budget = budgetOf(ctx.settings);
    const limit = (input.limit as number | undefined) ?? 100;
    const data = await mapSite({ start, limit, cursor: input.cursor as string | undefined, fetcher: fetcherOf(ctx, budget), budget });
    return mapResult(data);
  },
  sample(input) {
    const data = (mapSample as unknown as { data: MapData }).data;
    const limit = (input.limit as number | undefined) ?? 100;
    if (data.pages.length <= limit) return mapResult(data);
    // A shorter page of the sample continues, like a live one, from the next entry of the same file.
    return mapResult({ ...data, pages: data.pages.slice(0, limit), cursor: `s.0.0.${limit}` });
  },
});

const seo = operation(SITE.seo, {
  async run(input, ctx) {
    const start = siteAddress(input.url as string);
    const record = await checkPage(start, fetcherOf(ctx, budgetOf(ctx.settings)));
    return { data: record };
  },
  sample() {
    return { data: (seoSample as unknown as { data: SeoRecord }).data };
  },
});

const site: SourceModule = {
  id: 'site',
  operations: [map, seo],
};

export default site;
