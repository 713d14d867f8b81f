/**
 * The SMTP RCPT probe over node:net: greeting → EHLO (HELO if refused) → MAIL FROM:<> → RCPT TO:<target> →
 * RCPT TO:<random> (catch-all) → RSET → QUIT. A message is never sent: DATA and BDAT are refused by `send` itself.
 * STARTTLS is noted when offered but not used: a public MX must accept mail in plain text (RFC 3207 §4), and its RCPT
 * answers are the same either way. Every answer is hostile: line length, reply size and line count are capped, each
 * reply must arrive within `stepTimeoutMs` of silence and the whole conversation within the deadline.
 */
import net from 'node:net';

export interface SmtpReply {
  code: number;
  /** RFC 3463 enhanced status code (`5.1.1`) when the server sent one. */
  enhanced?: string;
  /** The reply text, lines joined by a space, without codes. */
  text: string;
  lines: string[];
}

export type ProbeFailure = 'refused' | 'timeout' | 'closed' | 'protocol' | 'aborted';

export interface ProbeResult {
  /** The MX host name probed and the address connected to. */
  server: string;
  address: string;
  connected: boolean;
  greeting?: SmtpReply;
  /** Reply to EHLO (or HELO). */
  hello?: SmtpReply;
  startTlsOffered?: boolean;
  mailFrom?: SmtpReply;
  target?: SmtpReply;
  /** The catch-all probe: RCPT of a random address at the same domain. */
  random?: SmtpReply;
  /** Why the conversation stopped before the RCPT answers, when it did. */
  failure?: { kind: ProbeFailure; step: Step; detail: string };
  /** Commands written, in order (tests, logs). */
  commands: string[];
}

export type Step = 'connect' | 'greeting' | 'hello' | 'mailFrom' | 'target' | 'random' | 'reset' | 'quit';

export interface ProbeOptions {
  server: string;
  /** An address already cleared by the SSRF guard: connecting to it skips any further name resolution. */
  address: string;
  port: number;
  heloName: string;
  target: string;
  randomAddress: string;
  stepTimeoutMs: number;
  /** Epoch ms by which the conversation must be over. */
  deadline: number;
  signal?: AbortSignal;
  maxLineBytes?: number;
  maxReplyBytes?: number;
  maxReplyLines?: number;
}

export const LIMITS = { maxLineBytes: 2048, maxReplyBytes: 32 * 1024, maxReplyLines: 100 };

class ProbeStop extends Error {
  constructor(
    readonly kind: ProbeFailure,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The lines of one complete reply ("250-…" … "250 …") → code, enhanced code and text. */
export function parseReply(lines: readonly string[]): SmtpReply {
  const code = Number(lines[0].slice(0, 3));
  const texts = lines.map((l) => l.slice(4));
  const enhanced = /^([245]\.\d{1,3}\.\d{1,3})(?:\s|$)/.exec(texts[0] ?? '')?.[1];
  const text = texts
    .map((t) => (enhanced && t.startsWith(enhanced) ? t.slice(enhanced.length).trim() : t.trim()))
    .join(' ')
    .trim();
  return { code, ...(enhanced ? { enhanced } : {}), text, lines: [...lines] };
}

/** Reads replies from a socket under the caps; one waiter at a time. */
class ReplyReader {
  private buffer: Buffer = Buffer.alloc(0);
  private lines: string[] = [];
  private replyBytes = 0;
  private ready: SmtpReply[] = [];
  private waiter?: { resolve: (r: SmtpReply) => void; reject: (e: ProbeStop) => void };
  private failed?: ProbeStop;
  private rejectStopped!: (e: ProbeStop) => void;
  /** Rejects with the first failure: lets the connect step wait for "connected or failed". */
  readonly stopped = new Promise<never>((_, reject) => (this.rejectStopped = reject));

  constructor(private readonly o: Required<Pick<ProbeOptions, 'maxLineBytes' | 'maxReplyBytes' | 'maxReplyLines'>>) {
    this.stopped.catch(() => undefined);
  }

  push(chunk: Buffer): void {
    if (this.failed) return;
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf(0x0a)) >= 0) {
      const line = this.buffer.subarray(0, nl).toString('latin1').replace(/\r$/, '');
      this.buffer = this.buffer.subarray(nl + 1);
      if (nl + 1 > this.o.maxLineBytes) return this.fail(new ProbeStop('protocol', `a reply line is longer than ${this.o.maxLineBytes} bytes`));
      this.replyBytes += nl + 1;
      if (!/^[2-5]\d\d(?:[ -]|$)/.test(line)) return this.fail(new ProbeStop('protocol', 'the server sent a line that is not an SMTP reply'));
      if (this.lines.length && line.slice(0, 3) !== this.lines[0].slice(0, 3)) {
        return this.fail(new ProbeStop('protocol', 'the lines of one reply carry different codes'));
      }
      this.lines.push(line);
      if (this.lines.length > this.o.maxReplyLines || this.replyBytes > this.o.maxReplyBytes) {
        return this.fail(new ProbeStop('protocol', `a reply is larger than ${this.o.maxReplyLines} lines or ${this.o.maxReplyBytes} bytes`));
      }
      if (line[3] !== '-') {
        this.ready.push(parseReply(this.lines));
        this.lines = [];
        this.replyBytes = 0;
        // One command, one reply: a server that floods replies nobody asked for is not an SMTP server.
        if (this.ready.length > 3) {
          this.ready = [];
          return this.fail(new ProbeStop('protocol', 'the server sent replies to commands never sent'));
        }
      }
    }
    if (this.buffer.length > this.o.maxLineBytes) this.fail(new ProbeStop('protocol', `a reply line is longer than ${this.o.maxLineBytes} bytes`));
    this.deliver();
  }

  fail(e: ProbeStop): void {
    if (this.failed) return;
    this.failed = e;
    this.rejectStopped(e);
    this.deliver();
  }

  next(): Promise<SmtpReply> {
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
      this.deliver();
    });
  }

  private deliver(): void {
    const w = this.waiter;
    if (!w) return;
    const reply = this.ready.shift();
    if (reply) {
      this.waiter = undefined;
      w.resolve(reply);
    } else if (this.failed) {
      this.waiter = undefined;
      w.reject(this.failed);
    }
  }
}

const FORBIDDEN = /^(DATA|BDAT)\b/i;

/** Runs the conversation; never throws, the result says how far it got. */
export async function probe(o: ProbeOptions): Promise<ProbeResult> {
  const result: ProbeResult = { server: o.server, address: o.address, connected: false, commands: [] };
  const reader = new ReplyReader({
    maxLineBytes: o.maxLineBytes ?? LIMITS.maxLineBytes,
    maxReplyBytes: o.maxReplyBytes ?? LIMITS.maxReplyBytes,
    maxReplyLines: o.maxReplyLines ?? LIMITS.maxReplyLines,
  });
  const socket = net.connect({ host: o.address, port: o.port });
  socket.setNoDelay(true);
  let silence: NodeJS.Timeout | undefined;
  const armSilence = (): void => {
    clearTimeout(silence);
    silence = setTimeout(() => reader.fail(new ProbeStop('timeout', `no answer within ${o.stepTimeoutMs} ms`)), o.stepTimeoutMs);
  };
  const total = setTimeout(
    () => reader.fail(new ProbeStop('timeout', 'the conversation did not finish in the time allowed')),
    Math.max(0, o.deadline - Date.now()),
  );
  const onAbort = (): void => reader.fail(new ProbeStop('aborted', 'the call was cancelled'));
  o.signal?.addEventListener('abort', onAbort, { once: true });
  socket.on('data', (chunk: Buffer) => {
    armSilence();
    reader.push(chunk);
  });
  socket.on('error', (e: NodeJS.ErrnoException) => {
    const code = typeof e.code === 'string' && /^[A-Z0-9_]+$/.test(e.code) ? e.code : 'error';
    reader.fail(new ProbeStop(result.connected ? 'closed' : code === 'ECONNREFUSED' ? 'refused' : 'closed', `connection failed (${code})`));
  });
  socket.on('close', () => reader.fail(new ProbeStop('closed', 'the server closed the connection')));

  const send = async (command: string): Promise<SmtpReply> => {
    // The probe's one promise to the world: it asks, it never delivers.
    if (FORBIDDEN.test(command)) throw new Error('the SMTP probe never sends a message');
    result.commands.push(command);
    armSilence();
    socket.write(`${command}\r\n`);
    return reader.next();
  };

  let step: Step = 'connect';
  try {
    armSilence();
    await Promise.race([new Promise<void>((resolve) => socket.once('connect', resolve)), reader.stopped]);
    result.connected = true;
    step = 'greeting';
    result.greeting = await reader.next();
    if (result.greeting.code !== 220) return result;
    step = 'hello';
    let hello = await send(`EHLO ${o.heloName}`);
    if (hello.code >= 500 && hello.code < 600) hello = await send(`HELO ${o.heloName}`);
    result.hello = hello;
    if (hello.code !== 250) return await finish(result, send, socket);
    result.startTlsOffered = hello.lines.slice(1).some((l) => /^STARTTLS\b/i.test(l.slice(4).trim()));
    step = 'mailFrom';
    result.mailFrom = await send('MAIL FROM:<>');
    if (result.mailFrom.code !== 250) return await finish(result, send, socket);
    step = 'target';
    result.target = await send(`RCPT TO:<${o.target}>`);
    if (result.target.code === 250 || result.target.code === 251) {
      step = 'random';
      result.random = await send(`RCPT TO:<${o.randomAddress}>`);
    }
    return await finish(result, send, socket);
  } catch (e) {
    if (!(e instanceof ProbeStop)) throw e;
    result.failure = { kind: e.kind, step, detail: e.detail };
    return result;
  } finally {
    clearTimeout(silence);
    clearTimeout(total);
    o.signal?.removeEventListener('abort', onAbort);
    // After QUIT the server closes; a server that does not is cut off shortly after.
    if (socket.writableEnded) setTimeout(() => socket.destroy(), 500).unref();
    else socket.destroy();
  }
}

/** RSET and QUIT, politely but without waiting long: a server slow to say goodbye costs nothing. */
async function finish(result: ProbeResult, send: (c: string) => Promise<SmtpReply>, socket: net.Socket): Promise<ProbeResult> {
  const bye = async (): Promise<void> => {
    await send('RSET');
    result.commands.push('QUIT');
    socket.end('QUIT\r\n');
  };
  await Promise.race([bye().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
  return result;
}
