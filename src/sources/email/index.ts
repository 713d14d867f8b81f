/**
 * The email source: `email.verify`, live (DNS through QUARRY_DNS_SERVERS, an SMTP RCPT probe on QUARRY_SMTP_PORT to
 * mail servers the SSRF guard lets through) and from the committed sample pages in test mode.
 *
 * Settings (QUARRY_EMAIL_<NAME>): HELO_NAME (the name the probe introduces itself with; set it to a name whose A and
 * PTR records match the outbound address, default the host name), SMTP_TIMEOUT_MS (longest silence while waiting
 * for one reply, connecting included, default 8000), PROBE_TIMEOUT_MS (whole SMTP conversation over every MX tried,
 * default 15000).
 */
import os from 'node:os';
import { intSetting } from '../../config.js';
import { createSsrfGuard } from '../../upstream/ssrf.js';
import { dnsClient, resolvers } from '../domain/dns.js';
import { EMAIL } from '../../catalogue/endpoints/email.js';
import type { OutputOf } from '../../catalogue/types.js';
import { operation } from '../kit/operation.js';
import type { OperationResult, SourceModule } from '../types.js';
import type { SampleSet } from '../kit/samples.js';
import { verifyEmail, type EmailRecord } from './verify.js';
import samples from './samples/verify.json' with { type: 'json' };

const list = (s: string | undefined): string[] => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean);

/** Milliseconds settings: whole numbers from 1 ms to about 18 hours. */
const MS = { min: 1, max: 65_535_000 };

export const DEFAULTS = { smtpPort: 25, stepTimeoutMs: 8000, totalTimeoutMs: 15_000 };

const verifyOp = operation(EMAIL.verify, {
  async run(input, ctx) {
    const s = ctx.settings;
    const { record, free } = await verifyEmail(input.email, {
      query: dnsClient(resolvers(s.DNS_SERVERS)),
      guard: createSsrfGuard(list(s.OUTBOUND_ALLOW), list(s.DNS_SERVERS)),
      port: intSetting(s, 'SMTP_PORT', { min: 1, max: 65_535 }) ?? DEFAULTS.smtpPort,
      heloName: s.HELO_NAME || os.hostname() || 'localhost',
      stepTimeoutMs: intSetting(s, 'SMTP_TIMEOUT_MS', MS) ?? DEFAULTS.stepTimeoutMs,
      totalTimeoutMs: intSetting(s, 'PROBE_TIMEOUT_MS', MS) ?? DEFAULTS.totalTimeoutMs,
      signal: ctx.signal,
    });
    if (record.verdict === 'unknown' && record.smtp) ctx.log.info({ server: record.smtp.server, reasons: record.reasons.map((r) => r.code) }, 'email probe inconclusive');
    return result(record, free);
  },
  /**
   * Test mode answers one of the recorded conversations (a page each): the one whose verdict is the input's local
   * part (`risky@…`, `undeliverable@…`, `unknown@…`), like a payment API's test card numbers; `deliverable`
   * otherwise. Generic sample pages answer by cursor, and this endpoint has none: the verdict is what a test picks.
   */
  sample(input) {
    const pages = (samples as unknown as SampleSet<EmailRecord>).pages.map((p) => p.data);
    const wanted = input.email.trim().split('@')[0]?.toLowerCase();
    const record = pages.find((r) => r.verdict === wanted) ?? pages.find((r) => r.verdict === 'deliverable')!;
    return result(record, record.verdict === 'unknown');
  },
});

function result(record: EmailRecord, free: boolean): OperationResult<OutputOf<typeof EMAIL.verify>> {
  return { data: record, ...(free ? { free: true } : {}) };
}

const email: SourceModule = {
  id: 'email',
  needs: {
    settings: [
      { name: 'HELO_NAME', required: false, purpose: 'the name the SMTP probe gives in EHLO (default the host name); one whose A and PTR records match the outbound address' },
      { name: 'SMTP_TIMEOUT_MS', required: false, purpose: 'longest silence while waiting for one SMTP reply, connecting included (default 8000)', integer: MS },
      { name: 'PROBE_TIMEOUT_MS', required: false, purpose: 'the whole SMTP conversation, over every MX tried (default 15000)', integer: MS },
    ],
    network: ['outbound TCP port 25 (QUARRY_SMTP_PORT) to mail servers; many hosting networks block it'],
  },
  operations: [verifyOp],
};

export default email;
