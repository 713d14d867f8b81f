/**
 * site.map and site.seo samples: the real recordings in ../shared/upstream/site run through the same code as a live
 * call (mapSite and checkPage with their parsers), with a fetcher that answers from the recordings instead of the
 * network. Anything not recorded answers 404, which the code treats like a live 404.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Budget, type Fetcher } from '../../src/sources/kit/web/fetch.js';
import { mapSite } from '../../src/sources/site/map.js';
import { checkPage } from '../../src/sources/site/seo.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const upstream = `${repo}../shared/upstream/`;

interface Recorded {
  file: string;
  type: string;
}

/** Answers the recorded addresses with their recorded bodies; everything else is a 404. */
export function recordingFetcher(recorded: Record<string, Recorded>, seen: string[] = []): Fetcher {
  return async (url) => {
    seen.push(url);
    const hit = recorded[url];
    if (!hit) return { status: 404, url, headers: { 'content-type': 'text/html' }, body: Buffer.from('<html><body>Not recorded</body></html>'), redirects: [] };
    return { status: 200, url, headers: { 'content-type': hit.type }, body: readFileSync(`${upstream}${hit.file}`), redirects: [] };
  };
}

const write = (target: string, out: unknown): void => writeFileSync(`${repo}${target}`, `${JSON.stringify(out, null, 1)}\n`);

export const MAP_RECORDINGS: Record<string, Recorded> = {
  'https://www.vanityfair.com/sitemap.xml': { file: 'site/sitemaps/vanityfair-sitemap-index.xml', type: 'application/xml' },
  'https://www.vanityfair.com/sitemap.xml?year=2022&month=12&week=2': { file: 'site/sitemaps/vanityfair-sitemap.xml', type: 'application/xml' },
};

export const SEO_PAGE = 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html';
export const SEO_RECORDINGS: Record<string, Recorded> = {
  [SEO_PAGE]: { file: 'site/pages/tdameritrade-setting-financial-goals.html', type: 'text/html; charset=utf-8' },
};

/** The site.map sample file's content: the recorded index and child through mapSite. */
export async function buildMapSample() {
  const seen: string[] = [];
  const map = await mapSite({
    start: new URL('https://www.vanityfair.com/'),
    limit: 7,
    fetcher: recordingFetcher(MAP_RECORDINGS, seen),
    budget: new Budget(60_000),
  });
  return {
    _provenance: {
      note:
        'Produced by src/sources/site/map.ts from real recordings (scripts/samples/site.ts): robots.txt of the site was ' +
        'not recorded (answered 404), so the walk found the recorded sitemap index at /sitemap.xml (6 weekly children, ' +
        '2022-12-28) and read its first child, for which the recorded weekly child sitemap of the same site and day stands ' +
        '(the recording does not say which week it is). limit 7: the cursor continues in that file. Test data only.',
      sources: [
        { recording: 'shared/upstream/site/sitemaps/vanityfair-sitemap-index.xml', repository: 'autogram-is/spidergram', commit: '0fb2cddb725815ab5a132295849f43865a88b6ad', licence: 'MIT', path: 'tests/fixtures/filetypes/sitemap-index.xml', request: 'GET https://www.vanityfair.com/sitemap.xml' },
        { recording: 'shared/upstream/site/sitemaps/vanityfair-sitemap.xml', repository: 'autogram-is/spidergram', commit: '0fb2cddb725815ab5a132295849f43865a88b6ad', licence: 'MIT', path: 'tests/fixtures/filetypes/sitemap.xml', request: 'a weekly child sitemap of www.vanityfair.com' },
      ],
      requests: seen,
    },
    data: map,
  };
}

/** The site.seo sample file's content: the recorded TD Ameritrade page through checkPage. */
export async function buildSeoSample() {
  const seo = await checkPage(new URL(SEO_PAGE), recordingFetcher(SEO_RECORDINGS));
  return {
    _provenance: {
      note:
        'Produced by src/sources/site/seo.ts from a real recorded page (scripts/samples/site.ts). Only the HTML was recorded: ' +
        'it is checked as a 200 answer with no redirect, a text/html content type and no other headers, and the site as having ' +
        'no robots.txt (404). Content belongs to its publisher; test data only.',
      sources: [{ recording: 'shared/upstream/site/pages/tdameritrade-setting-financial-goals.html', repository: 'autogram-is/spidergram', commit: '0fb2cddb725815ab5a132295849f43865a88b6ad', licence: 'MIT', path: 'tests/fixtures/markup/tda.html', request: `GET ${SEO_PAGE}` }],
    },
    data: seo,
  };
}

export async function siteSamples(): Promise<void> {
  const map = await buildMapSample();
  write('src/sources/site/samples/map.json', map);
  console.log(`wrote site.map sample: ${map.data.pages.length} pages from ${map.data.sitemaps?.length ?? 0} files, cursor ${map.data.cursor ?? '(none)'}`);
  const seo = await buildSeoSample();
  write('src/sources/site/samples/seo.json', seo);
  console.log(`wrote site.seo sample: score ${seo.data.score}, ${seo.data.checks.filter((c) => !c.passed).length} failed checks`);
}
