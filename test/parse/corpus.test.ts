/**
 * The 42 public corpus documents (../shared/corpus/parse) through `POST /v1/web/parse`: every readable one converts,
 * the scanned PDF is answered free, the bad ones are refused, and content scores stay above a floor per format
 * (the full table is `npm run eval:parse`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { paragraphMisses, score } from '../../scripts/eval-parse.js';

const CORPUS = path.resolve(__dirname, '../../../shared/corpus/parse');
const HAVE = fs.existsSync(CORPUS);
const REASON = HAVE ? '' : ' (skipped: ../shared/corpus/parse is absent)';
const FLOOR: Record<string, number> = { pdf: 0.75, docx: 0.9, xlsx: 0.8, pptx: 0.85, html: 0.9 };
/** Expected paragraphs we may write split over blocks, at most (PDF: 7 in stop 27; 20 when each line of a widely spaced report was a paragraph). */
const SPLIT_CEILING: Record<string, number> = { pdf: 10, docx: 0, xlsx: 0, pptx: 0, html: 0 };

let gw: TestGateway;
let key: string;

describe.skipIf(!HAVE)(`corpus documents${REASON}`, () => {
  beforeAll(async () => {
    gw = await startGateway({ QUARRY_RATE_LIMIT_PER_MINUTE: '10000', QUARRY_MAX_IN_FLIGHT: '100' });
    key = (await gw.accounts.createAccount({ credits: 1000 })).apiKey;
  });
  afterAll(async () => {
    await gw?.close();
  });

  for (const format of ['pdf', 'docx', 'xlsx', 'pptx', 'html']) {
    it(`${format}: every document converts; mean text-in-order score ≥ ${FLOOR[format] * 100}%; at most ${SPLIT_CEILING[format]} expected paragraphs split`, async () => {
      const dir = path.join(CORPUS, format);
      const names = fs.readdirSync(dir).filter((n) => !n.endsWith('.md'));
      const texts: number[] = [];
      let split = 0;
      for (const name of names) {
        const r = await post(gw.url, '/v1/web/parse', { file: fs.readFileSync(path.join(dir, name)).toString('base64'), filename: name }, { key });
        expect(r.status, `${name}: ${r.text.slice(0, 200)}`).toBe(200);
        const md: string = r.json.data.markdown ?? '';
        expect(md).not.toMatch(/\]\(data:|javascript:/);
        if (/scan/.test(name)) {
          expect(r.json.creditsUsed).toBe(0);
          expect(r.json.data.metadata.numPages).toBe(3);
          continue;
        }
        expect(r.json.creditsUsed).toBe(1);
        const expected = path.join(dir, `${name}.expected.md`);
        if (!fs.existsSync(expected)) continue;
        texts.push(score(fs.readFileSync(expected, 'utf8'), md).text ?? 1);
        split += paragraphMisses(fs.readFileSync(expected, 'utf8'), md).split.length;
      }
      const mean = texts.reduce((a, b) => a + b, 0) / Math.max(1, texts.length);
      expect(mean).toBeGreaterThanOrEqual(FLOOR[format]);
      expect(split).toBeLessThanOrEqual(SPLIT_CEILING[format]);
    }, 120_000);
  }

  it('bad documents: the encrypted PDF says so, random bytes are 415', async () => {
    const enc = await post(gw.url, '/v1/web/parse', { file: fs.readFileSync(path.join(CORPUS, 'bad/docling-2206.01062_pg3-encrypted.pdf')).toString('base64') }, { key });
    expect(enc.status).toBe(400);
    expect(enc.json.error.message).toMatch(/encrypted/);
    const rnd = await post(gw.url, '/v1/web/parse', { file: fs.readFileSync(path.join(CORPUS, 'bad/markitdown-random.bin')).toString('base64') }, { key });
    expect(rnd.status).toBe(415);
  });
});
