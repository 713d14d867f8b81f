/** The `domain.whois` record, whichever path (RDAP or port-43 WHOIS) answered, read off its declaration. */
import type { REGISTRATION_RECORD } from '../../catalogue/endpoints/domain.js';
import type { TypeOf } from '../../catalogue/types.js';

export type WhoisData = TypeOf<typeof REGISTRATION_RECORD>;
/** What a registry's or registrar's answer says, before the path that answered is known. */
export type RegistrationRecord = Omit<WhoisData, 'via' | 'server'>;
