/**
 * The recordings the open-web samples are made from (site, web.contacts, domain): none has a request sidecar, so their
 * origins (../shared/upstream/README.md) are listed here, and each sample case serves them to the replay double by
 * route, at the address they answered.
 */
import type { ReplayRoute } from '../../test/helpers/replay.js';

const SPIDERGRAM = { repository: 'autogram-is/spidergram', commit: '0fb2cddb725815ab5a132295849f43865a88b6ad', licence: 'MIT' };
const WHOISIT = { repository: 'meeb/whoisit', commit: '54529e142aa0a33276cdb03ff538ee73eddc61a7', licence: 'BSD-3-Clause' };

export const TDA = {
  file: 'site/pages/tdameritrade-setting-financial-goals.html',
  url: 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html',
};

export const VANITY_FAIR = {
  index: 'site/sitemaps/vanityfair-sitemap-index.xml',
  child: 'site/sitemaps/vanityfair-sitemap.xml',
  site: 'https://www.vanityfair.com/',
};

export const RDAP = {
  bootstrap: 'domain/rdap/iana-bootstrap-all-2022.json',
  google: 'domain/rdap/google.com.verisign.json',
};

/** Origins by path under ../shared/upstream (repository, commit, path there, licence). */
export const ORIGINS: Record<string, Record<string, unknown>> = {
  [TDA.file]: { ...SPIDERGRAM, path: 'tests/fixtures/markup/tda.html' },
  [VANITY_FAIR.index]: { ...SPIDERGRAM, path: 'tests/fixtures/filetypes/sitemap-index.xml' },
  [VANITY_FAIR.child]: { ...SPIDERGRAM, path: 'tests/fixtures/filetypes/sitemap.xml' },
  [RDAP.bootstrap]: { ...WHOISIT, path: 'tests/data_bootstrap.json' },
  [RDAP.google]: { ...WHOISIT, path: 'tests/data_rdap_response_domain1.json' },
};

/** A file nobody recorded, answered as the site would answer a missing one (named so in the provenance). */
export const notRecorded = (host: string, path: string, what: string): ReplayRoute => ({
  name: `${what} of ${host}: not recorded, answered 404`,
  host,
  path,
  status: 404,
  text: '<html><body>Not recorded</body></html>',
  headers: { 'content-type': 'text/html' },
});
