/**
 * Access lines are assembled without pino (src/server/logger.ts AccessLog): each must be, byte for byte, the line
 * pino writes for the same fields through the server's logger with redaction off, and the lines of a turn must all
 * reach the stream once it ends (or at once on flush, as shutdown does).
 */
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccessLog, createLogger } from '../../src/server/logger.js';

function capture(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text += String(chunk);
      cb();
    },
  });
  return { stream, text: () => text };
}

type Line = [reqId: string, method: string, url: string, status: number, ms: number, keyId: string | undefined];

const LINES: Line[] = [
  ['req_abc123', 'POST', '/v1/data/:endpoint', 200, 3, 'key_0123456789'],
  ['req_abc124', 'GET', '/v1/catalogue', 304, 0, undefined],
  // A path that matched no route is logged as sent (masked): quotes, backslashes, controls, non-ASCII, surrogates.
  ['r"q\\1', 'DELETE', '/v1/nope/"\\\u0000\u001f\u007f/é/😀/\ud800/qry_[redacted]', 404, 12_345, 'k"\\'],
  ['x'.repeat(200), 'OPTIONS', `/${'a'.repeat(300)}`, 500, 1, ''],
];

describe('access lines', () => {
  afterEach(() => vi.useRealTimers());

  it('are the lines pino writes for the same fields', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_790_000_000_123 });
    const viaPino = capture();
    const pinoLog = createLogger('info', viaPino.stream);
    const child = (pinoLog as unknown as { child(b: object, o: object): { info(o: object): void } }).child({}, { redact: [] });
    for (const [reqId, method, url, status, ms, keyId] of LINES) child.info({ reqId, method, url, status, ms, keyId });

    const direct = capture();
    const access = new AccessLog(createLogger('info', direct.stream));
    for (const l of LINES) access.line(...l);
    expect(direct.text()).toBe(''); // written once the turn ends, not per line
    access.flush();
    expect(direct.text()).toBe(viaPino.text());
    expect(direct.text().split('\n').filter(Boolean)).toHaveLength(LINES.length);
  });

  it('are written when the turn ends', async () => {
    const direct = capture();
    const access = new AccessLog(createLogger('info', direct.stream));
    access.line(...LINES[0]!);
    access.line(...LINES[1]!);
    await new Promise((r) => setImmediate(r));
    expect(direct.text().split('\n').filter(Boolean).map((l) => JSON.parse(l).reqId)).toEqual(['req_abc123', 'req_abc124']);
  });

  it('are not written below the info level', () => {
    const direct = capture();
    const access = new AccessLog(createLogger('warn', direct.stream));
    access.line(...LINES[0]!);
    access.flush();
    expect(direct.text()).toBe('');
  });
});
