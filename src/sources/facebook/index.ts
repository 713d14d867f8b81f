/** The facebook source: Meta's Ad Library through the official Ad Library API, with the operator's token. */
import { FACEBOOK } from '../../catalogue/endpoints/facebook.js';
import { operation } from '../kit/operation.js';
import type { SourceContext, SourceModule } from '../types.js';
import { archivePage, GRAPH_PAGE, pageIdOf, type AdsQuery } from './client.js';
import { normalisePage, type Ad } from './normalise.js';
import { decodeCursor, encodeCursor, pageRef, type Cursor } from './refs.js';
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

const facebook: SourceModule = {
  id: 'facebook',
  needs: {
    settings: [
      { name: 'ACCESS_TOKEN', required: true, purpose: "a Meta developer access token with Ad Library API access (identity confirmed at facebook.com/ID)" },
      { name: 'API_VERSION', required: false, purpose: 'the Graph API version asked (default v24.0)' },
    ],
  },
  operations: [adsSearch, adsPage],
  notBuilt: {
    'facebook.ads.ad':
      "Meta's Ad Library API reads archived ads only through ads_archive searches (no read of one ad by its library id), and the web client's ad-details query is undocumented and unrecorded, so facebook.ads.ad is not built on this server.",
  },
};

export default facebook;
