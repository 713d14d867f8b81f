/**
 * email.verify (issue 5): the pure parts (syntax, lists, SMTP replies, verdict rules), the prober against hostile
 * raw servers, and the endpoint end to end through the gateway: a dns2 zone names the test domains, an smtp-server
 * double answers RCPT like Postfix, a raw TCP server never speaks. No DATA ever reaches the double.
 */
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsClient, parseServer } from '../../src/sources/domain/dns.js';
import { disposableDomains, isDisposable, isFreeProvider, isRoleAccount, parseDomainList } from '../../src/sources/email/lists.js';
import { parseReply, probe, type ProbeResult, type SmtpReply } from '../../src/sources/email/smtp.js';
import { parseAddress } from '../../src/sources/email/syntax.js';
import { overlay, smtpOutcome, verifyEmail } from '../../src/sources/email/verify.js';
import { createSsrfGuard } from '../../src/upstream/ssrf.js';
import sample from '../../src/sources/email/samples/verify.json' with { type: 'json' };
import { post, type TestGateway } from '../helpers/gateway.js';
import { CLOSED_HOST, emailZone, SILENT_HOST, SMTP_HOST, startSilentServer, startSmtpDouble, type SmtpDouble } from './email-doubles.js';
import { startDnsDouble, startOpenWebGateway, UPSTREAM, type DnsDouble } from './openweb-doubles.js';

const reply = (line: string): SmtpReply => parseReply([line]);

describe('email syntax', () => {
  it.each([
    ['jane.doe@example.com', 'jane.doe', 'example.com'],
    ['  Jane.Doe+news@Example.COM ', 'Jane.Doe+news', 'example.com'],
    ["o'brien_x-y{z}@sub.example.co.uk", "o'brien_x-y{z}", 'sub.example.co.uk'],
    ['user@example.com.', 'user', 'example.com'],
    ['a@b.co', 'a', 'b.co'],
  ])('%s is valid', (input, local, domain) => {
    expect(parseAddress(input)).toMatchObject({ valid: true, local, domain });
  });

  it('turns an IDN domain into its A-label and keeps the Unicode form', () => {
    expect(parseAddress('jose@bücher.example')).toEqual({ valid: true, local: 'jose', domain: 'xn--bcher-kva.example', unicodeDomain: 'bücher.example' });
  });

  it.each([
    ['plainaddress', 'missingAt'],
    ['@example.com', 'missingAt'],
    ['jane@', 'missingAt'],
    ['.jane@example.com', 'localPart'],
    ['jane.@example.com', 'localPart'],
    ['ja..ne@example.com', 'localPart'],
    ['ja ne@example.com', 'localPart'],
    ['a@b@example.com', 'localPart'],
    [`${'a'.repeat(65)}@example.com`, 'localPart'],
    ['"jane doe"@example.com', 'quotedLocalPart'],
    ['jane@[192.0.2.1]', 'ipLiteral'],
    ['jane@localhost', 'domain'],
    ['jane@example.123', 'domain'],
    ['jane@-example.com', 'domain'],
    ['jane@exa_mple.com', 'domain'],
    [`${'j'.repeat(20)}@${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`, 'tooLong'],
    ['jörg@example.com', 'internationalLocalPart'],
  ])('%s is refused (%s)', (input, problem) => {
    expect(parseAddress(input)).toMatchObject({ valid: false, problem });
  });
});

describe('email lists', () => {
  it('loads the committed CC0 disposable list once, byte for byte the recorded one', () => {
    const list = disposableDomains();
    expect(list.size).toBe(8335);
    expect(disposableDomains()).toBe(list);
    const recorded = `${UPSTREAM}email/disposable_email_blocklist.conf`;
    if (existsSync(recorded)) {
      const committed = new URL('../../src/sources/email/disposable-domains.txt', import.meta.url);
      expect(readFileSync(committed, 'utf8')).toBe(readFileSync(recorded, 'utf8'));
    }
  });

  it('matches a listed domain and its sub-domains, not look-alikes', () => {
    expect(isDisposable('guerrillamail.com')).toBe(true);
    expect(isDisposable('x.y.guerrillamail.com')).toBe(true);
    expect(isDisposable('notguerrillamail.com')).toBe(false);
    expect(isDisposable('example.com')).toBe(false);
    expect(isDisposable('com', parseDomainList('# comment\n\ncom\n'))).toBe(false);
  });

  it('knows role mailboxes whatever their case or +tag, and the big free providers', () => {
    expect(isRoleAccount('Sales+EU')).toBe(true);
    expect(isRoleAccount('postmaster')).toBe(true);
    expect(isRoleAccount('jane.doe')).toBe(false);
    expect(isFreeProvider('gmail.com')).toBe(true);
    expect(isFreeProvider('example.com')).toBe(false);
  });
});

describe('SMTP replies and verdict rules', () => {
  it('parses multi-line replies and enhanced status codes', () => {
    const r = parseReply(['250-mx.example.com', '250-PIPELINING', '250 STARTTLS']);
    expect(r).toMatchObject({ code: 250, text: 'mx.example.com PIPELINING STARTTLS' });
    expect(r.enhanced).toBeUndefined();
    expect(reply('550 5.1.1 <a@b.c>: User unknown')).toMatchObject({ code: 550, enhanced: '5.1.1', text: '<a@b.c>: User unknown' });
  });

  const conversation = (target?: string, random?: string, extra: Partial<ProbeResult> = {}): ProbeResult => ({
    server: 'mx.example.com',
    address: '192.0.2.1',
    connected: true,
    commands: [],
    greeting: reply('220 mx.example.com ESMTP'),
    hello: reply('250 mx.example.com'),
    mailFrom: reply('250 2.1.0 Ok'),
    ...(target ? { target: reply(target) } : {}),
    ...(random ? { random: reply(random) } : {}),
    ...extra,
  });

  it.each([
    ['250 2.1.5 Ok', '550 5.1.1 unknown', 'deliverable', 'accepted', false],
    ['250 2.1.5 Ok', '250 2.1.5 Ok', 'risky', 'catchAll', true],
    ['251 2.1.5 forwarded', '550 5.1.1 no', 'deliverable', 'accepted', false],
    ['250 Ok', '450 4.2.0 try later', 'deliverable', 'accepted', undefined],
    ['550 5.1.1 User unknown', undefined, 'undeliverable', 'mailboxNotFound', false],
    ['550 5.1.10 Recipient address rejected: null MX', undefined, 'undeliverable', 'mailboxNotFound', false],
    ['550 No such user here', undefined, 'undeliverable', 'mailboxNotFound', false],
    ['553 mailbox name not allowed', undefined, 'undeliverable', 'mailboxNotFound', false],
    ['552 5.2.2 Mailbox full', undefined, 'undeliverable', 'mailboxUnavailable', false],
    ['550 5.7.1 Client host blocked', undefined, 'unknown', 'probeBlocked', undefined],
    ['554 Service unavailable', undefined, 'unknown', 'probeBlocked', undefined],
    ['550 5.1.8 Bad sender address', undefined, 'unknown', 'probeBlocked', undefined],
    ['530 5.7.0 Must issue a STARTTLS command first', undefined, 'unknown', 'tlsRequired', undefined],
    ['450 4.2.0 Greylisted', undefined, 'unknown', 'greylisted', undefined],
    ['451 4.7.1 Try again later', undefined, 'unknown', 'greylisted', undefined],
    ['452 4.5.3 Too many recipients', undefined, 'unknown', 'temporaryFailure', undefined],
    ['421 4.7.0 closing', undefined, 'unknown', 'serverBusy', undefined],
  ])('RCPT %s, random %s → %s (%s)', (target, random, verdict, code, catchAll) => {
    const o = smtpOutcome(conversation(target, random));
    expect(o.verdict).toBe(verdict);
    expect(o.reasons[0].code).toBe(code);
    expect(o.catchAll).toBe(catchAll);
  });

  it('explains a conversation that stopped before RCPT', () => {
    expect(smtpOutcome(conversation(undefined, undefined, { greeting: reply('554 5.7.1 go away'), hello: undefined, mailFrom: undefined })).reasons[0].code).toBe('probeBlocked');
    expect(smtpOutcome(conversation(undefined, undefined, { greeting: reply('421 busy'), hello: undefined, mailFrom: undefined })).reasons[0].code).toBe('serverBusy');
    expect(smtpOutcome(conversation(undefined, undefined, { mailFrom: reply('451 4.3.0 local error') })).reasons[0].code).toBe('greylisted');
    const silent: ProbeResult = { server: 's', address: '192.0.2.1', connected: true, commands: [], failure: { kind: 'timeout', step: 'greeting', detail: 'no answer within 1000 ms' } };
    expect(smtpOutcome(silent)).toMatchObject({ verdict: 'unknown', reasons: [{ code: 'smtpTimeout' }] });
    const refused: ProbeResult = { server: 's', address: '192.0.2.1', connected: false, commands: [], failure: { kind: 'refused', step: 'connect', detail: 'connection failed (ECONNREFUSED)' } };
    expect(smtpOutcome(refused).reasons[0].code).toBe('connectionFailed');
  });

  it('a disposable domain is never better than risky; a role account is said but changes nothing', () => {
    const ok = smtpOutcome(conversation('250 Ok', '550 5.1.1 no'));
    expect(overlay(ok, { disposable: true, roleAccount: false })).toMatchObject({ verdict: 'risky', reasons: [{ code: 'disposable' }, { code: 'accepted' }] });
    expect(overlay(ok, { disposable: false, roleAccount: true })).toMatchObject({ verdict: 'deliverable', reasons: [{ code: 'accepted' }, { code: 'roleAccount' }] });
    const gone = smtpOutcome(conversation('550 5.1.1 no'));
    expect(overlay(gone, { disposable: true, roleAccount: false }).verdict).toBe('undeliverable');
  });
});

/** A raw TCP server that plays `script(socket)`; for the prober's hostile cases. */
async function rawServer(script: (s: net.Socket) => void): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    script(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    }),
  };
}

describe('the prober against hostile servers', () => {
  const run = (port: number, stepTimeoutMs = 1000, totalMs = 3000) =>
    probe({ server: 'mx.test', address: '127.0.0.1', port, heloName: 'probe.test', target: 'a@b.test', randomAddress: 'r@b.test', stepTimeoutMs, deadline: Date.now() + totalMs });

  it('reads a multi-line greeting sent in pieces, and stops at a line longer than the cap', async () => {
    const srv = await rawServer((s) => {
      s.write('220-mx.test ESMTP\r\n220');
      setTimeout(() => s.write(' ready\r\n'), 20);
      s.on('data', () => s.write(`250 ${'x'.repeat(5000)}\r\n`));
    });
    try {
      const r = await run(srv.port);
      expect(r.greeting).toMatchObject({ code: 220, text: 'mx.test ESMTP ready' });
      expect(r.failure).toMatchObject({ kind: 'protocol', step: 'hello' });
      expect(smtpOutcome(r).reasons[0].code).toBe('protocolError');
    } finally {
      await srv.close();
    }
  });

  it('refuses an endless multi-line reply, a non-SMTP answer and a flood of unasked replies', async () => {
    const endless = await rawServer((s) => {
      const pump = () => s.write('220-spam spam spam\r\n'.repeat(50), () => setImmediate(pump));
      pump();
    });
    const http = await rawServer((s) => s.write('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const flood = await rawServer((s) => {
      const pump = () => s.write('220 hello again\r\n'.repeat(50), () => setImmediate(pump));
      pump();
    });
    try {
      expect((await run(endless.port)).failure).toMatchObject({ kind: 'protocol', step: 'greeting' });
      expect((await run(http.port)).failure).toMatchObject({ kind: 'protocol', step: 'greeting' });
      expect((await run(flood.port)).failure).toMatchObject({ kind: 'protocol', detail: 'the server sent replies to commands never sent' });
    } finally {
      await Promise.all([endless.close(), http.close(), flood.close()]);
    }
  });

  it('a server that dribbles bytes is cut off by the total deadline', async () => {
    const slow = await rawServer((s) => {
      const t = setInterval(() => s.write('2'), 100);
      s.on('close', () => clearInterval(t));
    });
    try {
      const started = Date.now();
      const r = await run(slow.port, 500, 800);
      expect(r.failure).toMatchObject({ kind: 'timeout' });
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      await slow.close();
    }
  });

  it('a server that hangs up after its greeting is a failed connection', async () => {
    const rude = await rawServer((s) => s.end('220 bye\r\n'));
    try {
      const r = await run(rude.port);
      expect(r.failure).toMatchObject({ kind: 'closed', step: 'hello' });
      expect(smtpOutcome(r).reasons[0].code).toBe('connectionFailed');
    } finally {
      await rude.close();
    }
  });

  it('DNS servers that do not answer are an error (not billed, not cached), worded for email', async () => {
    const guard = createSsrfGuard();
    const dead = await rawServer(() => undefined); // a TCP port; nothing answers UDP there
    try {
      await expect(
        verifyEmail('jane@mail.test', { query: dnsClient([parseServer(`127.0.0.1:${dead.port}`)], 300), guard, port: 25, heloName: 'p.test', stepTimeoutMs: 500, totalTimeoutMs: 1000 }),
      ).rejects.toMatchObject({ code: expect.stringMatching(/^source(Timeout|Unavailable)$/), message: expect.stringMatching(/^email: /) });
    } finally {
      await dead.close();
    }
  });
});

describe('email.verify through the gateway', () => {
  let gw: TestGateway;
  let dns: DnsDouble;
  let smtp: SmtpDouble;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;
  const verify = (email: unknown, k = key, extra: Record<string, unknown> = {}) => post(gw.url, '/v1/email/verify', { email, ...extra }, { key: k });

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsDouble(emailZone()), startSmtpDouble()]);
    silent = await startSilentServer(smtp.port);
    ({ gw, key, testKey, accountId } = await startOpenWebGateway(dns, {
      QUARRY_OUTBOUND_ALLOW: `${SMTP_HOST}/32,${SILENT_HOST}/32,${CLOSED_HOST}/32`,
      QUARRY_SMTP_PORT: String(smtp.port),
      QUARRY_EMAIL_HELO_NAME: 'probe.quarry.test',
      QUARRY_EMAIL_SMTP_TIMEOUT_MS: '1000',
      QUARRY_EMAIL_PROBE_TIMEOUT_MS: '3000',
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([dns?.close(), smtp?.close(), silent?.close()]);
  });

  it('is in the catalogue: available, 1 credit, an hour of cache, an example', async () => {
    const r = await fetch(`${gw.url}/v1/catalogue`).then((x) => x.json());
    const entry = r.data.endpoints.find((e: { id: string }) => e.id === 'email.verify');
    expect(entry).toMatchObject({ available: true, credits: 1, keyless: false, perItems: null, cacheTtlSeconds: 3600, example: { email: 'jane.doe@example.com' } });
    expect(entry.input.required).toEqual(['email']);
  });

  it('deliverable: the mailbox is accepted and a made-up one refused; billed 1; the probe says EHLO, MAIL FROM:<>, two RCPT, RSET, QUIT', async () => {
    const before = await balance();
    const from = smtp.commands.length;
    const r = await verify('Jane.Doe@MAIL.test');
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ success: true, creditsUsed: 1 });
    expect(r.json.data).toMatchObject({
      email: 'Jane.Doe@MAIL.test',
      normalised: 'Jane.Doe@mail.test',
      verdict: 'deliverable',
      reasons: [{ code: 'accepted' }],
      syntax: { valid: true, local: 'Jane.Doe', domain: 'mail.test' },
      disposable: false,
      roleAccount: false,
      freeProvider: false,
      mx: [{ exchange: 'mx.mail.test', priority: 10 }],
      smtp: { server: 'mx.mail.test', address: '127.0.0.1', connected: true, code: 250, catchAll: false, startTlsOffered: true },
    });
    expect(r.json.data.retryable).toBeUndefined();
    const said = smtp.commands.slice(from);
    expect(said.slice(0, 3)).toEqual(['EHLO probe.quarry.test', 'MAIL FROM:<>', 'RCPT TO:<Jane.Doe@mail.test>']);
    expect(said[3]).toMatch(/^RCPT TO:<[0-9a-f]{16}@mail\.test>$/);
    expect(said.slice(4)).toEqual(['RSET', 'QUIT']);
    expect(await balance()).toBe(before - 1);
  });

  it('undeliverable: 550 5.1.1 for the mailbox; billed', async () => {
    const before = await balance();
    const r = await verify('nobody@mail.test');
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(1);
    expect(r.json.data).toMatchObject({ verdict: 'undeliverable', reasons: [{ code: 'mailboxNotFound' }], smtp: { code: 550, enhancedCode: '5.1.1', catchAll: false } });
    expect(r.json.data.reasons[0].text).toContain('User unknown');
    expect(await balance()).toBe(before - 1);
  });

  it('risky: a server that accepts any address (catch-all); billed', async () => {
    const r = await verify('whoever@catchall.test');
    expect(r.json).toMatchObject({ creditsUsed: 1, data: { verdict: 'risky', reasons: [{ code: 'catchAll' }], smtp: { catchAll: true } } });
  });

  it('risky: a disposable domain from the CC0 list, even with a real mailbox; a role account is flagged', async () => {
    const d = await verify('temp@guerrillamail.com');
    expect(d.json.data).toMatchObject({ verdict: 'risky', disposable: true, reasons: [{ code: 'disposable' }, { code: 'accepted' }] });
    const role = await verify('info@mail.test');
    expect(role.json.data).toMatchObject({ verdict: 'deliverable', roleAccount: true, reasons: [{ code: 'accepted' }, { code: 'roleAccount' }] });
  });

  it('unknown: greylisted (450) is answered, retryable, and not billed', async () => {
    const before = await balance();
    const r = await verify('jane@grey.test');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ creditsUsed: 0, data: { verdict: 'unknown', retryable: true, reasons: [{ code: 'greylisted' }], smtp: { code: 450 } } });
    expect(r.headers.get('x-credits-used')).toBe('0');
    expect(await balance()).toBe(before);
  });

  it('unknown: a policy block (554 5.7.1) is not the mailbox; not retryable, not billed', async () => {
    const r = await verify('jane@blocked.test');
    expect(r.json).toMatchObject({ creditsUsed: 0, data: { verdict: 'unknown', retryable: false, reasons: [{ code: 'probeBlocked' }] } });
  });

  it('null MX (RFC 7505) is undeliverable without contacting any server; billed', async () => {
    const connections = smtp.connections;
    const r = await verify('jane@nullmx.test');
    expect(r.json).toMatchObject({ creditsUsed: 1, data: { verdict: 'undeliverable', reasons: [{ code: 'nullMx' }], mx: [{ exchange: '.', priority: 0 }] } });
    expect(r.json.data.smtp).toBeUndefined();
    expect(smtp.connections).toBe(connections);
  });

  it('no MX: the domain itself is the mail server (implicit MX); no domain, no mail server: undeliverable', async () => {
    const implicit = await verify('jane@nomx.test');
    expect(implicit.json.data).toMatchObject({ verdict: 'deliverable', mx: [{ exchange: 'nomx.test', priority: 0 }], reasons: [{ code: 'accepted' }, { code: 'implicitMx' }] });
    expect((await verify('jane@nonexistent.test')).json.data).toMatchObject({ verdict: 'undeliverable', reasons: [{ code: 'domainNotFound' }] });
    expect((await verify('jane@empty.test')).json.data).toMatchObject({ verdict: 'undeliverable', reasons: [{ code: 'noMailServer' }] });
    expect((await verify('jane@ghost.test')).json.data).toMatchObject({ verdict: 'undeliverable', reasons: [{ code: 'mxUnresolvable' }] });
  });

  it('an MX at 10.0.0.1 is refused by the SSRF guard: never contacted, said clearly', async () => {
    const started = Date.now();
    const r = await verify('jane@intranet.test');
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ verdict: 'undeliverable', mx: [{ exchange: 'private.test' }], reasons: [{ code: 'mxReservedAddress' }] });
    expect(r.json.data.reasons[0].text).toContain('private.test (10.0.0.1)');
    expect(r.json.data.smtp).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('the most preferred MX (or a host\'s first address) refuses connections: the next one answers', async () => {
    const r = await verify('jane@fallback.test');
    expect(r.json.data.mx).toEqual([
      { exchange: 'down.fallback.test', priority: 10 },
      { exchange: 'mx.mail.test', priority: 20 },
    ]);
    expect(r.json.data).toMatchObject({ verdict: 'deliverable', smtp: { server: 'mx.mail.test' }, reasons: [{ code: 'accepted' }, { code: 'connectionFailed' }] });
    expect(r.json.data.reasons[1].text).toMatch(/^down\.fallback\.test \(127\.0\.0\.3\): .*ECONNREFUSED/);
    const twoAddresses = await verify('jane@twoaddr.test');
    expect(twoAddresses.json.data).toMatchObject({ verdict: 'deliverable', smtp: { server: 'mx.twoaddr.test', address: '127.0.0.1' } });
    expect(twoAddresses.json.data.reasons[1].text).toMatch(/^mx\.twoaddr\.test \(127\.0\.0\.3\): /);
    const alone = await verify('jane@refused.test');
    expect(alone.json).toMatchObject({ creditsUsed: 0, data: { verdict: 'unknown', retryable: true, reasons: [{ code: 'connectionFailed' }] } });
  });

  it('a server that never says a word: unknown within about a second, not billed', async () => {
    const before = await balance();
    const accepted = silent.accepted;
    const started = Date.now();
    const r = await verify('jane@silent.test');
    const took = Date.now() - started;
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ creditsUsed: 0, data: { verdict: 'unknown', retryable: true, reasons: [{ code: 'smtpTimeout' }], smtp: { server: 'mx.silent.test', connected: true } } });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);
    expect(silent.accepted).toBe(accepted + 1);
    expect(await balance()).toBe(before);
  });

  it('a malformed address is answered undeliverable and not billed; schema violations are 400 naming the field', async () => {
    const before = await balance();
    const bad = await verify('jane@@example..com');
    expect(bad.status).toBe(200);
    expect(bad.json).toMatchObject({ creditsUsed: 0, data: { verdict: 'undeliverable', reasons: [{ code: 'invalidSyntax' }], syntax: { valid: false } } });
    for (const body of [{}, { email: 42 }, { email: '' }, { email: `${'a'.repeat(320)}@x.com` }, { email: 'a@b.test', extra: 1 }]) {
      const r = await post(gw.url, '/v1/email/verify', body, { key });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('invalidRequest');
      expect(r.json.error.message).toMatch(/email|extra/);
    }
    expect(await balance()).toBe(before);
  });

  it('test-mode keys answer the committed samples by verdict, never probe, never spend', async () => {
    const before = await balance();
    const connections = smtp.connections;
    const data = Object.fromEntries(sample.pages.map((p) => [p.data.verdict, p.data]));
    const deliverable = await verify('anyone@example.com', testKey);
    expect(deliverable.status).toBe(200);
    expect(deliverable.json).toMatchObject({ success: true, creditsUsed: 1, data: { verdict: 'deliverable', email: 'jane.doe@mail.test' } });
    expect(deliverable.json.data.smtp).toEqual({ ...(data.deliverable as any).smtp });
    expect((await verify('risky@example.com', testKey)).json.data.verdict).toBe('risky');
    expect((await verify('undeliverable@example.com', testKey)).json.data.verdict).toBe('undeliverable');
    expect((await verify('unknown@example.com', testKey)).json).toMatchObject({ creditsUsed: 0, data: { verdict: 'unknown' } });
    expect(smtp.connections).toBe(connections);
    expect(await balance()).toBe(before);
  });

  it('the committed sample is what the prober produces today (scripts/samples/email.ts)', () => {
    const data = Object.fromEntries(sample.pages.map((p) => [p.data.verdict, p.data]));
    expect(Object.keys(data).sort()).toEqual(['deliverable', 'risky', 'undeliverable', 'unknown']);
    for (const [verdict, record] of Object.entries(data)) expect(record.verdict).toBe(verdict);
  });

  it('never sent DATA (nor BDAT) in any conversation', () => {
    expect(smtp.commands.length).toBeGreaterThan(20);
    expect(smtp.commands.filter((c) => /^(DATA|BDAT)\b/i.test(c))).toEqual([]);
    expect(smtp.dataCalls).toBe(0);
  });
});
