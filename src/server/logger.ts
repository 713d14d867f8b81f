/**
 * Structured JSON logs (pino). Keys never reach a log line: the Authorization header is never logged, a request's
 * line names the route it matched (`/v1/mcp/:apiKey`), never the URL it came with, and a URL that matched no route
 * is masked after decoding (src/http/redact.ts).
 */
import pino from 'pino';
import type { Logger } from '../sources/types.js';

/** Longest time a log line waits in the write buffer. */
export const LOG_FLUSH_MS = 200;

export type AppLogger = Logger & { child(bindings: object): Logger; flush(cb?: (err?: Error) => void): void };

/**
 * Access lines, one per request, written to the log's own stream once per event-loop turn (as the store commits
 * paid calls): each line is the JSON pino writes for `info({reqId, method, url, status, ms, keyId})` (same fields,
 * same order), put together directly, since its fields are fixed (request id, method, route or masked path, status,
 * duration, key id) and none is a redacted path. Through pino, with redaction off, a line cost a serialisation and
 * a write into the stream's buffer each, about a tenth of a 26 KB paid cache hit's CPU; redaction had cost about a
 * fifth more before that. Anything else is logged through the redacting logger. `flush` writes what is pending
 * (shutdown); a SIGKILL loses at most the lines of the turn, plus what the stream buffers (LOG_FLUSH_MS).
 */
export class AccessLog {
  private pending = '';
  private scheduled: NodeJS.Immediate | undefined;
  private readonly stream: { write(chunk: string): unknown } | undefined;

  constructor(log: AppLogger) {
    const p = log as unknown as pino.Logger;
    this.stream = p.isLevelEnabled('info') ? (p as unknown as Record<symbol, { write(chunk: string): unknown }>)[pino.symbols.streamSym] : undefined;
  }

  line(reqId: string, method: string, url: string, status: number, ms: number, keyId: string | undefined): void {
    if (!this.stream) return;
    this.pending +=
      `{"level":30,"time":${Date.now()},"service":"quarry","reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},` +
      `"url":${JSON.stringify(url)},"status":${status},"ms":${ms}${keyId === undefined ? '' : `,"keyId":${JSON.stringify(keyId)}`}}\n`;
    this.scheduled ??= setImmediate(this.flush);
  }

  readonly flush = (): void => {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (!this.pending) return;
    const text = this.pending;
    this.pending = '';
    this.stream!.write(text);
  };
}

export function createLogger(level: string, stream?: NodeJS.WritableStream): AppLogger {
  return pino(
    {
      level,
      base: { service: 'quarry' },
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'apiKey',
          '*.apiKey',
          // The account side (src/auth): bodies of sign-up, sign-in, reveal and CLI login, cookies and CSRF tokens,
          // should any log call ever include them. One level of nesting only: intermediate wildcards (`*.*.key`)
          // made redaction ~10% of a paid call's CPU, and no log call nests a body deeper.
          ...['password', 'key', 'codeVerifier', 'inviteCode', 'csrfToken'].flatMap((f) => [f, `*.${f}`]),
          'req.headers.cookie',
          'headers.cookie',
          'req.headers["x-csrf-token"]',
          'headers["x-csrf-token"]',
          'res.headers["set-cookie"]',
          'headers["set-cookie"]',
        ],
        censor: '[redacted]',
      },
      serializers: { err: pino.stdSerializers.err },
    },
    // Lines are gathered into 4 KB writes: a write per line costs a system call per request. What is gathered is
    // also written every LOG_FLUSH_MS, so a process killed outright (SIGKILL, no exit hook) loses at most that much.
    stream ?? pino.destination({ fd: 1, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS }),
  ) as unknown as AppLogger;
}
