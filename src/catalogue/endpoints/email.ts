/**
 * The email source (issue 5). SPEC says only "check whether an address can receive mail"; the input, record and
 * price are designed here like the neighbours: one `email` field plus `maxAge` and `tags`, a flat 1 credit like the
 * other single lookups (`domain.whois`, `shopify.store`), keyed. An address that fails the syntax check is answered
 * (200, verdict `undeliverable`) and not billed, like an `unknown` verdict: 400 stays for schema violations.
 */
import { endpoint, text } from '../fields.js';
import { bool, int, list, oneOf, rec, str } from '../records.js';

export const VERDICTS = ['deliverable', 'undeliverable', 'risky', 'unknown'] as const;

/** The reasons behind a verdict, by code (their texts are in src/sources/email/verify.ts). */
export const REASON_CODES = [
  'accepted', 'invalidSyntax', 'unsupportedAddress', 'domainNotFound', 'nullMx', 'noMailServer', 'mxUnresolvable',
  'mxReservedAddress', 'mailboxNotFound', 'mailboxUnavailable', 'catchAll', 'catchAllUnknown', 'disposable', 'roleAccount',
  'implicitMx', 'greylisted', 'temporaryFailure', 'serverBusy', 'throttled', 'probeBlocked', 'tlsRequired', 'smtpTimeout',
  'connectionFailed', 'protocolError', 'dnsFailure',
] as const;

/**
 * email.verify's record: the verdict with its reasons (decisive reason first), the address facts every answer gives,
 * then the mail route and the SMTP conversation where they were reached.
 */
export const EMAIL_RECORD = rec(
  {
    email: str,
    verdict: oneOf(VERDICTS),
    reasons: list(rec({ code: oneOf(REASON_CODES), text: str }), 1),
    /** The local part and the domain (a lower-case A-label, with its Unicode form for an IDN) when the syntax is valid. */
    syntax: rec({ valid: bool }, { local: str, domain: str, unicodeDomain: str }),
    disposable: bool,
    roleAccount: bool,
    freeProvider: bool,
  },
  {
    /** The address as checked: local part as given, domain as its lower-case A-label. */
    normalised: str,
    /** For `unknown`: whether asking again later can give an answer. */
    retryable: bool,
    /** The mail servers by preference; a null MX is `{ exchange: ".", priority: 0 }`. */
    mx: list(rec({ exchange: str, priority: int })),
    /** The mail server that answered last: the reply that decided (RCPT, or the last one), and whether it accepts any address. */
    smtp: rec(
      { server: str, address: str, connected: bool },
      { code: int, enhancedCode: str, message: str, catchAll: bool, startTlsOffered: bool },
    ),
  },
);

export const EMAIL = {
  verify: endpoint({
    id: 'email.verify',
    title: 'Email address verification',
    summary:
      'Checks whether an address can receive mail: syntax, disposable and role addresses, MX records and an SMTP probe (no message sent), with a verdict and reasons.',
    credits: 1,
    perItems: null,
    // An hour: a verdict rests on a mail server's answer, which changes when a mailbox is created or closed, and some
    // answers are passing states (greylisting clears in minutes). Mail servers throttle and block addresses that probe
    // them often, so repeated checks of one address within the hour are answered from the cache; `maxAge: 0` probes anew.
    cacheTtlSeconds: 3600,
    fields: {
      email: text(1, 320, 'the address to check, e.g. jane.doe@example.com (IDN domains allowed)'),
    },
    required: ['email'],
    example: { email: 'jane.doe@example.com' },
    output: EMAIL_RECORD,
  }),
};
