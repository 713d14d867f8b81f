/**
 * The web.contacts record's types, read off its declaration (src/catalogue/endpoints/web.ts); a module of their own so
 * the extractor and the social-profile rules can name the record without importing the normaliser that uses them.
 */
import type { CONTACTS_RECORD } from '../../../catalogue/endpoints/web.js';
import type { TypeOf } from '../../../catalogue/types.js';

/** web.contacts' record. */
export type ContactsRecord = TypeOf<typeof CONTACTS_RECORD>;
/** What `buildRecord` makes: the record with its contact lists always there (empty ones are pruned from the answer). */
export type ContactsFound = ContactsRecord & Required<Pick<ContactsRecord, 'emails' | 'phones' | 'socials'>>;
export type PageSummary = ContactsRecord['pages'][number];
export type SkippedPage = NonNullable<ContactsRecord['skipped']>[number];
