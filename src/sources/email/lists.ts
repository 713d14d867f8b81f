/**
 * The address facts that need no network: disposable domains (the CC0 list of the disposable-email-domains project,
 * committed as disposable-domains.txt, loaded once), role mailboxes and the large free mailbox providers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LIST_FILE = 'disposable-domains.txt';

/** src/sources/email seen from itself (tsx, vitest) or from dist/sources/email (npm start: tsc copies no .txt). */
function listPath(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, LIST_FILE), path.resolve(here, '..', '..', '..', 'src', 'sources', 'email', LIST_FILE)];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error(`${LIST_FILE} not found (looked in ${candidates.join(', ')}); the checkout is incomplete`);
  return found;
}

/** One domain per line; blank lines and `#` comments ignored. */
export function parseDomainList(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const d = line.trim().toLowerCase();
    if (d && !d.startsWith('#')) out.add(d);
  }
  return out;
}

let disposable: Set<string> | undefined;

export function disposableDomains(): Set<string> {
  return (disposable ??= parseDomainList(fs.readFileSync(listPath(), 'utf8')));
}

/** The name and each parent (a.b.c → a.b.c, b.c): the list holds registrable domains, so sub-domains match too. */
function withParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

export function isDisposable(domain: string, list: ReadonlySet<string> = disposableDomains()): boolean {
  return withParents(domain).some((d) => list.has(d));
}

/**
 * Mailboxes that belong to a function rather than a person (RFC 2142 names and the usual company ones). Mail to
 * them is delivered, but often to a group or a ticket queue, and complaints from them weigh more.
 */
const ROLES = new Set([
  'abuse', 'accounting', 'accounts', 'admin', 'administrator', 'billing', 'careers', 'compliance', 'contact',
  'contactus', 'customercare', 'customerservice', 'devnull', 'dns', 'enquiries', 'enquiry', 'feedback', 'finance',
  'ftp', 'hello', 'help', 'helpdesk', 'hostmaster', 'hr', 'info', 'inquiries', 'inquiry', 'it', 'jobs', 'legal',
  'list', 'mail', 'mailer-daemon', 'marketing', 'media', 'news', 'newsletter', 'noc', 'noreply', 'no-reply',
  'donotreply', 'do-not-reply', 'office', 'orders', 'postmaster', 'press', 'privacy', 'recruiting', 'registrar',
  'root', 'sales', 'security', 'service', 'shop', 'spam', 'staff', 'support', 'sysadmin', 'team', 'usenet',
  'uucp', 'webmaster', 'welcome', 'www',
]);

/** `Sales+eu@…` and `sales@…` are the same role: case and a `+tag` are ignored. */
export function isRoleAccount(local: string): boolean {
  return ROLES.has(local.toLowerCase().replace(/\+.*$/, ''));
}

/**
 * The large free mailbox providers (not exhaustive: the maintained lists download themselves at install time, see
 * the upstream notes). `freeProvider: false` therefore means "not one of the big ones".
 */
const FREE = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'yahoo.co.uk', 'yahoo.fr', 'yahoo.de', 'yahoo.es', 'yahoo.it',
  'yahoo.co.jp', 'yahoo.com.br', 'ymail.com', 'rocketmail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk',
  'hotmail.fr', 'hotmail.de', 'hotmail.it', 'live.com', 'live.co.uk', 'live.fr', 'msn.com', 'aol.com', 'aim.com',
  'icloud.com', 'me.com', 'mac.com', 'gmx.com', 'gmx.de', 'gmx.net', 'gmx.at', 'gmx.ch', 'web.de', 'yandex.ru',
  'yandex.com', 'ya.ru', 'mail.ru', 'bk.ru', 'inbox.ru', 'list.ru', 'rambler.ru', 'proton.me', 'protonmail.com',
  'pm.me', 'tutanota.com', 'tuta.io', 'zoho.com', 'zohomail.com', 'fastmail.com', 'hushmail.com', 'mail.com',
  'qq.com', '163.com', '126.com', 'sina.com', 'naver.com', 'daum.net', 'hanmail.net', 'rediffmail.com',
  'libero.it', 'virgilio.it', 'laposte.net', 'orange.fr', 'free.fr', 'sfr.fr', 't-online.de', 'freenet.de',
  'seznam.cz', 'wp.pl', 'o2.pl', 'interia.pl', 'onet.pl', 'bol.com.br', 'uol.com.br', 'terra.com.br',
]);

export function isFreeProvider(domain: string): boolean {
  return FREE.has(domain);
}
