/** The `domain.whois` record, whichever path (RDAP or port-43 WHOIS) answered. */
export interface RegistrationRecord {
  /** The domain asked, as an A-label (punycode), lower case. */
  domain: string;
  /** Unicode form for an internationalised name. */
  unicodeDomain?: string;
  registered: boolean;
  registrar?: { name?: string; ianaId?: string; url?: string };
  /** ISO 8601: a UTC date-time, or a date where the registry gives only a date. */
  createdAt?: string;
  updatedAt?: string;
  expiresAt?: string;
  /** EPP status codes (RDAP's spelled-out forms mapped back: `clientTransferProhibited`), else the registry's words. */
  statuses?: string[];
  nameServers?: string[];
  /** Whether the delegation is signed; omitted when the answer does not say. */
  dnssec?: boolean;
}

export interface WhoisData extends RegistrationRecord {
  /** Which path answered: `rdap` or `whois` (port 43). */
  via: 'rdap' | 'whois';
  /** The server that answered last (RDAP base address or WHOIS host). */
  server: string;
}
