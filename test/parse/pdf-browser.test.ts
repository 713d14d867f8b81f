/**
 * PDFs as a browser prints them (Debian's Chromium through playwright-core, "Save as PDF"): a tagged PDF whose
 * structure tree marks headings and tables, with code in a monospace font. The page is made here, so the test reads
 * real printer output rather than a hand-built file; it skips when Chromium is absent.
 */
import fs from 'node:fs';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { parseEndpoint } from './endpoint.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`browser-printed PDF tests skipped: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`);

/** A small opaque PNG (w × h pixels), as a data address: a real raster image for the printer to embed. */
function png(w: number, h: number): string {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const head = Buffer.alloc(13);
  head.writeUInt32BE(w, 0);
  head.writeUInt32BE(h, 4);
  head.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: h }, (_, y) => Buffer.from([0, ...Array.from({ length: w }, (_, x) => [200, (x * 30) % 256, (y * 60) % 256]).flat()])));
  const file = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', head), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
  return `data:image/png;base64,${file.toString('base64')}`;
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Operator guide</title>
<style>body { font-family: serif; font-size: 12pt } code, pre { font-family: monospace } td, th { padding: 6pt 12pt; vertical-align: top }</style>
</head><body>
<h1>Operator guide</h1>
<p>Start the server with <code>npm start</code>; it reads the variables below. See <a href="https://example.org/docs">the full guide</a> first.</p>
<ul><li>Faster parsing<ul><li>PDF pages in parallel</li><li>Lower memory</li></ul></li><li>New endpoints</li></ul>
<ol start="3"><li>Third step</li><li>Fourth step</li></ol>
<h2>Configuration</h2>
<table>
<thead><tr><th>variable</th><th>default</th><th>meaning</th></tr></thead>
<tbody>
<tr><td><code>PORT</code></td><td><code>8080</code></td><td>the port to listen on</td></tr>
<tr><td><code>QUARRY_SECRET</code></td><td>generated</td><td>seals keys at rest; keep it out of backups that leave the machine</td></tr>
<tr><td><code>QUARRY_SOURCES</code></td><td>all</td><td>a comma list | or all</td></tr>
</tbody>
</table>
<h2>Plans</h2>
<table><thead><tr><th>Plan</th><th colspan="2">Limits</th><th>Price</th></tr></thead>
<tbody><tr><td>Free</td><td>100/day</td><td>1 key</td><td>$0</td></tr>
<tr><td rowspan="2">Pro</td><td>10k/day</td><td>5 keys</td><td>$49</td></tr>
<tr><td>50k/day</td><td>20 keys</td><td>$99</td></tr></tbody></table>
<p>The logo follows.</p>
<img alt="Quarry logo, a stone" width="120" height="60" src="${png(8, 4)}">
<p>The logo came before.</p>
<h2>Layout</h2>
<pre>
client ──HTTP──▶ server/
                   │
                   ▼
                 pipeline/ → store/
</pre>
<p>Every step is a module of its own.</p>
<p style="width: 180px">Donau&shy;dampf&shy;schiff&shy;fahrts&shy;gesell&shy;schafts&shy;kapitäns&shy;mütze is one German word.</p>
</body></html>`;

const md = parseEndpoint();

describe.skipIf(!HAVE_CHROMIUM)('browser-printed PDF', () => {
  let browser: Browser;
  let markdown = '';
  let untagged = '';

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    const page = await browser.newPage();
    await page.setContent(PAGE);
    const bytes = await page.pdf({ format: 'A4', tagged: true, printBackground: false });
    markdown = await md(new Uint8Array(bytes));
    untagged = await md(new Uint8Array(await page.pdf({ format: 'A4', tagged: false, printBackground: false })));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('headings come from the tags, the table from its Table element with the header row first', () => {
    expect(markdown).toMatch(/^# Operator guide$/m);
    expect(markdown).toMatch(/^## Configuration$/m);
    expect(markdown).toContain('| variable | default | meaning |\n| --- | --- | --- |\n| `PORT` | `8080` | the port to listen on |');
    expect(markdown).toContain('| `QUARRY_SECRET` | generated | seals keys at rest; keep it out of backups that leave the machine |');
    expect(markdown).toContain('| `QUARRY_SOURCES` | all | a comma list \\| or all |');
  });

  it('spanning cells are written once, in the column they start in', () => {
    expect(markdown).toContain(['| Plan | Limits | | Price |', '| --- | --- | --- | --- |', '| Free | 100/day | 1 key | $0 |', '| Pro | 10k/day | 5 keys | $49 |', '| | 50k/day | 20 keys | $99 |'].join('\n'));
  });

  it('list items drawn with shape bullets are list items, nested and numbered; a link inside a sentence is kept', () => {
    expect(markdown).toContain('- Faster parsing\n  - PDF pages in parallel\n  - Lower memory\n- New endpoints');
    expect(markdown).toContain('3. Third step\n4. Fourth step');
    expect(markdown).toContain('See [the full guide](https://example.org/docs) first.');
  });

  it('printed without tags, the discs and circles the browser draws for bullets are read as bullets: the same lists', () => {
    expect(untagged).toContain('- Faster parsing\n  - PDF pages in parallel\n  - Lower memory\n- New endpoints');
    expect(untagged).toContain('3. Third step\n4. Fourth step');
  });

  it('an image is its alternate text in place, never its data', () => {
    expect(markdown).toContain('The logo follows.\n\n![Quarry logo, a stone]()\n\nThe logo came before.');
    expect(markdown).not.toContain('data:');
  });

  it('inline code is a code span and a box-drawing diagram is one code block with its columns', () => {
    expect(markdown).toContain('Start the server with `npm start`; it reads the variables below.');
    expect(markdown).toMatch(/```\nclient ──HTTP──▶ server\/\n {19}│\n {19}▼\n {17}pipeline\/ → store\/\n```/);
    expect(markdown).toMatch(/```\n\nEvery step is a module of its own\.$/m);
  });

  it('a word the browser hyphenated at its soft hyphens (drawing U+2010 at each line end) is one word', () => {
    // (The page may end inside the paragraph: the word's last part then joins it before the page marker.)
    const word = /Donaudampfschifffahrtsgesellschaftskapitänsmütze(?: |\n\n<!-- page \d+ -->\n\n)is one German word\./;
    expect(markdown).toMatch(word);
    expect(untagged).toMatch(word);
  });
});

describe.skipIf(!HAVE_CHROMIUM)('browser-printed PDF: a table over several pages', () => {
  let browser: Browser;
  // 120 rows of a table without <thead> (its header row only on the first page), printed with and without tags, and
  // without a stylesheet: the cells stand a few points apart.
  const rows = Array.from({ length: 120 }, (_, i) => `<tr><td>Item ${i + 1}</td><td>${(i + 1) * 3} kg</td><td>Store ${(i + 1) % 7}</td></tr>`).join('');
  const html = `<html><body><h1>Inventory</h1><table><tr><th>Name</th><th>Weight</th><th>Store</th></tr>${rows}</table><p>End.</p></body></html>`;
  const printed: Record<'tagged' | 'untagged', string> = { tagged: '', untagged: '' };

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    const page = await browser.newPage();
    await page.setContent(html);
    for (const tagged of [true, false]) printed[tagged ? 'tagged' : 'untagged'] = await md(new Uint8Array(await page.pdf({ format: 'A4', tagged, printBackground: false })));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('tagged: the table goes on under its header row on the next page', () => {
    const second = printed.tagged.split('<!-- page 2 -->')[1];
    expect(second).toMatch(/^\s*\| Name \| Weight \| Store \|\n\| --- \| --- \| --- \|\n\| Item \d+ \| \d+ kg \| Store \d \|/);
  });

  it('untagged: rows set a few points apart are still table rows on every page', () => {
    for (const n of [1, 2, 3]) expect(printed.untagged.split(`<!-- page ${n} -->`)[1]).toMatch(/\| Item \d+ \| \d+ kg \| Store \d \|\n\| --- \| --- \| --- \|/);
    expect(printed.untagged).not.toMatch(/Item \d+ \d+ kg Store \d Item/);
  });
});
