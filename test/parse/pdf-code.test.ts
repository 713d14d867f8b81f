/**
 * PDF code: lines set wholly in a monospace font (below the heading sizes, in a document whose body is not itself
 * monospace) are a fenced block laid out on the font's character grid; a single one only when set off; monospace
 * words inside other text are code spans.
 */
import { describe, expect, it } from 'vitest';
import { pdf } from './files.js';
import { parseEndpoint } from './endpoint.js';

const md = parseEndpoint();
const prose = (y: number, n: number, tag = 'Body') =>
  Array.from({ length: n }, (_, i) => ({ text: `${tag} sentence ${i + 1} of ordinary running prose in the body font`, y: y - i * 15.4 }));
/** Courier advances 0.6 of its size per character: column `col` of a 10 pt listing starting at x = 72. */
const at = (col: number) => 72 + col * 6;
const code = (y: number, col: number, text: string) => ({ text, y, x: at(col), size: 10, mono: true });

describe('pdf code', () => {
  it('a monospace listing is one fenced block: indentation and aligned columns kept, nothing escaped, no table', async () => {
    const listing = [
      code(600, 0, 'SELECT'),
      code(600, 11, 'function_id,'),
      code(588, 11, 'user_name,'),
      code(576, 0, 'FROM'),
      code(576, 11, 'function_usage'),
      code(564, 0, 'WHERE'),
      code(564, 11, 'a_b * 2 > 1'),
      code(540, 0, 'if (x) {'),
      code(528, 4, 'return x;'),
      code(516, 0, '}'),
    ];
    const out = await md(pdf([{ lines: [...prose(740, 4), ...listing, ...prose(480, 3, 'After')] }]));
    const block = ['SELECT     function_id,', '           user_name,', 'FROM       function_usage', 'WHERE      a_b * 2 > 1', '', 'if (x) {', '    return x;', '}'].join('\n');
    expect(out).toContain('```\n' + block + '\n```');
    expect(out).not.toContain('|');
    expect(out).toMatch(/in the body font\n\n```/);
    expect(out).toMatch(/```\n\nAfter sentence 1/);
  });

  it('a smaller raised glyph inside a listing line stays in the block (an accent drawn as a small letter)', async () => {
    const listing = [code(600, 0, '<comment>'), code(588, 0, '<comment xml:lang="af">l'), { text: 'a', y: 591.9, x: at(23) + 1, size: 6, mono: true }, code(588, 24, 'ers</comment>')];
    const out = await md(pdf([{ lines: [...prose(740, 4), ...listing, ...prose(480, 3, 'After')] }]));
    expect(out).toMatch(/```\n<comment>\n<comment xml:lang="af">l ?a ?ers<\/comment>\n```/);
  });

  it('monospace rows far apart with their cells aligned are a table, and the prose body size holds: a body-size line among them is no heading', async () => {
    // A settings table printed without tags: names and values in 9 pt Courier, one value in the body font.
    const rows = Array.from({ length: 12 }, (_, i) => [
      { text: `QUARRY_SETTING_NUMBER_${i + 1}`, y: 720 - i * 30, x: 72, size: 9, mono: true },
      { text: String(1000 + i), y: 720 - i * 30, x: 320, size: 9, mono: true },
    ]).flat();
    const mixed = [{ text: 'QUARRY_SOURCES', y: 330, x: 72, size: 9, mono: true }, { text: 'all', y: 330, x: 320 }];
    const out = await md(pdf([{ lines: prose(740, 8) }, { lines: [...rows, ...mixed] }]));
    expect(out).toMatch(/^`QUARRY_SOURCES` all$/m);
    expect(out).not.toMatch(/^#/m);
    expect(out).not.toContain('```');
    expect(out).toContain('| QUARRY\\_SETTING\\_NUMBER\\_1 | 1000 |\n| --- | --- |\n| QUARRY\\_SETTING\\_NUMBER\\_2 | 1001 |');
  });

  it('a single monospace line is code when set off from the text, and a code span when it runs on inside a paragraph', async () => {
    const apart = await md(pdf([{ lines: [...prose(740, 3), code(680, 0, '$ npm install quarry'), ...prose(640, 3, 'After')] }]));
    expect(apart).toContain('```\n$ npm install quarry\n```');
    const inline = await md(pdf([{ lines: [...prose(740, 3), { ...code(740 - 3 * 15.4, 0, 'https://example.org/a_b'), size: 11 }, ...prose(740 - 4 * 15.4, 3, 'After')] }]));
    expect(inline).not.toContain('```');
    expect(inline).toContain(' `https://example.org/a_b` ');
  });

  it('monospace lines right under text ending in a code span, at the line spacing, carry the span on: code spans in the text, no block', async () => {
    const lines = [
      { text: '- Body: the answer is an object with the fields', x: 72, y: 700, size: 10 },
      { text: '{query, results:', x: 290, y: 700, size: 10, mono: true },
      { text: '[{url,title,content,engine}],', x: 84, y: 688, size: 10, mono: true },
      { text: 'answers[], corrections[]}', x: 84, y: 676, size: 10, mono: true },
      { text: '- Paging: ten results a page.', x: 72, y: 664, size: 10 },
    ];
    const out = await md(pdf([{ lines: [...prose(760, 2), ...lines] }]));
    expect(out).not.toContain('```');
    expect(out).toContain('- Body: the answer is an object with the fields `{query, results: [{url,title,content,engine}], answers[], corrections[]}`\n- Paging:');
  });

  it('monospace lines between two lines of text at the line spacing, the one under them starting with a code span, are a span begun on a line of its own: no block', async () => {
    const lines = [
      { text: 'The helper for routes that need a signed-in person is exported as', x: 72, y: 700, size: 10 },
      { text: 'requireSession(request: FastifyRequest, options?: { csrf?: boolean }):', x: 72, y: 688, size: 10, mono: true },
      { text: 'Promise<{ userId: string; accountId: string; sessionId:', x: 72, y: 676, size: 10, mono: true },
      { text: 'string }>', x: 72, y: 664, size: 10, mono: true },
      { text: 'and throws when there is none.', x: 130, y: 664, size: 10 },
    ];
    const out = await md(pdf([{ lines: [...prose(760, 2), ...lines] }]));
    expect(out).not.toContain('```');
    expect(out).toContain('is exported as `requireSession(request: FastifyRequest, options?: { csrf?: boolean }): Promise<{ userId: string; accountId: string; sessionId: string }>` and throws');
    // Set off from the text above, the same lines are a listing.
    const apart = await md(pdf([{ lines: [...prose(760, 2), ...lines.map((l, i) => (i === 0 ? l : { ...l, y: l.y - 20 }))] }]));
    expect(apart).toContain('```\nrequireSession(');
  });

  it('as a browser prints them (code at 0.85 of the text, lines 1.5 of the text size apart), wrapped code spans stay in their list item or paragraph', async () => {
    const body = (y: number, n: number) => Array.from({ length: n }, (_, i) => ({ text: `Body sentence ${i + 1} of ordinary running prose in the body font`, x: 72, y: y - i * 18, size: 12 }));
    const wrapped = (x: number, marker: string) => [
      { text: `${marker}Upstream: the search engine is called with`, x: 72, y: 640, size: 12 },
      { text: 'GET /search?q=x', x: 330, y: 640, size: 10.2, mono: true },
      { text: '&format=json&pageno=N&language=en-', x, y: 622, size: 10.2, mono: true },
      { text: 'US&time_range=day&safesearch=0', x, y: 604, size: 10.2, mono: true },
      { text: '(a form post works too) and answers in JSON.', x, y: 586, size: 12 },
      { text: `${marker}Paging: ten results a page.`, x: 72, y: 568, size: 12 },
    ];
    const list = await md(pdf([{ lines: [...body(760, 5), ...wrapped(84, '- ')] }]));
    expect(list).not.toContain('```');
    // The browser broke the code after "x" with no space there: a break not after a hyphen, "_" or "/" reads as one.
    expect(list).toContain('- Upstream: the search engine is called with `GET /search?q=x &format=json&pageno=N&language=en-US&time_range=day&safesearch=0` (a form post works too) and answers in JSON.\n- Paging:');
    const para = await md(pdf([{ lines: [...body(760, 5), ...wrapped(72, '')] }]));
    expect(para).not.toContain('```');
    expect(para).toContain('Upstream: the search engine is called with `GET /search?q=x &format=json&pageno=N&language=en-US&time_range=day&safesearch=0` (a form post works too) and answers in JSON. Paging:');
    // Set off from the text above by a paragraph's space, the same lines are a listing.
    const apart = await md(pdf([{ lines: [...body(760, 5), ...wrapped(72, '').map((l, i) => (i < 2 ? l : { ...l, y: l.y - 14 }))] }]));
    expect(apart).toContain('```\n&format=json&pageno=N&language=en-\nUS&time_range=day&safesearch=0\n```');
  });

  // LibreOffice and Word break code at a space or after a hyphen, as they break words.
  it('a code span a line wraps is one span, joined with no space after a hyphen; "--" cut from its flag is code; a capital before a line-end hyphen is a compound', async () => {
    const lines = [
      { text: 'Stack: Fastify with the', x: 72, y: 700 },
      { text: '@fastify/type-provider-', x: 200, y: 700, mono: true },
      { text: 'typebox', x: 72, y: 686, mono: true },
      { text: 'plugin; reserve with', x: 125, y: 686 },
      { text: 'UPDATE ... WHERE balance >= cost', x: 240, y: 686, mono: true },
      { text: 'RETURNING', x: 72, y: 672, mono: true },
      { text: 'in one transaction. Every command takes', x: 145, y: 672 },
      { text: '--', x: 380, y: 672, mono: true },
      { text: 'json', x: 72, y: 658, mono: true },
      { text: 'for JSON output, which is CPU-', x: 110, y: 658 },
      { text: 'heavy work on large accounts.', x: 72, y: 644 },
    ];
    const out = await md(pdf([{ lines: [...prose(760, 3), ...lines] }]));
    expect(out).toContain(
      'Stack: Fastify with the `@fastify/type-provider-typebox` plugin; reserve with `UPDATE ... WHERE balance >= cost RETURNING` in one transaction. Every command takes `--json` for JSON output, which is CPU-heavy work on large accounts.',
    );
  });

  it('footnotes in a monospace font are no listing: marks set smaller, an address alone at the foot of the page', async () => {
    const notes = [
      { text: '1', y: 110, x: 72, size: 6.4, mono: true },
      { text: 'http://example.org/notes', y: 106.6, x: 78, size: 8, mono: true },
      { text: '2', y: 100, x: 72, size: 6.4, mono: true },
      { text: 'http://example.org/more', y: 96.6, x: 78, size: 8, mono: true },
    ];
    for (const lines of [notes, notes.slice(1, 2)]) {
      const out = await md(pdf([{ lines: [...prose(740, 3), ...lines] }]));
      expect(out).not.toContain('```');
      expect(out).toContain('http://example.org/notes');
    }
  });

  it('monospace words inside a line of text are code spans; glued to a word or only punctuation they are text', async () => {
    const lines = [
      { text: 'Call the function', x: 72, y: 700 },
      { text: 'a_b(*p)', x: 170, y: 700, mono: true },
      { text: 'to start.', x: 225, y: 700 },
      // Helvetica "A di" is 18.95 pt wide at 11 pt, Courier "ffi" 19.8 pt: one word in two fonts.
      { text: 'A di', x: 72, y: 680 },
      { text: 'ffi', x: 72 + 18.95, y: 680, mono: true },
      { text: 'cult word and a', x: 72 + 18.95 + 19.8, y: 680 },
      { text: '"', x: 200, y: 680, mono: true },
      { text: 'quoted', x: 208, y: 680 },
      { text: '"', x: 245, y: 680, mono: true },
      { text: 'one.', x: 255, y: 680 },
    ];
    const out = await md(pdf([{ lines: [...prose(740, 2), ...lines] }]));
    expect(out).toContain('Call the function `a_b(*p)` to start.');
    expect(out).toContain('A difficult word and a " quoted " one.');
  });

  it('a run set absurdly far right (here 880 columns of a 1 pt font) is placed at column 400 at most', async () => {
    const tiny = (y: number, x: number, text: string) => ({ text, y, x, size: 1, mono: true });
    const out = await md(pdf([{ lines: [...prose(740, 3), tiny(600, 72, 'key'), tiny(600, 72 + 880 * 0.6, 'value'), tiny(597, 72, 'next line'), ...prose(540, 2, 'After')] }]));
    expect(out).toContain('```\nkey' + ' '.repeat(397) + 'value\nnext line\n```');
  });

  it('a document set wholly in a monospace font (typewritten) is prose, not code', async () => {
    const lines = Array.from({ length: 6 }, (_, i) => ({ text: `Typewritten line ${i + 1} of a letter set in one fixed pitch`, y: 740 - i * 15.4, mono: true }));
    const out = await md(pdf([{ lines: [...lines, { text: 'Yours sincerely', y: 600, mono: true }] }]));
    expect(out).not.toContain('```');
    expect(out).toContain('Typewritten line 1 of a letter set in one fixed pitch Typewritten line 2');
  });
});
