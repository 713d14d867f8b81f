/**
 * web.contacts sample: the live crawl (src/sources/web/contacts) against the replay double, serving the real recorded
 * TD Ameritrade page (shared/upstream/site/pages, README "site") at its address, as a one-page crawl: no other page of
 * the site was recorded.
 */
import { recordSamples, type SampleCase } from './kit.js';
import { ORIGINS, TDA } from './openweb.js';

export const CONTACTS_CASE: SampleCase = {
  endpoint: 'web.contacts',
  replay: { folders: [], routes: [{ host: new URL(TDA.url).host, path: new URL(TDA.url).pathname, file: TDA.file }] },
  pages: [{ url: TDA.url, maxPages: 1 }],
  origins: ORIGINS,
  note:
    'Produced by the live web.contacts crawl (src/sources/web/contacts, the kit fetcher and client) against the replay ' +
    'double from a real recorded page (scripts/samples/contacts.ts): autogram-is/spidergram tests/fixtures/markup/tda.html, ' +
    'MIT, committed 2023-01-12 (see shared/upstream/README.md). A one-page crawl. Content belongs to its owner; test data only.',
};

export async function webContacts(): Promise<void> {
  const target = await recordSamples(CONTACTS_CASE);
  console.log(`wrote web.contacts sample: ${target}`);
}
