/**
 * email.verify: syntax → disposable / role / free provider → mail route (MX, null MX, implicit MX) → SMTP RCPT probe
 * of the most preferred reachable MX with a catch-all probe → one verdict with its reasons, decisive reason first.
 * The verdict rules are pure (`smtpOutcome`, `overlay`) so they are tested without a network.
 */
import { randomBytes } from 'node:crypto';
import type { EMAIL_RECORD } from '../../catalogue/endpoints/email.js';
import type { TypeOf } from '../../catalogue/types.js';
import { isQuarryError } from '../../errors.js';
import type { SsrfGuard } from '../../upstream/ssrf.js';
import type { Query } from '../domain/dns.js';
import { isDisposable, isFreeProvider, isRoleAccount } from './lists.js';
import { hostAddresses, mailRoute, type MailHost } from './mx.js';
import { probe, type ProbeResult, type SmtpReply } from './smtp.js';
import { withServerSlot } from './server-slots.js';
import { PROBLEM_TEXT, parseAddress } from './syntax.js';

/** email.verify's record, read off its declaration (src/catalogue/endpoints/email.ts). */
export type EmailRecord = TypeOf<typeof EMAIL_RECORD>;
export type Verdict = EmailRecord['verdict'];
export type Reason = EmailRecord['reasons'][number];
export type ReasonCode = Reason['code'];
export type SmtpSummary = NonNullable<EmailRecord['smtp']>;

/** Each reason's text, by the code the record declares. */
export const REASONS: Record<ReasonCode, string> = {
  accepted: 'the mail server accepted the address and refused a made-up one at the same domain',
  invalidSyntax: 'the address is not valid',
  unsupportedAddress: 'this kind of address cannot be checked',
  domainNotFound: 'the domain does not exist',
  nullMx: 'the domain declares that it accepts no mail (null MX, RFC 7505)',
  noMailServer: 'the domain has no MX record and no address to deliver to',
  mxUnresolvable: 'a mail server of the domain has no address',
  mxReservedAddress: 'a mail server of the domain points to a private or reserved address; it was not contacted',
  mailboxNotFound: 'the mail server says this mailbox does not exist',
  mailboxUnavailable: 'the mail server says this mailbox cannot take mail (disabled or full)',
  catchAll: 'the mail server accepts any address at this domain, so this one may not exist',
  catchAllUnknown: 'the mail server did not say whether it accepts any address at this domain',
  disposable: 'the domain is a disposable (throw-away) mail service',
  roleAccount: 'the mailbox belongs to a role or team rather than a person',
  implicitMx: 'the domain has no MX record; mail goes to the domain\'s own address',
  greylisted: 'the mail server asked to try again later (greylisting)',
  temporaryFailure: 'the mail server failed temporarily',
  serverBusy: 'the mail server is busy or closing the connection (421)',
  throttled: 'other checks of this mail server were running; it was not contacted again in the time allowed',
  probeBlocked: 'the mail server refused to answer our check (policy or reputation block)',
  tlsRequired: 'the mail server wants TLS before it answers',
  smtpTimeout: 'the mail server did not answer in time',
  connectionFailed: 'the mail server could not be reached',
  protocolError: 'the mail server answered something that is not SMTP, or too much of it',
  dnsFailure: 'the DNS servers could not say where the mail server is',
};

export interface VerifyDeps {
  query: Query;
  guard: SsrfGuard;
  port: number;
  heloName: string;
  stepTimeoutMs: number;
  totalTimeoutMs: number;
  signal?: AbortSignal;
  /** The catch-all probe's local part; random by default. */
  randomLocal?: () => string;
}

/** Connections tried when the preferred MX cannot be reached (RFC 5321 §5.1 fallback), within the time budget. */
export const MAX_ATTEMPTS = 3;
const RETRYABLE: ReadonlySet<ReasonCode> = new Set(['greylisted', 'temporaryFailure', 'serverBusy', 'throttled', 'smtpTimeout', 'connectionFailed', 'dnsFailure']);
const MESSAGE_MAX = 300;

const reason = (code: ReasonCode, detail?: string): Reason => ({ code, text: detail ? `${REASONS[code]}: ${detail}` : REASONS[code] });

/** A server's words, made safe to show: printable, bounded. */
function clean(text: string): string {
  const t = text.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return t.length > MESSAGE_MAX ? `${t.slice(0, MESSAGE_MAX - 1)}…` : t;
}

interface Outcome {
  verdict: Verdict;
  reasons: Reason[];
  catchAll?: boolean;
  /** The reply behind the verdict. */
  reply?: SmtpReply;
}

/** A non-2xx reply before or at RCPT → why the check could not conclude (the verdict for a 5xx RCPT is decided apart). */
function refusalReason(r: SmtpReply): ReasonCode {
  if (r.code === 421) return 'serverBusy';
  if (r.code === 530 || (r.enhanced === '5.7.0' && /tls/i.test(r.text))) return 'tlsRequired';
  if (r.code >= 400 && r.code < 500) return r.code === 450 || r.code === 451 ? 'greylisted' : 'temporaryFailure';
  return 'probeBlocked';
}

/** RCPT refused for good: is it the mailbox (undeliverable) or us (unknown)? */
function mailboxRefusal(r: SmtpReply): ReasonCode | undefined {
  const e = r.enhanced;
  if (e) {
    if (e === '5.1.7' || e === '5.1.8') return undefined; // about our (null) sender, not the mailbox
    if (e.startsWith('5.1.')) return 'mailboxNotFound';
    if (e.startsWith('5.2.')) return 'mailboxUnavailable';
    if (e.startsWith('5.7.') || e.startsWith('5.3.') || e.startsWith('5.4.')) return undefined;
  }
  if (r.code === 550 || r.code === 551 || r.code === 553) return 'mailboxNotFound';
  if (r.code === 552) return 'mailboxUnavailable';
  return undefined;
}

const failureReason = (kind: NonNullable<ProbeResult['failure']>['kind']): ReasonCode =>
  kind === 'timeout' ? 'smtpTimeout' : kind === 'protocol' ? 'protocolError' : 'connectionFailed';

/** The verdict one SMTP conversation supports. */
export function smtpOutcome(p: ProbeResult): Outcome {
  const said = (r: SmtpReply) => (r.text ? `${r.code} ${clean(r.text)}` : String(r.code));
  if (p.target && (p.target.code === 250 || p.target.code === 251)) {
    const random = p.random;
    if (random && (random.code === 250 || random.code === 251)) {
      return { verdict: 'risky', reasons: [reason('catchAll')], catchAll: true, reply: p.target };
    }
    if (random && random.code >= 500) return { verdict: 'deliverable', reasons: [reason('accepted')], catchAll: false, reply: p.target };
    return {
      verdict: 'deliverable',
      reasons: [reason('accepted', 'the mail server accepted the address'), reason('catchAllUnknown', random ? said(random) : p.failure?.detail)],
      reply: p.target,
    };
  }
  if (p.target && p.target.code >= 500) {
    const code = mailboxRefusal(p.target);
    if (code) return { verdict: 'undeliverable', reasons: [reason(code, said(p.target))], catchAll: false, reply: p.target };
    return { verdict: 'unknown', reasons: [reason(refusalReason(p.target), said(p.target))], reply: p.target };
  }
  if (p.target) return { verdict: 'unknown', reasons: [reason(refusalReason(p.target), said(p.target))], reply: p.target };
  // Stopped before any RCPT answer: the latest reply, when it was not the expected one, says why.
  const latest = p.mailFrom ?? p.hello ?? p.greeting;
  if (latest && latest.code !== (latest === p.greeting ? 220 : 250)) {
    return { verdict: 'unknown', reasons: [reason(refusalReason(latest), said(latest))], reply: latest };
  }
  if (p.failure) return { verdict: 'unknown', reasons: [reason(failureReason(p.failure.kind), p.failure.detail)], reply: latest };
  return { verdict: 'unknown', reasons: [reason('protocolError', 'the conversation ended without an answer')], reply: latest };
}

/** Address facts on top of the mail server's verdict: a disposable domain is never better than risky. */
export function overlay(o: Outcome, facts: { disposable: boolean; roleAccount: boolean }): Outcome {
  let { verdict } = o;
  const reasons = [...o.reasons];
  if (facts.disposable) {
    if (verdict === 'deliverable') {
      verdict = 'risky';
      reasons.unshift(reason('disposable'));
    } else reasons.push(reason('disposable'));
  }
  if (facts.roleAccount) reasons.push(reason('roleAccount'));
  return { ...o, verdict, reasons };
}

/** Whether the next MX host is worth trying: the server was not there to answer, rather than answering no. */
function unreached(p: ProbeResult): boolean {
  if (!p.greeting) return true;
  return p.greeting.code === 421 || (p.greeting.code >= 400 && p.greeting.code < 500);
}

const bracket = (ip: string) => (ip.includes(':') ? `[${ip}]` : ip);

export async function verifyEmail(email: string, deps: VerifyDeps): Promise<{ record: EmailRecord; free: boolean }> {
  const syntax = parseAddress(email);
  const facts: Facts = {
    syntax: { valid: syntax.valid, local: syntax.local, domain: syntax.domain, unicodeDomain: syntax.unicodeDomain },
    disposable: false,
    roleAccount: false,
    freeProvider: false,
    mx: [],
  };
  if (!syntax.valid) {
    const unsupported = syntax.problem === 'internationalLocalPart';
    const reasons = [reason(unsupported ? 'unsupportedAddress' : 'invalidSyntax', PROBLEM_TEXT[syntax.problem!])];
    // Nothing was looked up: an address that fails the syntax check is answered, but not billed.
    return { record: build(email, undefined, { verdict: unsupported ? 'unknown' : 'undeliverable', reasons }, facts), free: true };
  }
  const local = syntax.local!;
  const domain = syntax.domain!;
  facts.disposable = isDisposable(domain);
  facts.roleAccount = isRoleAccount(local);
  facts.freeProvider = isFreeProvider(domain);
  const finish = (o: Outcome, smtp?: SmtpSummary) => {
    const record = build(email, `${local}@${domain}`, overlay(o, facts), facts, smtp);
    // An `unknown` is no answer: it is not billed.
    return { record, free: record.verdict === 'unknown' };
  };

  const route = await mailRoute(domain, deps.query);
  if (route.kind === 'noDomain') return finish({ verdict: 'undeliverable', reasons: [reason('domainNotFound')] });
  if (route.kind === 'nullMx') {
    facts.mx = [{ exchange: '.', priority: 0 }];
    return finish({ verdict: 'undeliverable', reasons: [reason('nullMx')] });
  }
  if (route.kind === 'none') return finish({ verdict: 'undeliverable', reasons: [reason('noMailServer')] });
  facts.mx = route.hosts;

  const deadline = Date.now() + deps.totalTimeoutMs;
  const skipped: Reason[] = route.kind === 'implicit' ? [reason('implicitMx')] : [];
  let lastProbe: ProbeResult | undefined;
  const unreachedHosts: ProbeResult[] = [];
  let attempts = 0;
  const timeLeft = () => Date.now() < deadline && !deps.signal?.aborted;
  hosts: for (const host of route.hosts) {
    if (attempts >= MAX_ATTEMPTS || !timeLeft()) break;
    let addresses: string[];
    try {
      addresses = (await hostAddresses(host.exchange, deps.query)).addresses;
    } catch (e) {
      if (!isQuarryError(e)) throw e;
      skipped.push(reason('dnsFailure', `${host.exchange}: ${e.message}`));
      continue;
    }
    if (!addresses.length) {
      skipped.push(reason('mxUnresolvable', host.exchange));
      continue;
    }
    const refused = await firstRefused(addresses, deps.guard);
    if (refused) {
      skipped.push(reason('mxReservedAddress', `${host.exchange} (${refused})`));
      continue;
    }
    // A host's second address is worth a try (an unreachable IPv6 route, one node down), within the same budget.
    for (const address of addresses.slice(0, 2)) {
      if (attempts >= MAX_ATTEMPTS || !timeLeft()) break hosts;
      attempts++;
      const made = await withServerSlot(address, deadline, () => probe({
        server: host.exchange,
        address,
        port: deps.port,
        heloName: deps.heloName,
        target: `${local}@${domain}`,
        randomAddress: `${(deps.randomLocal ?? randomLocal)()}@${domain}`,
        stepTimeoutMs: deps.stepTimeoutMs,
        deadline,
        signal: deps.signal,
      }));
      if (!made) {
        skipped.push(reason('throttled', `${host.exchange} (${address})`));
        break hosts;
      }
      lastProbe = made;
      if (!unreached(lastProbe)) break hosts;
      unreachedHosts.push(lastProbe);
    }
  }
  // Servers passed over on the way to the one that answered (or to the last one tried) are part of the story.
  for (const p of unreachedHosts.filter((p) => p !== lastProbe)) {
    const first = smtpOutcome(p).reasons[0];
    skipped.push({ ...first, text: `${p.server} (${p.address}): ${first.text}` });
  }

  if (!lastProbe) {
    // No server could even be contacted. Only DNS trouble or our own throttling leaves the question open; otherwise
    // no mail can arrive.
    const open = skipped.some((r) => r.code === 'dnsFailure' || r.code === 'throttled');
    const decisive = skipped.filter((r) => r.code !== 'implicitMx');
    if (open || !decisive.length) {
      return finish({ verdict: 'unknown', reasons: decisive.length ? decisive : [reason('smtpTimeout', 'no mail server could be tried in the time allowed')] });
    }
    return finish({ verdict: 'undeliverable', reasons: decisive });
  }
  const outcome = smtpOutcome(lastProbe);
  const reply = outcome.reply;
  return finish(
    { ...outcome, reasons: [...outcome.reasons, ...skipped] },
    {
      server: lastProbe.server,
      address: lastProbe.address,
      connected: lastProbe.connected,
      ...(reply ? { code: reply.code, enhancedCode: reply.enhanced, message: clean(reply.text) } : {}),
      catchAll: outcome.catchAll,
      startTlsOffered: lastProbe.startTlsOffered,
    },
  );
}

type Facts = Pick<EmailRecord, 'syntax' | 'disposable' | 'roleAccount' | 'freeProvider' | 'mx'>;

/** The record, its fields in reading order: the answer first, then what it rests on. */
function build(email: string, normalised: string | undefined, o: Outcome, facts: Facts, smtp?: SmtpSummary): EmailRecord {
  const retryable = o.verdict === 'unknown' ? { retryable: o.reasons.some((r) => RETRYABLE.has(r.code)) } : {};
  return { email: email.trim(), normalised, verdict: o.verdict, reasons: o.reasons, ...retryable, ...facts, ...(smtp ? { smtp } : {}) };
}

/** The first address the SSRF guard refuses (QUARRY_OUTBOUND_ALLOW applies), or undefined when all may be contacted. */
async function firstRefused(addresses: string[], guard: SsrfGuard): Promise<string | undefined> {
  for (const ip of addresses) {
    try {
      await guard.check(new URL(`http://${bracket(ip)}/`));
    } catch (e) {
      if (isQuarryError(e) && e.code === 'invalidRequest') return ip;
      throw e;
    }
  }
  return undefined;
}

/** 16 hex characters: no mailbox is named like that, and no filter can list it in advance. */
function randomLocal(): string {
  return randomBytes(8).toString('hex');
}
