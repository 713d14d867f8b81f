/** The facebook source: Meta's Ad Library through the official Ad Library API, with the operator's token. */
import { FACEBOOK } from '../../catalogue/endpoints/facebook.js';
import { isQuarryError, QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import type { SourceContext, SourceModule } from '../types.js';
import { archivedAd, archivePage, GRAPH_PAGE, pageIdOf, type AdsQuery } from './client.js';
import { normaliseAd, normalisePage, type Ad } from './normalise.js';
import { adRef, decodeCursor, encodeCursor, pageRef, type Cursor } from './refs.js';
import adSamples from './samples/ads.ad.json' with { type: 'json' };
import pageSamples from './samples/ads.page.json' with { type: 'json' };
import searchSamples from './samples/ads.search.json' with { type: 'json' };

/** Graph pages read at most per call (500 ads at 100 a page, plus one for a resumed page). */
const MAX_PAGES = 6;

/**
 * Up to `limit` ads from where the cursor points, across Graph pages. The answer's cursor resumes exactly after the
 * last ad given: Graph's `after` of the next page, or the same page's `after` with the ads already given counted.
 */
async function ads(q: AdsQuery, pageId: string | undefined, ctx: SourceContext): Promise<{ data: { ads: Ad[]; cursor?: string }; free?: true }> {
  const out: Ad[] = [];
  let { after, skip } = decodeCursor(q.cursor);
  let next: Cursor | undefined;
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const want = q.limit - out.length;
    const page = normalisePage(await archivePage(q, pageId, Math.min(GRAPH_PAGE, want + skip), after, ctx), q.status);
    const fresh = page.ads.slice(skip);
    const used = fresh.slice(0, want);
    out.push(...used);
    if (used.length < fresh.length) {
      next = { after, skip: skip + used.length };
      break;
    }
    if (!page.after || !page.ads.length) {
      next = undefined;
      break;
    }
    [after, skip, next] = [page.after, 0, { after: page.after, skip: 0 }];
    if (out.length >= q.limit) break;
  }
  const cursor = next && encodeCursor(next);
  return { data: { ads: out, ...(cursor ? { cursor } : {}) }, ...(out.length ? {} : { free: true as const }) };
}

const adsSearch = operation(FACEBOOK.adsSearch, {
  run: (input, ctx) => ads(input, undefined, ctx),
  samples: searchSamples,
});

const adsPage = operation(FACEBOOK.adsPage, {
  async run(input, ctx) {
    const { page, ...rest } = input;
    const ref = pageRef(page);
    // Validate the cursor before spending a look-up on the page's name.
    decodeCursor(rest.cursor);
    const pageId = 'id' in ref ? ref.id : await pageIdOf(ref.username, ctx);
    return ads(rest, pageId, ctx);
  },
  samples: pageSamples,
});

/** Graph pages of a page's archive looked through for one ad (500 ads). */
const MAX_SCAN_PAGES = 5;
/** Every ad of a page, wherever it ran, active or not. */
const WHOLE_ARCHIVE: AdsQuery = { country: 'all', adType: 'all', status: 'all', mediaType: 'all', platforms: [], limit: GRAPH_PAGE };

/** The ad in its page's archive (`ads_archive` by `search_page_ids`), or undefined when it is not there. */
async function findInPage(id: string, pageId: string, ctx: SourceContext): Promise<Ad | undefined> {
  let after: string | undefined;
  for (let n = 0; n < MAX_SCAN_PAGES; n++) {
    const page = normalisePage(await archivePage(WHOLE_ARCHIVE, pageId, GRAPH_PAGE, after, ctx), 'all');
    const found = page.ads.find((a) => a.id === id);
    if (found || !page.after || !page.ads.length) return found;
    after = page.after;
  }
  return undefined;
}

const adsAd = operation(FACEBOOK.adsAd, {
  async run(input, ctx) {
    const { id, pageId } = adRef(input.ad);
    try {
      return { data: { ad: normaliseAd(await archivedAd(id, ctx), 'all') } };
    } catch (e) {
      // Meta serves some archived ads only through searches: the page's archive, when the address names the page.
      if (!(isQuarryError(e) && e.code === 'notFound')) throw e;
      const found = pageId ? await findInPage(id, pageId, ctx) : undefined;
      if (found) return { data: { ad: found } };
      throw new QuarryError(
        'notFound',
        pageId
          ? `ad: Meta's Ad Library API has no ad ${id}, neither by its id nor in the archive of page ${pageId}`
          : `ad: Meta's Ad Library API does not serve ad ${id} by its id; an Ad Library address with its page (view_all_page_id) lets it be found in the page's archive`,
      );
    }
  },
  samples: adSamples,
});

const facebook: SourceModule = {
  id: 'facebook',
  needs: {
    settings: [
      { name: 'ACCESS_TOKEN', required: true, purpose: "a Meta developer access token with Ad Library API access (identity confirmed at facebook.com/ID)" },
      { name: 'API_VERSION', required: false, purpose: 'the Graph API version asked (default v24.0)' },
    ],
  },
  operations: [adsSearch, adsPage, adsAd],
};

export default facebook;
