/**
 * email.verify's test-mode sample. No SMTP conversation is recorded anywhere (nor could one be published: it names a
 * real mailbox), so the sample is the live path itself: the real prober, verdict rules and the committed CC0
 * disposable list (src/sources/email/verify.ts) talking to the loopback doubles of the tests (a DNS zone and an
 * smtp-server double, test/sources/email-doubles.ts). One page per verdict; test mode picks one by local part.
 */
import type { SampleSet } from '../../src/sources/kit/samples.js';
import { dnsClient, parseServer } from '../../src/sources/domain/dns.js';
import { pruneData } from '../../src/render/prune.js';
import { createSsrfGuard } from '../../src/upstream/ssrf.js';
import { verifyEmail } from '../../src/sources/email/verify.js';
import { startDnsDouble } from '../../test/sources/openweb-doubles.js';
import { emailZone, SMTP_HOST, startSmtpDouble } from '../../test/sources/email-doubles.js';
import { writeSampleSet } from './kit.js';

const ADDRESSES = {
  deliverable: 'jane.doe@mail.test',
  undeliverable: 'john.smith@mail.test',
  risky: 'anyone@catchall.test',
  unknown: 'jane@grey.test',
} as const;

export async function emailVerify(): Promise<void> {
  const [dns, smtp] = await Promise.all([startDnsDouble(emailZone()), startSmtpDouble()]);
  try {
    const deps = {
      query: dnsClient([parseServer(dns.server)]),
      guard: createSsrfGuard([`${SMTP_HOST}/32`], [dns.server]),
      port: smtp.port,
      heloName: 'probe.quarry.test',
      stepTimeoutMs: 2000,
      totalTimeoutMs: 5000,
    };
    const pages: SampleSet['pages'] = [];
    for (const [verdict, address] of Object.entries(ADDRESSES)) {
      const { record } = await verifyEmail(address, deps);
      if (record.verdict !== verdict) throw new Error(`${address}: expected ${verdict}, got ${record.verdict}`);
      // As the pipeline sends it: empty values (catchAll: null) left out.
      pages.push({ data: pruneData(record as unknown as Record<string, unknown>) });
    }
    if (smtp.dataCalls || smtp.commands.some((c) => /^(DATA|BDAT)\b/i.test(c))) throw new Error('the probe sent DATA');
    writeSampleSet('src/sources/email/samples/verify.json', {
      _provenance: {
        note:
          'No SMTP conversation is recorded in shared/upstream; produced by the real prober and verdict rules ' +
          '(src/sources/email/verify.ts, smtp.ts, mx.ts) against loopback doubles (scripts/samples/email.ts): a dns2 ' +
          'zone and an smtp-server 3.21.6 double answering like Postfix. The disposable list is the committed copy of ' +
          'disposable-email-domains (CC0-1.0, shared/upstream/email). Test-zone names; 127.0.0.1 is the double. One page ' +
          'per verdict: test mode answers the one named by the local part asked (src/sources/email/index.ts).',
        pages: Object.values(ADDRESSES).map((email) => ({ input: { email }, recordings: [] })),
      },
      pages,
    });
    console.log(`wrote email sample: ${pages.map((p) => p.data.verdict).join(', ')}`);
  } finally {
    await Promise.all([dns.close(), smtp.close()]);
  }
}
