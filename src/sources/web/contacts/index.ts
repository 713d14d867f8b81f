/**
 * web.contacts (issue 5): e-mail addresses, phone numbers (E.164) and social profiles found on a website, each with
 * the pages it was found on. Live: the guarded crawl (./crawl.ts). Test mode: the committed sample, produced from a
 * real recorded page by the same normaliser (scripts/samples/contacts.ts).
 */
import { WEB } from '../../../catalogue/endpoints/web.js';
import type { OutputOf } from '../../../catalogue/types.js';
import { operation } from '../../kit/operation.js';
import type { OperationResult } from '../../types.js';
import { startAddress } from './address.js';
import { crawlContacts, limitsFrom } from './crawl.js';
import type { ContactsRecord } from './record.js';
import sample from '../samples/contacts.json' with { type: 'json' };

/** Priced per page read (perItems 5): a site where nothing was found still cost the pages read, so it is billed. */
const result = (record: ContactsRecord): OperationResult<OutputOf<typeof WEB.contacts>> => ({
  data: record,
  items: record.pages.length,
});

export const contacts = operation(WEB.contacts, {
  async run(input, ctx) {
    const start = startAddress(input.url as string);
    const maxPages = typeof input.maxPages === 'number' ? input.maxPages : 5;
    return result(await crawlContacts(start, limitsFrom(ctx.settings, maxPages), ctx));
  },
  sample() {
    return result((sample as unknown as { data: ContactsRecord }).data);
  },
});
