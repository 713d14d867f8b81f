/**
 * web.contacts sample: the real recorded TD Ameritrade page (shared/upstream/site/pages, README "site"), read by the
 * same normaliser as the live crawl (src/sources/web/contacts/record.ts) as the one page of a one-page crawl.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildRecord, readPage } from '../../src/sources/web/contacts/record.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const FILE = 'site/pages/tdameritrade-setting-financial-goals.html';
const PAGE_URL = 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html';

export function webContacts(): void {
  const html = readFileSync(`${repo}../shared/upstream/${FILE}`, 'utf8');
  const record = buildRecord(new URL(PAGE_URL).origin, [readPage(html, PAGE_URL, 200)]);
  writeFileSync(
    `${repo}src/sources/web/samples/contacts.json`,
    `${JSON.stringify(
      {
        _provenance: {
          note:
            'Normalised by src/sources/web/contacts/record.ts from a real recorded page (scripts/samples/contacts.ts): ' +
            'autogram-is/spidergram @ 0fb2cddb725815ab5a132295849f43865a88b6ad tests/fixtures/markup/tda.html, MIT, ' +
            'committed 2023-01-12 (see shared/upstream/README.md). A one-page crawl. Content belongs to its owner; test data only.',
          sources: [{ recording: `shared/upstream/${FILE}`, request: `GET ${PAGE_URL}` }],
        },
        data: record,
      },
      null,
      1,
    )}\n`,
  );
  console.log(`wrote web.contacts sample: ${record.emails.length} e-mails, ${record.phones.length} phones, ${record.socials.length} profiles`);
}
