/**
 * site.map and site.seo samples from the real recordings in ../shared/upstream/site (scripts/samples/openweb.ts):
 * - site.map through the generic sample maker (the live operation against the replay double): the recorded sitemap
 *   index at /sitemap.xml and its first weekly child, read as two pages of 3;
 * - site.seo through the same checkPage a live call runs, with a fetcher that answers from the recording instead of
 *   the replay double: a loopback double would add a response time of its own to the record (and a responseTime
 *   check), which the recording never had.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SampleSet } from '../../src/sources/kit/samples.js';
import type { Fetcher } from '../../src/sources/kit/web/fetch.js';
import { checkPage } from '../../src/sources/site/seo.js';
import { buildSamples, PREVIOUS_CURSOR, writeSampleSet, type SampleCase } from './kit.js';
import { notRecorded, ORIGINS, TDA, VANITY_FAIR } from './openweb.js';

const upstream = fileURLToPath(new URL('../../../shared/upstream/', import.meta.url));
const host = new URL(VANITY_FAIR.site).host;

export const MAP_CASE: SampleCase = {
  endpoint: 'site.map',
  replay: {
    folders: [],
    routes: [
      notRecorded(host, '/robots.txt', 'robots.txt'),
      { host, path: '/sitemap.xml', query: { year: '2022', month: '12', week: '2' }, file: VANITY_FAIR.child },
      { host, path: '/sitemap.xml', match: (s) => [...s.query].length === 0, file: VANITY_FAIR.index },
    ],
  },
  pages: [{ url: VANITY_FAIR.site, limit: 3 }, { url: VANITY_FAIR.site, limit: 3, cursor: PREVIOUS_CURSOR }],
  origins: ORIGINS,
  note:
    'Produced by the live site.map path (src/sources/site/map.ts, the kit fetcher and client) against the replay double ' +
    '(scripts/samples/site.ts). robots.txt of the site was not recorded (answered 404), so the walk found the recorded ' +
    'sitemap index at /sitemap.xml (6 weekly children, 2022-12-28) and read its first child, for which the recorded weekly ' +
    'child sitemap of the same site and day stands (the recording does not say which week it is): two pages of 3 of its 7 ' +
    'addresses, the second at the first page\'s cursor. Test data only.',
};

/** Answers the recorded page; anything else (robots.txt) is a 404, as a site without one answers. */
function recordingFetcher(): Fetcher {
  return async (url) => {
    if (url !== TDA.url) return { status: 404, url, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html><body>Not recorded</body></html>'), redirects: [] };
    return { status: 200, url, headers: { 'content-type': 'text/html; charset=utf-8' }, body: readFileSync(`${upstream}${TDA.file}`), redirects: [] };
  };
}

/** The site.seo sample set: the recorded TD Ameritrade page through checkPage. */
export async function buildSeoSample(): Promise<SampleSet> {
  const seo = await checkPage(new URL(TDA.url), recordingFetcher());
  return {
    _provenance: {
      note:
        'Produced by src/sources/site/seo.ts from a real recorded page (scripts/samples/site.ts). Only the HTML was recorded: ' +
        'it is checked as a 200 answer with no redirect, a text/html content type, no other headers and no response time, ' +
        'and the site as having no robots.txt (404). Content belongs to its publisher; test data only.',
      pages: [
        {
          input: { url: TDA.url },
          recordings: [
            { recording: `shared/upstream/${TDA.file}`, ...ORIGINS[TDA.file], request: `GET ${TDA.url}` },
            { recording: `robots.txt of ${new URL(TDA.url).host}: not recorded, answered 404` },
          ],
        },
      ],
    },
    pages: [{ data: seo }],
  };
}

/** The site.map sample set, as the generic maker builds it. */
export async function buildMapSample(): Promise<SampleSet> {
  return (await buildSamples(MAP_CASE)).set;
}

export async function siteSamples(): Promise<void> {
  const map = await buildSamples(MAP_CASE);
  writeSampleSet(map.target, map.set);
  const pages = map.set.pages.map((p) => `${(p.data.pages as unknown[]).length} pages, cursor ${p.data.cursor ?? '(none)'}`);
  console.log(`wrote site.map sample: ${pages.join('; ')}`);
  const seo = await buildSeoSample();
  writeSampleSet('src/sources/site/samples/seo.json', seo);
  const record = seo.pages[0].data as { score: number; checks: { passed: boolean }[] };
  console.log(`wrote site.seo sample: score ${record.score}, ${record.checks.filter((c) => !c.passed).length} failed checks`);
}
