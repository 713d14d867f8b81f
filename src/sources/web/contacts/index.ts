/**
 * web.contacts (issue 5): e-mail addresses, phone numbers (E.164) and social profiles found on a website, each with
 * the pages it was found on. Live: the guarded crawl (./crawl.ts). Test mode: the committed sample pages, produced
 * from a real recorded page by the live crawl against the replay double (scripts/samples/contacts.ts).
 */
import { WEB } from '../../../catalogue/endpoints/web.js';
import { operation } from '../../kit/operation.js';
import { startAddress } from './address.js';
import { crawlContacts, limitsFrom } from './crawl.js';
import samples from '../samples/contacts.json' with { type: 'json' };

/**
 * Priced per page read (perItems 5, counted from `pages`): a site where nothing was found still cost the pages read,
 * so it is billed.
 */
export const contacts = operation(WEB.contacts, {
  async run(input, ctx) {
    return { data: await crawlContacts(startAddress(input.url), limitsFrom(ctx.settings, input.maxPages), ctx) };
  },
  samples,
});
