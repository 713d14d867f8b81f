/**
 * Loopback doubles for email.verify: a real SMTP server (smtp-server 3.21.6) whose answer depends on the recipient's
 * domain, a TCP server that accepts and never says a word, and the DNS zone that points the test domains at them.
 * Every double listens on the same port, on different loopback addresses (127.0.0.1 SMTP, 127.0.0.2 silent, 127.0.0.3
 * nothing: connection refused), because the probe has one port for every MX (QUARRY_SMTP_PORT).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import { testZone, type Zone, type ZoneRecord } from './openweb-doubles.js';

export const SMTP_HOST = '127.0.0.1';
export const SILENT_HOST = '127.0.0.2';
export const CLOSED_HOST = '127.0.0.3';

/** What the SMTP double says at RCPT, per recipient domain; replies worded like Postfix's. */
type Policy = { mailboxes: string[] } | 'acceptAll' | { reply: [number, string] };

export const POLICIES: Record<string, Policy> = {
  'mail.test': { mailboxes: ['jane.doe', 'info'] },
  'nomx.test': { mailboxes: ['jane'] },
  'fallback.test': { mailboxes: ['jane'] },
  'twoaddr.test': { mailboxes: ['jane'] },
  'guerrillamail.com': { mailboxes: ['temp'] },
  'catchall.test': 'acceptAll',
  'grey.test': { reply: [450, '4.2.0 <%s>: Recipient address rejected: Greylisted, see https://postgrey.schweikert.ch/help/grey.test.html'] },
  'blocked.test': { reply: [554, '5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org'] },
  'full.test': { reply: [552, '5.2.2 <%s>: Recipient address rejected: Mailbox full'] },
};

const mx = (exchange: string, priority = 10): ZoneRecord => ({ type: 'MX', ttl: 300, exchange, priority });
const a = (address: string): ZoneRecord[] => [{ type: 'A', ttl: 300, address }];

/** The open-web test zone plus the mail domains. */
export function emailZone(): Zone {
  return {
    ...testZone(),
    'mx.mail.test': a(SMTP_HOST),
    'mx.silent.test': a(SILENT_HOST),
    'down.fallback.test': a(CLOSED_HOST),
    'mail.test': [mx('mx.mail.test')],
    'catchall.test': [mx('mx.mail.test')],
    'grey.test': [mx('mx.mail.test')],
    'blocked.test': [mx('mx.mail.test')],
    'full.test': [mx('mx.mail.test')],
    'guerrillamail.com': [mx('mx.mail.test')],
    'nullmx.test': [mx('', 0)],
    'nomx.test': a(SMTP_HOST),
    'silent.test': [mx('mx.silent.test')],
    'refused.test': [mx('down.fallback.test')],
    // Preference 10 is down; 20 answers. A name listed twice is tried once.
    'fallback.test': [mx('mx.mail.test', 20), mx('down.fallback.test', 10), mx('mx.mail.test', 30)],
    // One MX with two addresses: the first refuses connections, the second answers.
    'mx.twoaddr.test': [...a(CLOSED_HOST), ...a(SMTP_HOST)],
    'twoaddr.test': [mx('mx.twoaddr.test')],
    'intranet.test': [mx('private.test')],
    'ghost.test': [mx('nowhere.ghost.test')],
  };
}

export interface SmtpDouble {
  port: number;
  /** Every command received, in order, across connections (verb and arguments as sent). */
  commands: string[];
  /** Times the onData handler ran: must stay 0. */
  dataCalls: number;
  connections: number;
  close(): Promise<void>;
}

const noop = (): void => undefined;

export async function startSmtpDouble(port = 0): Promise<SmtpDouble> {
  const double: SmtpDouble = { port: 0, commands: [], dataCalls: 0, connections: 0, close: async () => undefined };
  const record = (meta: { tnx?: string }, ...args: unknown[]): void => {
    // smtp-server logs each command line as debug({tnx: 'command'}, 'C:', line).
    if (meta?.tnx === 'command') double.commands.push(String(args[args.length - 1]));
  };
  const logger = { level: noop, trace: noop, debug: record, info: noop, warn: noop, error: noop, fatal: noop };
  const server = new SMTPServer({
    name: 'mx.mail.test',
    banner: 'ESMTP Postfix (double)',
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideENHANCEDSTATUSCODES: true,
    closeTimeout: 500,
    disableReverseLookup: true,
    logger: logger as never,
    onConnect(_session, cb) {
      double.connections++;
      cb();
    },
    onRcptTo(address: SMTPServerAddress, _session, cb) {
      const [local, domain] = [address.address.slice(0, address.address.lastIndexOf('@')), address.address.slice(address.address.lastIndexOf('@') + 1).toLowerCase()];
      const policy = POLICIES[domain];
      const refuse = (code: number, text: string) => cb(Object.assign(new Error(text.replace('%s', address.address)), { responseCode: code }));
      if (!policy) return refuse(550, '5.1.2 <%s>: Recipient address rejected: Domain not found');
      if (policy === 'acceptAll') return cb();
      if ('reply' in policy) return refuse(...policy.reply);
      if (policy.mailboxes.includes(local.toLowerCase())) return cb();
      refuse(550, '5.1.1 <%s>: Recipient address rejected: User unknown in virtual mailbox table');
    },
    onData(stream, _session, cb) {
      double.dataCalls++;
      stream.resume();
      stream.on('end', () => cb(new Error('this double takes no messages')));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, SMTP_HOST, () => resolve());
  });
  server.on('error', noop);
  double.port = (server.server.address() as AddressInfo).port;
  double.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return double;
}

/** Accepts connections on SILENT_HOST:port and never writes a byte. */
export async function startSilentServer(port: number): Promise<{ accepted: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const state = { accepted: 0, close: async () => undefined as void };
  const server = net.createServer((socket) => {
    state.accepted++;
    sockets.add(socket);
    socket.on('error', noop);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, SILENT_HOST, () => resolve());
  });
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}
