/**
 * Issue 35.1: a burst of 200 small keyless parses from one address, within the configured limits (200 a minute, 200
 * at once), is answered 200, every one. The conversion queue is bounded by bytes and by the wait a file can expect
 * (its free budget, 10 s), not by a count: with eight files per worker (four for keyless callers) about twenty of
 * the two hundred used to get 429. Keyless callers still hold at most half the workers and half the queue
 * (`pool-tiers.test.ts`). No timing is asserted; the burst's duration is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';

/** About 300 bytes of HTML, as in the issue. */
const FILE = `<!doctype html><html><head><title>Burst</title></head><body><h1>Quarterly note</h1><p>Revenue grew in every region;
the board meets on Thursday.</p><ul><li>North: up 4%</li><li>South: up 2%</li></ul><p>Questions go to the finance team.</p></body></html>`;


/** A 3 MB page: a second or more of conversion. */
const LARGE = `<html><body><h1>Large</h1>${'<p>A paragraph of the large page, with <b>bold</b> and <i>italic</i> words.</p>\n'.repeat(40_000)}</body></html>`;

describe('a burst of 200 small keyless parses from one address', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    // Within the configured limits: 201 calls a minute and at once (the burst and the larger page before it).
    // Two workers, so keyless files get one (half the pool), as on any machine of three cores or more (the
    // process-wide pool takes the configuration of the first gateway built; each test file runs in a process of its own).
    gw = await startGateway({ QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '201', QUARRY_MAX_IN_FLIGHT: '201', QUARRY_PARSE_WORKERS: '2' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('is answered 200, every one', async () => {
    // Two hundred connections opened first, then every request written in one go: they reach the server together,
    // as a real burst does (requests sent one by one would give the worker time to drain the queue between them).
    const { port } = new URL(gw.url);
    // Two hundred different files (identical ones would share one conversion).
    const request = (i: number) => {
      const body = JSON.stringify({ file: Buffer.from(FILE.replace('Thursday', `Thursday ${i}`)).toString('base64'), filename: 'note.html' });
      return `POST /v1/web/parse HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
    };
    const sockets = await Promise.all(
      Array.from({ length: 200 }, () => new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect(Number(port), '127.0.0.1', () => resolve(s));
        s.once('error', reject);
      })),
    );
    const answers = sockets.map(
      (s) => new Promise<string>((resolve, reject) => {
        let text = '';
        s.setEncoding('utf8');
        s.on('data', (d: string) => (text += d));
        s.once('end', () => resolve(text));
        s.once('error', reject);
      }),
    );
    // The burst arrives while the keyless worker is busy with a larger page, so it queues whole, as it does on a
    // machine whose event loop takes requests faster than one worker converts them (this one often does not).
    const slow = post(gw.url, '/v1/web/parse', { file: Buffer.from(LARGE).toString('base64'), filename: 'large.html' });
    await new Promise((r) => setTimeout(r, 300));
    const started = performance.now();
    sockets.forEach((s, i) => s.write(request(i)));
    const texts = await Promise.all(answers);
    const seconds = (performance.now() - started) / 1000;
    console.log(`200 keyless parses of ${FILE.length} bytes, sent at once, answered in ${seconds.toFixed(1)} s`);
    const statuses = texts.map((t) => Number(/^HTTP\/1\.1 (\d{3})/.exec(t)?.[1]));
    const refused = texts.filter((_, i) => statuses[i] !== 200).map((t) => t.split('\r\n\r\n')[1]);
    expect(refused).toEqual([]);
    texts.forEach((t, i) => expect(JSON.parse(t.split('\r\n\r\n')[1]!).data.markdown).toMatch(new RegExp(`^# Quarterly note\n[^]*Thursday ${i}\\.`)));
    expect((await slow).status).toBe(200);
  }, 120_000);
});
