/**
 * Port-43 WHOIS: ask whois.iana.org which server holds the TLD, query it (with the registries' query quirks), and
 * follow one referral to the registrar's server for thin registries. Every server name is resolved through the
 * SSRF guard (QUARRY_DNS_SERVERS, QUARRY_OUTBOUND_ALLOW); answers are capped in size and time.
 */
import net from 'node:net';
import { QuarryError, isQuarryError } from '../../errors.js';
import type { SsrfGuard } from '../../upstream/ssrf.js';
import { mergeRecords } from './rdap.js';
import type { RegistrationRecord } from './record.js';
import { isNotFound, parseWhois, referralOf, whoisFields } from './whois-parse.js';

export const IANA_WHOIS = 'whois.iana.org';
export const WHOIS_MAX_BYTES = 1024 * 1024;

export interface WhoisOptions {
  port: number;
  guard: SsrfGuard;
  signal: AbortSignal;
  /** Whole exchange with one server. */
  timeoutMs?: number;
  maxBytes?: number;
}

/** One question to one server: connect, write `query\r\n`, read to EOF under the caps. */
export async function whoisQuery(host: string, query: string, o: WhoisOptions): Promise<string> {
  const timeoutMs = o.timeoutMs ?? 10_000;
  const maxBytes = o.maxBytes ?? WHOIS_MAX_BYTES;
  try {
    await o.guard.check(new URL(`http://${host}/`));
  } catch (e) {
    if (isQuarryError(e) && e.code === 'invalidRequest') {
      throw new QuarryError('sourceUnavailable', `domain: WHOIS server ${host} points to a private or reserved address`, { retryable: false });
    }
    throw e;
  }
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const socket = net.connect({ host, port: o.port, lookup: o.guard.lookup });
    const finish = (err: QuarryError | undefined, text?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve(text!);
    };
    const timer = setTimeout(
      () => finish(new QuarryError('sourceTimeout', `domain: WHOIS server ${host} did not answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onAbort = (): void =>
      finish(isQuarryError(o.signal.reason) ? o.signal.reason : new QuarryError('sourceUnavailable', 'domain: WHOIS query cancelled'));
    o.signal.addEventListener('abort', onAbort, { once: true });
    socket.on('connect', () => socket.write(`${query}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        finish(new QuarryError('sourceChanged', `domain: the WHOIS answer from ${host} is larger than ${maxBytes} bytes`, { retryable: false }));
        return;
      }
      chunks.push(chunk);
    });
    socket.on('end', () => finish(undefined, decode(Buffer.concat(chunks, total))));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (isQuarryError(e)) return finish(new QuarryError('sourceUnavailable', `domain: WHOIS server ${host} points to a private or reserved address`, { retryable: false }));
      const code = typeof e.code === 'string' && /^[A-Z0-9_]+$/.test(e.code) ? ` (${e.code})` : '';
      finish(new QuarryError('sourceUnavailable', `domain: WHOIS server ${host} could not be reached${code}`));
    });
  });
}

/** UTF-8 when the bytes are valid UTF-8, else Latin-1 (older ccTLD servers). */
export function decode(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** How each registry wants the question asked. */
export function whoisQueryFor(server: string, domain: string): string {
  if (/(^|\.)verisign-grs\.com$/.test(server)) return `domain ${domain}`;
  if (server === 'whois.denic.de') return `-T dn,ace ${domain}`;
  if (server === 'whois.jprs.jp') return `${domain}/e`;
  return domain;
}

const tldServers = new Map<string, { at: number; host?: string }>();
const TLD_TTL_MS = 24 * 3600 * 1000;

/** The WHOIS server of a TLD, from IANA's `whois:` line (cached a day). */
export async function tldServer(tld: string, o: WhoisOptions): Promise<string | undefined> {
  const hit = tldServers.get(tld);
  if (hit && Date.now() - hit.at < TLD_TTL_MS) return hit.host;
  const answer = await whoisQuery(IANA_WHOIS, tld, o);
  const fields = whoisFields(answer);
  const host = (fields.get('whois')?.[0] ?? fields.get('refer')?.[0])?.trim().toLowerCase();
  const value = host && /^[a-z0-9.-]+\.[a-z0-9-]+$/.test(host) ? host : undefined;
  tldServers.set(tld, { at: Date.now(), host: value });
  return value;
}

export interface WhoisAnswer {
  record: RegistrationRecord;
  server: string;
}

/** Registry answer, plus the registrar's when the registry refers to it (one hop). */
export async function whoisLookup(domain: string, o: WhoisOptions): Promise<WhoisAnswer> {
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  const server = await tldServer(tld, o);
  if (!server) throw new QuarryError('sourceUnavailable', `domain: no RDAP or WHOIS server is known for .${tld}`, { retryable: false });
  const raw = await whoisQuery(server, whoisQueryFor(server, domain), o);
  if (isNotFound(raw)) return { record: { domain, registered: false }, server };
  const registry = parseWhois(domain, raw);
  const referral = referralOf(raw)?.replace(/:\d+$/, '');
  if (!referral || referral === server || referral === IANA_WHOIS) return { record: registry, server };
  try {
    const more = await whoisQuery(referral, domain, o);
    if (isNotFound(more)) return { record: registry, server };
    return { record: mergeRecords(registry, parseWhois(domain, more)), server: referral };
  } catch (e) {
    // The registry's answer stands on its own; a dead registrar server only costs the extra detail.
    if (isQuarryError(e) && e.code === 'sourceChanged') throw e;
    return { record: registry, server };
  }
}
