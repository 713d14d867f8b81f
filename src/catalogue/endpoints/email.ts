/**
 * The email source (issue 5). SPEC says only "check whether an address can receive mail"; the input, record and
 * price are designed here like the neighbours: one `email` field plus `maxAge` and `tags`, a flat 1 credit like the
 * other single lookups (`domain.whois`, `shopify.store`), keyed. An address that fails the syntax check is answered
 * (200, verdict `undeliverable`) and not billed, like an `unknown` verdict: 400 stays for schema violations.
 */
import { endpoint, text } from '../fields.js';
import { bool, int, list, oneOf, rec, str } from '../records.js';

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
    output: rec(
      {
        email: str,
        verdict: oneOf(['deliverable', 'undeliverable', 'risky', 'unknown']),
        reasons: list(rec({ code: str, text: str }), 1),
        syntax: rec({ valid: bool }, { local: str, domain: str }),
      },
      {
        normalised: str,
        retryable: bool,
        disposable: bool,
        roleAccount: bool,
        freeProvider: bool,
        mx: list(rec({ exchange: str, priority: int })),
        smtp: rec({}, { server: str, connected: bool, code: int, message: str, catchAll: bool }),
      },
    ),
  }),
};
