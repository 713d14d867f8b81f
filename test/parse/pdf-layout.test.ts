/**
 * PDF layout rules: superscripts stay in their line, two-column pages read column by column (bands cut by
 * full-width lines) while forms with a blank middle stay row by row, body-size bold lines stay text (never
 * a heading from the font alone), split header rows merge, right-to-left ligatures keep their letter order, Hangul word gaps.
 */
import { describe, expect, it } from 'vitest';
import { markItems } from '../../src/parse/pdf/items.js';
import { readingOrder } from '../../src/parse/pdf/lines.js';
import { mergeHeaderRows } from '../../src/parse/pdf/tables.js';
import { sentenceEnd, spaced } from '../../src/parse/pdf/text.js';
import { dropOverprints } from '../../src/parse/pdf/overprint.js';
import { pdf, ruledGrid } from './files.js';
import { parseEndpoint } from './endpoint.js';

const md = parseEndpoint();
const item = (str: string, x: number, y: number, size = 10, w = str.length * size * 0.5) => ({ str, transform: [size, 0, 0, size, x, y], width: w, height: size });

/** Body lines at a 15.4 pt line spacing from `y` down (the builder's own spacing for 11 pt text). */
const bodyAt = (y: number, n: number, tag = 'Body') =>
  Array.from({ length: n }, (_, i) => ({ text: `${tag} sentence ${i + 1} of ordinary running prose in the body font`, y: y - i * 15.4 }));

describe('pdf lines', () => {
  it('tracked (letter-spaced) text reads as words: each run of single letters a space apart is one word, words parted by the wider space', async () => {
    const body = bodyAt(640, 3);
    // 4 pt of tracking at 14 pt: pdf.js reads each gap as a space, the word space as a run of its own.
    const out = await md(pdf([{ lines: body, ops: 'BT /F2 14 Tf 4 Tc 72 700 Td (SPACED TITLE) Tj ET' }]));
    expect(out).toContain('# SPACED TITLE\n');
    // Figures a space apart stay apart.
    const figures = await md(pdf([{ lines: [...body, { text: 'Scores 1 2 3 4 and a b c', y: 560 }] }]));
    expect(figures).toContain('Scores 1 2 3 4 and a b c');
  });

  it('a drop cap joins the word it starts, with no space (before a capital, with one); the lines set beside it stay lines of the paragraph', async () => {
    const story = (cap: string, first: string) => [
      { text: cap, x: 72, y: 670, size: 44 },
      { text: `${first} upon a time there lived a king who had three daughters, and the`, x: 108, y: 700 },
      { text: 'youngest of them was so beautiful that the sun itself, which has seen', x: 108, y: 685 },
      { text: 'so much, marvelled each time it shone on her face. Near the castle of', x: 108, y: 670 },
      { text: 'the king lay a great dark forest, and in the forest under an old lime tree', x: 72, y: 655 },
      { text: 'was a well, and there the child sat down by the side of the cool water.', x: 72, y: 640 },
    ];
    const rest = 'upon a time there lived a king who had three daughters, and the youngest of them was so beautiful that the sun itself, which has seen so much, marvelled each time it shone on her face. Near the castle of the king lay a great dark forest, and in the forest under an old lime tree was a well, and there the child sat down by the side of the cool water.';
    expect(await md(pdf([{ lines: story('O', 'nce') }]))).toBe(`<!-- page 1 -->\n\nOnce ${rest}\n`);
    expect(await md(pdf([{ lines: story('Q', 'When') }]))).toBe(`<!-- page 1 -->\n\nQ When ${rest}\n`);
  });

  it('a superscript note mark stays in its line instead of breaking the paragraph', async () => {
    const out = await md(
      pdf([{ lines: [{ text: 'Recent news reports', x: 72, y: 700 }, { text: '1', size: 6, x: 172, y: 704 }, { text: 'about breaches', x: 178, y: 700 }, { text: 'continue on the next line.', x: 72, y: 684.6 }] }]),
    );
    expect(out).toMatch(/^Recent news reports 1 about breaches continue on the next line\.$/m);
    // A larger mark raised higher (IBM Redbooks: 8 pt raised 4.1 pt over a 10 pt line on a 12 pt spacing) reaches
    // above the line's own glyphs but still belongs to it, not to a line of its own between two body lines.
    const high = await md(
      pdf([{ lines: [{ text: 'Recent headlines are filled with reports of breaches', x: 72, y: 712, size: 10 }, { text: 'impacting businesses. The Resource Center', x: 72, y: 700, size: 10 }, { text: '1', size: 8, x: 262, y: 704.1 }, { text: 'reports almost 5000.', x: 270, y: 700, size: 10 }] }]),
    );
    expect(high).toMatch(/^Recent headlines are filled with reports of breaches impacting businesses\. The Resource Center 1 reports almost 5000\.$/m);
    // After a single letter a raised number is an exponent and stays with it.
    const exp = await md(pdf([{ lines: [{ text: 'Solve a', x: 72, y: 700 }, { text: '2', size: 7, x: 108.8, y: 704 }, { text: '+ 8 = 12 for a.', x: 116, y: 700 }] }]));
    expect(exp).toMatch(/^Solve a2 \+ 8 = 12 for a\.$/m);
  });

  it('link annotations: over a whole line they link the line, over words inside a line those words (a wrapped link is one); only http(s) and mailto', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'See', x: 72, y: 700 },
            { text: 'the documentation', x: 95, y: 700 },
            { text: 'for details, or', x: 193, y: 700 },
            { text: 'write', x: 268, y: 700 },
            { text: 'to us.', x: 300, y: 700 },
            { text: 'https://example.org/all', x: 72, y: 660 },
            { text: 'Do not', x: 72, y: 620 },
            { text: 'run this', x: 110, y: 620 },
            { text: 'at all.', x: 155, y: 620 },
            { text: 'Read the', x: 72, y: 580 },
            { text: 'full', x: 120, y: 580 },
            { text: 'guide', x: 72, y: 565 },
            { text: 'today.', x: 105, y: 565 },
          ],
          links: [
            { rect: [93, 696, 190, 712], url: 'https://example.org/docs' },
            { rect: [266, 696, 297, 712], url: 'mailto:team@example.org' },
            { rect: [70, 656, 300, 672], url: 'https://example.org/all' },
            { rect: [108, 616, 152, 632], url: 'javascript:alert(1)' },
            // A link wrapped onto the next line: two annotations to one address.
            { rect: [118, 576, 145, 592], url: 'https://example.org/guide' },
            { rect: [70, 561, 102, 577], url: 'https://example.org/guide' },
          ],
        },
      ]),
    );
    expect(out).toContain('See [the documentation](https://example.org/docs) for details, or [write](mailto:team@example.org) to us.');
    expect(out).toContain('[https://example.org/all](https://example.org/all)');
    expect(out).toContain('Do not run this at all.');
    expect(out).not.toContain('javascript');
    expect(out).toContain('Read the [full guide](https://example.org/guide) today.');
  });

  it('footnotes at a page foot, each led by a raised mark, are paragraphs of their own; the mark is no part of a code span', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            ...bodyAt(740, 3),
            // IBM Redbooks: a 6.4 pt mark raised 3.3 pt over an 8 pt note, here a monospace address.
            { text: '1', size: 6.4, x: 72, y: 91.3, mono: true },
            { text: 'http://www.idtheftcenter.org', size: 8, x: 80, y: 88, mono: true },
            { text: '2', size: 6.4, x: 72, y: 81.3 },
            { text: 'The second note runs over two lines', size: 8, x: 80, y: 78 },
            { text: 'and goes on here.', size: 8, x: 72, y: 68 },
            { text: '*', size: 6.4, x: 72, y: 61.3 },
            { text: 'A starred note.', size: 8, x: 80, y: 58 },
          ],
        },
      ]),
    );
    expect(out).toMatch(/^1 `http:\/\/www\.idtheftcenter\.org`$/m);
    expect(out).toMatch(/^2 The second note runs over two lines and goes on here\.$/m);
    expect(out).toMatch(/^\\\* A starred note\.$/m);
    // A raised number touching the word after it ("14C") is an isotope's, not a note mark: the line goes on.
    const iso = await md(pdf([{ lines: [...bodyAt(740, 2), { text: '14', size: 7, x: 72, y: 713.2 }, { text: 'C dating shows the age.', x: 79.8, y: 709.2 }] }]));
    expect(iso).toMatch(/body font 14C dating shows the age\.$/m);
  });

  it('text printed twice over itself reads once: fake bold, and a line drawn over fragments of itself', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            // Fake bold: the same run again 0.3 pt to the right.
            { text: 'ENFORCED FOR ALL ACCESS', x: 72, y: 700 },
            { text: 'ENFORCED FOR ALL ACCESS', x: 72.3, y: 700 },
            // A clipped first pass ("S", "ifi") under the full line (IBM Redbooks' syntax diagrams).
            { text: 'S', x: 72, y: 670 },
            { text: 'ifi', x: 97.07, y: 670 },
            { text: 'Specifies that the permission is disabled', x: 72, y: 670 },
            // Dots set one by one a glyph apart are three dots, and a word said twice apart is said twice.
            { text: '.', x: 72, y: 640 },
            { text: '.', x: 75.06, y: 640 },
            { text: '.', x: 78.12, y: 640 },
            { text: 'ha', x: 100, y: 640 },
            { text: 'ha', x: 120, y: 640 },
          ],
        },
      ]),
    );
    expect(out).toMatch(/^ENFORCED FOR ALL ACCESS$/m);
    expect(out).toMatch(/^Specifies that the permission is disabled$/m);
    expect(out).toMatch(/^\.\.\. ha ha$/m);
    // Runs are compared pairwise, so a baseline crowded past any real line (a hostile file) is left as it is.
    const crowd = Array.from({ length: 3000 }, () => item('Bold', 72, 700));
    expect(dropOverprints(crowd)).toHaveLength(3000);
    expect(dropOverprints([item('Bold', 72, 700), item('Bold', 72.4, 700)])).toHaveLength(1);
  });

  it('a lone control character from a symbol font is a bullet (C0 and C1)', () => {
    expect(markItems([{ str: '\u0084', transform: [13, 0, 0, 13, 72, 700], width: 9, height: 13 }], new Map())[0].str).toBe('•');
    expect(markItems([{ str: 'a\u0084b\u0007', transform: [10, 0, 0, 10, 72, 700], width: 20, height: 10 }], new Map())[0].str).toBe('ab');
  });

  it('Hangul words set as separate runs get their space from a small gap; Latin runs do not', () => {
    expect(spaced('마시는', '물', 0.9, 8.5)).toBe(true);
    expect(spaced('Wo', 'rd', 0.9, 8.5)).toBe(false);
    expect(spaced('word', 'next', 2, 8.5)).toBe(true);
    // A space run the file set between two nearly touching runs is a break; runs that overlap are not split.
    expect(spaced('높거나', '집단', 0.3, 8.5, true)).toBe(true);
    expect(spaced('Wo', 'rd', -0.5, 8.5, true)).toBe(false);
  });
});

describe('pdf paragraphs', () => {
  it('a browser\'s print keeps its line-end hyphens where the document shows nothing else: browsers do not hyphenate', async () => {
    const lines = [...bodyAt(740, 3), { text: 'Photon is a geocoder, self-', y: 690 }, { text: 'hostable, that suits autocomplete on the map.', y: 690 - 15.4 }];
    expect(await md(pdf([{ lines }], { producer: 'Skia/PDF m156' }))).toContain('Photon is a geocoder, self-hostable, that suits');
    // Made by another program, with nothing to go on, the hyphen broke a word.
    expect(await md(pdf([{ lines }], { producer: 'pdfTeX-1.40.25' }))).toContain('Photon is a geocoder, selfhostable, that suits');
  });

  it('a sentence a page break cut ends before the page marker (a cut word joined as at a line end); the page goes on from its next sentence', async () => {
    const page = (last: string) => [...bodyAt(740, 30), { text: last, y: 740 - 30 * 15.4 }];
    const two = (next: string) => [{ lines: page('the last line of the page ends in a com-') }, { lines: [{ text: next, y: 740 }] }];
    const out = await md(pdf(two('puter word, e.g. the one here, goes on. The next sentence stays on its page.')));
    // Not cut at an abbreviation before lower case.
    expect(out).toContain('ends in a computer word, e.g. the one here, goes on.\n\n<!-- page 2 -->\n\nThe next sentence stays on its page.');
    // A page holding only the sentence's rest gives all of it.
    const all = await md(pdf(two('puter word and the paragraph ends across the page break')));
    expect(all).toContain('ends in a computer word and the paragraph ends across the page break\n\n<!-- page 2 -->');
    expect(all).not.toMatch(/page 2 -->\n\n\S/);
    // A compound the document writes with its hyphen keeps it.
    const compound = await md(pdf([{ lines: [...bodyAt(740, 2), { text: 'A well-known fact.', y: 700 }] }, { lines: page('and that was a well-') }, { lines: [{ text: 'known story of the town. Then more.', y: 740 }] }]));
    expect(compound).toContain('and that was a well-known story of the town.\n\n<!-- page 3 -->\n\nThen more.');
    // A page opening in upper case, or after a paragraph that ended its sentence, starts a paragraph of its own.
    const upper = await md(pdf([{ lines: page('the last line of the page stops short of its end in') }, { lines: [{ text: 'Paris the text goes on.', y: 740 }] }]));
    expect(upper).toContain('of its end in\n\n<!-- page 2 -->\n\nParis the text goes on.');
    const ended = await md(pdf([{ lines: page('the last line of the page ends a sentence here.') }, { lines: [{ text: 'iPhone sales rose.', y: 740 }] }]));
    expect(ended).toContain('ends a sentence here.\n\n<!-- page 2 -->\n\niPhone sales rose.');
  });

  it('sentenceEnd: after the stop, its closing quotes and note marks, before a capital, a digit or the end; never inside a code span, a link or an emphasis', () => {
    const first = (text: string) => text.slice(0, sentenceEnd(text));
    expect(first('goes on. Next one.')).toBe('goes on.');
    expect(first('the Web.\\[38\\] With a few')).toBe('the Web.\\[38\\]');
    expect(first('he said "a duck." The word')).toBe('he said "a duck."');
    expect(first('e.g. the one. 2 more')).toBe('e.g. the one.');
    expect(first('and `a.b. C` goes on. Next')).toBe('and `a.b. C` goes on.');
    expect(first('see [the docs. Here](https://x.org) now. Next')).toBe('see [the docs. Here](https://x.org) now.');
    expect(first('**Bold. Text** ends. Next')).toBe('**Bold. Text** ends.');
    expect(first('no stop at all')).toBe('no stop at all');
  });

  it("a sentence a column's foot cut goes on at the next column's head, the figure set between them after the paragraph; a column ending its sentence does not", async () => {
    const column = (x: number, tag: string, first?: string, last?: string) =>
      Array.from({ length: 14 }, (_, i) => ({ text: i === 0 && first ? first : i === 13 && last ? last : `${tag} column sentence ${i + 1} of running prose here`, x, y: 700 - i * 14, size: 10 }));
    const figure = [
      { text: 'Boots aircraft nut', x: 80, y: 420, size: 8 },
      { text: 'Figure 7-26. Self-locking nuts.', x: 50, y: 400, size: 9 },
    ];
    const cut = column(50, 'left', undefined, 'and the text reaches the foot of the column while');
    const out = await md(pdf([{ lines: [...cut, ...figure, ...column(330, 'right', 'the sentence goes on at the head of the next one.')] }]));
    expect(out).toContain('foot of the column while the sentence goes on at the head of the next one. right column sentence 2');
    expect(out).toContain('right column sentence 14 of running prose here\n\nBoots aircraft nut\n\nFigure 7-26. Self-locking nuts.');
    // A column whose last line ends its sentence, or a next column starting in upper case, starts a paragraph.
    const ends = await md(pdf([{ lines: [...column(50, 'left', undefined, 'and the text reaches the foot of the column here.'), ...column(330, 'right')] }]));
    expect(ends).toContain('foot of the column here.\n\nright column sentence 1');
    const upper = await md(pdf([{ lines: [...cut, ...column(330, 'right', 'The next column opens a paragraph of its own here.')] }]));
    expect(upper).toContain('foot of the column while\n\nThe next column opens');
  });

  it('body paragraphs set only a fifth more than the line spacing apart are separate paragraphs', async () => {
    // 10 pt text on a 12 pt line spacing; the paragraphs 15 pt apart (less than 1.6 lines). A paragraph's last line
    // ends a sentence; a full-width line spread 15 pt from the next by a tall formula does not end one.
    const full = 'of a paragraph set in the body font across the measure';
    const para = (y: number, tag: string) => [0, 1, 2].map((i) => ({ text: i < 2 ? `${tag} line ${i + 1} ${full}` : `${tag} line 3 ends.`, y: y - i * 12, size: 10 }));
    const out = await md(pdf([{ lines: [...para(700, 'First'), ...para(700 - 24 - 15, 'Second'), ...para(700 - 48 - 30, 'Third')] }]));
    expect(out).toContain('First line 3 ends.\n\nSecond line 1');
    expect(out).toContain('Second line 3 ends.\n\nThird line 1');
    expect(out).toContain(`Second line 1 ${full} Second line 2`);
    const spread = [0, 1, 2, 3].map((i) => ({ text: i < 3 ? `Spread line ${i + 1} ${full}` : 'Spread line 4 ends.', y: 700 - i * 12 - (i >= 2 ? 3 : 0), size: 10 }));
    const one = await md(pdf([{ lines: [...para(760, 'Before'), ...spread] }]));
    expect(one).toContain(`Spread line 2 ${full} Spread line 3`);
    // A line holding a raised note mark, which a browser sets lower by the mark's height (here 3 pt), goes on with
    // the line above that stopped short of the measure without ending.
    const noted = [
      { text: `Noted line 1 ${full}`, y: 500, size: 10 },
      { text: 'Noted line 2 with a high-profile marketing', y: 488, size: 10 },
      { text: 'campaign', x: 72, y: 473, size: 10 },
      { text: '[43]', x: 115, y: 477, size: 7 },
      { text: `and the paragraph goes on ${full}`, x: 130, y: 473, size: 10 },
      { text: 'Noted line 4 ends.', y: 461, size: 10 },
    ];
    const mark = await md(pdf([{ lines: [...para(760, 'Before'), ...noted] }]));
    expect(mark).toContain('with a high-profile marketing campaign');
  });

  it('an indented first line after a line that ends its paragraph starts a new one; other indented lines do not', async () => {
    const full = 'set in the body font across the whole measure of the column and on';
    const lines = [
      { text: `First paragraph opens indented and ${full}`, x: 92 },
      { text: `its second line ${full}` },
      { text: 'and ends short.' },
      { text: `Second paragraph opens indented and ${full}`, x: 92 },
      { text: `its second line ${full}` },
      { text: `runs on without an ending ${full}` },
      { text: `an indented word ${full}`, x: 92 },
      { text: 'and ends short.' },
    ].map((l, i) => ({ ...l, y: 700 - i * 12, size: 10 }));
    const out = await md(pdf([{ lines }]));
    expect(out).toContain('and ends short.\n\nSecond paragraph opens');
    expect(out).toContain('and on an indented word');
  });

  it('a document set with wide line spacing (1.65 lines) keeps its lines in paragraphs, parted by their 0.87-size first-line indent or by a wider gap', async () => {
    const full = 'set in the body font across the measure and on';
    // 11.5 pt text 19 pt apart (a Korean report's setting), full lines of about one width.
    const at = (rows: { text: string; x?: number; gap?: number }[], top: number) => {
      let y = top + 19;
      return rows.map((r) => ({ text: r.text, x: r.x, size: 11.5, y: (y -= 19 * (r.gap ?? 1)) }));
    };
    const lines = at(
      [
        { text: `First paragraph opens indented, ${full}`, x: 82 },
        { text: `and its second line runs in full, ${full}` },
        { text: 'and ends short.' },
        { text: `Second paragraph opens indented, ${full}`, x: 82 },
        { text: 'and ends short as well.' },
        // Two lines' space before it.
        { text: `Third paragraph after a wide gap, ${full}`, gap: 2 },
        { text: 'ends here.' },
      ],
      700,
    );
    expect(await md(pdf([{ lines }]))).toBe(
      `<!-- page 1 -->\n\nFirst paragraph opens indented, ${full} and its second line runs in full, ${full} and ends short.\n\nSecond paragraph opens indented, ${full} and ends short as well.\n\nThird paragraph after a wide gap, ${full} ends here.\n`,
    );
    // A full line that ends a sentence goes on where the next line is not indented, and parts where it is; short
    // lines at that spacing (an address block) stay lines of their own.
    const more = at(
      [
        { text: `A full line may end a sentence: ${full} stop.` },
        { text: `the paragraph goes on at its margin, ${full}` },
        { text: `and its last full line ends as well, ${full} stop.` },
        { text: `A new paragraph indented one letter, ${full}`, x: 82 },
        { text: 'ends short.' },
        { text: 'Ada Lovelace' },
        { text: '12 St James Square' },
        { text: 'London' },
      ],
      700,
    );
    expect(await md(pdf([{ lines: more }]))).toBe(
      `<!-- page 1 -->\n\nA full line may end a sentence: ${full} stop. the paragraph goes on at its margin, ${full} and its last full line ends as well, ${full} stop.\n\nA new paragraph indented one letter, ${full} ends short.\n\nAda Lovelace\n\n12 St James Square\n\nLondon\n`,
    );
  });

  it('a line ending in a hyphen joins the next without a space before a capital or a digit (a compound, a date, a code), and drops it between lower-case letters; an identifier or path wrapped at "_" or "/" is one token', async () => {
    const line = (text: string, i: number, y = 700, size = 10) => ({ text, y: y - i * 12, size });
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'AutoGen: Enabling Next-', y: 760, size: 20 },
            { text: 'Gen LLM Applications', y: 736, size: 20 },
            ...['BBC News. Retrieved 2006-', '11-02. The ISBN is 951-', '773-085-3 and the word infor-', 'mation is one word, while the Anglo-', 'Saxon text goes on to the end. Set QUARRY_', 'DATA_DIR, read /usr/local/', 'share and an A /', 'B test; see', '_NSAKEY.'].map((t, i) => line(t, i)),
          ],
        },
      ]),
    );
    expect(out).toMatch(/^# AutoGen: Enabling Next-Gen LLM Applications$/m);
    expect(out).toContain('Retrieved 2006-11-02. The ISBN is 951-773-085-3 and the word information is one word, while the Anglo-Saxon text');
    expect(out).toContain('Set QUARRY\\_DATA\\_DIR, read /usr/local/share and an A / B test; see \\_NSAKEY.');
    // In a ruled table's cell too: an identifier wrapped at its hyphen.
    const rules = ruledGrid([70, 200, 330, 460], [700, 680, 640, 620]);
    const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 10 });
    const grid = await md(
      pdf([
        {
          lines: [cell('Name', 75, 686), cell('Kind', 205, 686), cell('Id', 335, 686), cell('Alpha', 75, 660), cell('First', 205, 660), cell('1b92870d-e3b5-', 335, 666), cell('4e65-8153', 335, 652), cell('Beta', 75, 626), cell('Second', 205, 626), cell('7', 335, 626)],
          ops: rules,
        },
      ]),
    );
    expect(grid).toContain('| Alpha | First | 1b92870d-e3b5-4e65-8153 |');
  });

  it("a lower-case line-end hyphen is judged by the document's own words: a compound's hyphen stays (in paragraphs and table cells), a hyphen that broke a word goes", async () => {
    const line = (text: string, i: number) => ({ text, y: 760 - i * 12, size: 10 });
    const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 10 });
    // A word processor's file: it breaks lines only at a compound's own hyphen. "in-process" is written whole
    // elsewhere, so its break keeps the hyphen; so does "state-changing", which the file shows nothing about.
    const compounds = await md(
      pdf([
        {
          lines: [
            ...['The gateway keeps its cache in-process by default, and each state-', 'changing call is billed once; the in-', 'process queue drains before the process exits.'].map(line),
            cell('Part', 75, 686),
            cell('Where', 205, 686),
            cell('Size', 335, 686),
            cell('Cache', 75, 660),
            cell('in-', 205, 666),
            cell('process', 205, 652),
            cell('64 MB', 335, 660),
            cell('Queue', 75, 626),
            cell('shared', 205, 626),
            cell('1 GB', 335, 626),
          ],
          ops: ruledGrid([70, 200, 330, 460], [700, 680, 640, 620]),
        },
      ]),
    );
    expect(compounds).toContain('each state-changing call is billed once; the in-process queue drains');
    expect(compounds).toContain('| Cache | in-process | 64 MB |');
    // A typesetter that hyphenates: "computer" and "information" are written whole elsewhere, so this file breaks
    // words, and "para-" "graph", which it shows nothing about, is one word too.
    const hyphenated = await md(
      pdf([{ lines: ['A computer keeps the information it reads, and each com-', 'puter in the lab keeps the infor-', 'mation in one para-', 'graph of its log.'].map(line) }]),
    );
    expect(hyphenated).toContain('each computer in the lab keeps the information in one paragraph of its log.');
    // A file with one break and nothing to go on: both parts stand as words elsewhere, so it is a compound; a part of
    // a hyphenated word ("node-html-") is never a broken word, whatever else the file writes ("htmlparser").
    const alone = await md(pdf([{ lines: ['Each lock nut holds a spring, and every lock-', 'spring pair is tested; the node-html-', 'parser package wraps htmlparser.'].map(line) }]));
    expect(alone).toContain('every lock-spring pair is tested; the node-html-parser package wraps htmlparser.');
  });
});

describe('pdf contents pages', () => {
  it('a dash, a middle dot or an unexpected number that running text wrapped onto the start of a line is text, not a list item; a dash list stays a list', async () => {
    const line = (text: string, i: number) => ({ text, y: 700 - i * 12, size: 10 });
    const prose = [
      'The fields are the country code, which takes two letters, and the language code (two letters',
      '- or an underscore plus two to four letters) and the limit, between one and a hundred lines.',
      'The next sentence of the same paragraph runs on to the full width of the column set here.',
      '- dns2 3.0.0 (pinned: 3.1 needs Node 22): a plain DNS client for the record types listed',
      'here, with answers checked against the server asked and a retry over TCP when truncated.',
    ];
    const list = ['Three kinds of key exist:', '- live keys, which spend credits;', '- test keys, which never do;', '- revoked keys.'];
    // A number no list expects, wrapped onto a line's start ("gpt-" "4."), is text too; a list's next number is not.
    const numbers = ['We compare the performance and the inference cost on the algebra problems with the untuned gpt-', '4. We will also analyse how the difficulty levels affect the results here.'];
    // So is a middle dot separating a run of items (byte 0xB4, written as Latin-1 "´", is the fonts' standard
    // encoding's periodcentered).
    const dots = ['Operations are search {query, country, limit} and app {app, country} and reviews {app, sort}', '\u00B4 charts {chart, country, limit} \u00B4 developer {developer, country}, all of them keyless.'];
    const out = await md(pdf([{ lines: [...prose.map(line), ...list.map((t, i) => line(t, i + 7)), ...numbers.map((t, i) => line(t, i + 13)), ...dots.map((t, i) => line(t, i + 17))] }]));
    expect(out).toContain('reviews {app, sort} · charts {chart, country, limit} · developer');
    expect(out).toContain('with the untuned gpt-4. We will also analyse');
    expect(out).toContain('language code (two letters - or an underscore plus two to four letters) and the limit');
    expect(out).toContain('full width of the column set here. - dns2 3.0.0 (pinned: 3.1 needs Node 22): a plain DNS client for the record types listed here,');
    expect(out).toContain('Three kinds of key exist:\n\n- live keys, which spend credits;\n- test keys, which never do;\n- revoked keys.');
    // So is a bullet proper or a check box (\xb7 is the bullet in the builder's standard encoding).
    const bullet = ['Bullet glyphs mark list items, and an item led by a check box reads as a task in the output, just', '\xb7 as an item led by a bullet touching its text does; all of these rules are set down in the README.'];
    expect(await md(pdf([{ lines: [...prose.map(line), ...bullet.map((t, i) => line(t, i + 6))] }]))).toContain('in the output, just • as an item led by');
  });

  it('contents entries too few for a table (leader dots, page number) keep their own lines', async () => {
    const out = await md(pdf([{ lines: [{ text: 'Notices . . . . . . . . . . . vii' }, { text: 'Chapter 1. Securing data . . . . . . . 1' }, { text: 'and the text goes on' }] }]));
    expect(out).toContain('Notices . . . . . . . . . . . vii\n\nChapter 1. Securing data . . . . . . . 1\n\nand the text goes on');
  });
});

describe('pdf reading order', () => {
  const view = [0, 0, 612, 792];

  it('a space run the file sets between two nearly touching runs is a word break (tight Korean text)', () => {
    // Runs 0.3 pt apart: too close for the geometry rule, but the file put a space between them.
    const items = [item('높거나', 200, 460, 8.5, 19.7), item(' ', 219.7, 460, 8.5, 0.3), item('집단', 220, 460, 8.5, 13.6), item('발생의', 233.6, 460, 8.5, 19.7)];
    expect(readingOrder(items as never, [], view).map((l) => l.text)).toEqual(['높거나 집단발생의']);
  });

  it('a column of long lines beside a narrow side panel reads whole, then the panel: the gutter lies where no run crosses', () => {
    // Only the panel's runs are narrow enough to find the gutter; the column's lines reach into the range they leave.
    const items = [];
    for (let i = 0; i < 14; i++) items.push(item(`column line ${i + 1} of the article that runs across the whole column`, 6, 700 - i * 14, 12, 330 + (i % 3) * 5));
    for (let i = 0; i < 12; i++) items.push(item(`panel entry ${i + 1} · another`, 370, 696 - i * 15, 10.6, 150 + (i % 4) * 15));
    const text = readingOrder(items as never, [], view).map((l) => l.text);
    expect(text.slice(0, 14).every((t) => t.startsWith('column line'))).toBe(true);
    expect(text.slice(14).every((t) => t.startsWith('panel entry'))).toBe(true);
  });

  it('a line of 100,000 runs is read in time that grows with it (each run looked at the whole text so far: 44 s)', () => {
    const items = Array.from({ length: 100_000 }, (_, i) => item('ab', 10 + i * 0.002, 700, 0.001, 0.001));
    const lines = readingOrder(items as never, [], view);
    expect(lines).toHaveLength(1);
    expect(lines[0].text).toHaveLength(299_999);
  });

  it('a page of absurd width (a hostile MediaBox) is read without sizing anything by its width', () => {
    const items = [];
    for (let i = 0; i < 24; i++) items.push(item(`prose line ${i + 1} runs across`, i % 2 ? 72 : 320, 700 - (i >> 1) * 14, 10, 220));
    expect(readingOrder(items as never, [], [0, 0, 1e12, 792])).toHaveLength(12);
  });

  it('two prose columns with their own baselines read left then right, inside bands cut by full-width lines', () => {
    const items = [item('A Title Spanning Both Columns Of The Page For Readers', 72, 740, 14, 468)];
    for (let i = 0; i < 12; i++) items.push(item(`left column prose line ${i + 1} runs across`, 72, 700 - i * 14, 10, 220));
    for (let i = 0; i < 12; i++) items.push(item(`right column prose line ${i + 1} runs across`, 320, 698 - i * 14, 10, 220));
    items.push(item('A full-width closing paragraph line under both columns of text', 72, 500, 10, 468));
    const text = readingOrder(items as never, [], view).map((l) => l.text);
    expect(text[0]).toMatch(/^A Title/);
    expect(text.slice(1, 13).every((t) => t.startsWith('left'))).toBe(true);
    expect(text.slice(13, 25).every((t) => t.startsWith('right'))).toBe(true);
    expect(text[25]).toMatch(/^A full-width closing/);
  });

  it('a list number beside a long item that crosses the columns\' gutter stays in the item\'s line', async () => {
    const lines = [
      // Numbers set apart from their text (a browser's list), so that each is a run of its own.
      { text: '1.', x: 50, y: 700 },
      { text: 'Short item', x: 80, y: 700 },
      { text: '2.', x: 50, y: 684.6 },
      { text: 'A long item whose text runs across the middle of the page and', x: 80, y: 684.6 },
      { text: 'on to a second line', x: 80, y: 669.2 },
      ...Array.from({ length: 12 }, (_, i) => ({ text: `Left column prose line ${i + 1} runs`, x: 50, y: 630 - i * 15.4 })),
      ...Array.from({ length: 12 }, (_, i) => ({ text: `Right column prose line ${i + 1} runs`, x: 320, y: 630 - i * 15.4 })),
    ];
    const out = await md(pdf([{ lines }]));
    expect(out).toContain('1. Short item\n2. A long item whose text runs across the middle of the page and on to a second line\n');
    expect(out).toMatch(/Left column prose line 12 runs\s+Right column prose line 1 runs/);
  });

  it('two columns under a taller single-column part (short lines, a table) still read column by column', () => {
    const items = [item('Release notes', 72, 750, 16, 120)];
    for (let i = 0; i < 24; i++) items.push(item(`Short item ${i + 1} of a list`, 90, 720 - i * 14, 10, 110));
    for (let i = 0; i < 4; i++) items.push(item(`left column prose line ${i + 1} runs across`, 72, 360 - i * 14, 10, 220));
    for (let i = 0; i < 3; i++) items.push(item(`right column prose line ${i + 1} runs across`, 320, 366 - i * 14, 10, 220));
    const text = readingOrder(items as never, [], view).map((l) => l.text);
    const body = text.filter((t) => /column prose/.test(t)).map((t) => t.slice(0, 5));
    expect(body).toEqual(['left ', 'left ', 'left ', 'left ', 'right', 'right', 'right']);
    expect(text.slice(0, 25).every((t) => !/column/.test(t))).toBe(true);
  });

  it('side heads, a body column and a sidebar read one after another, though the gutters lie outside the middle of the page', () => {
    // A book's back cover: bold side heads left of the blurb, a narrow sidebar at the right edge; the gutters stand at a
    // quarter and three quarters of the width, and the side heads carry a tenth of the text beside them.
    const items = [item('Row and Column Access Control', 27, 695, 33, 480)];
    const heads = ['Implement roles and', 'separation of duties', 'Leverage row', 'permissions on the', 'database', 'Protect columns by', 'defining column', 'masks'];
    heads.forEach((h, i) => items.push(item(h, 26.7, 541.3 - i * 14 - Math.floor((i + 1) / 3) * 14, 12, h.length * 6)));
    for (let i = 0; i < 12; i++) items.push(item(`blurb line ${i + 1} of the publication's description here`, 152.9, 542.2 - i * 12, 9.96, 300));
    for (let i = 0; i < 20; i++) items.push(item(`sidebar ${i + 1} words`, 467.3, 534.3 - i * 11, 10.98, 110));
    const text = readingOrder(items as never, [], view).map((l) => l.text);
    expect(text[0]).toMatch(/^Row and Column/);
    expect(text.slice(1, 9)).toEqual(heads);
    expect(text.slice(9, 21).every((t) => t.startsWith('blurb line'))).toBe(true);
    expect(text.slice(21).every((t) => t.startsWith('sidebar'))).toBe(true);
  });

  it('three prose columns sharing baselines read one column after another', () => {
    const items = [item('A Title Spanning All Three Columns Of The Newsletter', 50, 740, 14, 510)];
    for (const [k, x] of [50, 230, 410].entries())
      for (let i = 0; i < 12; i++) items.push(item(`col${k + 1} prose line ${i + 1} fills it`, x, 700 - i * 14, 10, 150));
    const text = readingOrder(items as never, [], view).map((l) => l.text);
    expect(text[0]).toMatch(/^A Title/);
    expect(text.slice(1).map((t) => t.slice(0, 4))).toEqual([...Array(12).fill('col1'), ...Array(12).fill('col2'), ...Array(12).fill('col3')]);
    expect(text.slice(13, 25).map((t) => /line (\d+)/.exec(t)![1])).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
  });

  it('a sidebar line in another size whose baseline falls inside a paragraph comes after the paragraph', async () => {
    const para = [0, 1, 2].map((i) => ({ text: `Paragraph line ${i + 1} set in the column on the right side`, x: 280, y: 600 - i * 10, size: 8 }));
    const out = await md(pdf([{ lines: [...para, { text: 'Sidebar', x: 72, y: 595, size: 11 }, { text: 'Next paragraph after a gap in the column', x: 280, y: 560, size: 8 }] }]));
    expect(out).toContain('Paragraph line 1 set in the column on the right side Paragraph line 2');
    expect(out.indexOf('Sidebar')).toBeGreaterThan(out.indexOf('Paragraph line 3'));
    expect(out.indexOf('Sidebar')).toBeLessThan(out.indexOf('Next paragraph'));
    // A label in the paragraph's own size (a table's centred row label) stays where it is.
    const label = await md(pdf([{ lines: [...para, { text: 'Label', x: 72, y: 595, size: 8 }] }]));
    expect(label.indexOf('Label')).toBeLessThan(label.indexOf('Paragraph line 2'));
  });

  it('a form whose two halves share baselines is read row by row', () => {
    const items = [];
    for (let i = 0; i < 12; i++) items.push(item(`Label ${i + 1}`, 72, 700 - i * 14), item(`Value ${i + 1}`, 400, 700 - i * 14));
    const text = readingOrder(items as never, [], view).map((l) => l.text);
    expect(text[0]).toBe('Label 1 Value 1');
    expect(text[11]).toBe('Label 12 Value 12');
  });
});

describe('pdf headings in the body size', () => {
  // Headings come from the source's structure (size ranks, outline, numbered section lines), never from a bold line,
  // however it is spaced: a demanding reader's bold paragraph openers and run-in labels stay text.
  it('a bold line in the body size is text, with or without space around it', async () => {
    const cases: [string, ReturnType<typeof bodyAt>][] = [
      ['Boots Self-Locking Nut', [{ text: 'Boots Self-Locking Nut', y: 660 } as never]],
      ['Please note the following:', [{ text: 'Please note the following:', y: 660 } as never]],
      ['Figure 7 Self-locking nuts', [{ text: 'Figure 7 Self-locking nuts', y: 660 } as never]],
      ['A Bold Paragraph Opening', [{ text: 'A Bold Paragraph Opening', y: 660 } as never, { text: 'goes on in bold type here', y: 644.6 } as never]],
    ];
    for (const [text, lines] of cases) {
      const out = await md(pdf([{ lines: [...bodyAt(740, 4, 'Intro'), ...lines.map((l) => ({ ...l, bold: true })), ...bodyAt(620, 5)] }]));
      expect(out, text).not.toMatch(/^#/m);
      expect(out).toContain(text);
    }
  });
});

describe('pdf tables and scripts', () => {
  it('lists set side by side (a slide\'s text boxes) are read column by column as lists, not as a table', async () => {
    const col = (x: number, texts: string[]) => texts.map((text, i) => ({ text, x, y: 700 - i * 20 }));
    const boxes = [...col(72, ['1. List item four', '2. List item five', '3. List item six']), ...col(250, ['\u00b7 Alpha', '\u00b7 Beta', '\u00b7 Gamma', '\u00b7 Delta']), ...col(420, ['Some info:', '\u00b7 Item A', '\u00b7 Item B'])];
    const out = await md(pdf([{ lines: [{ text: 'Slide title', size: 28, y: 760 }, ...boxes] }]));
    expect(out).toContain('1. List item four\n2. List item five\n3. List item six\n\n- Alpha\n- Beta\n- Gamma\n- Delta\n\nSome info:\n\n- Item A\n- Item B');
    expect(out).not.toContain('|');
    // Without the markers the same lines are a table.
    const plain = await md(pdf([{ lines: [{ text: 'Slide title', size: 28, y: 760 }, ...boxes.map((l) => ({ ...l, text: l.text.replace(/^(\d\. |\u00b7 )/, '') }))] }]));
    expect(plain).toContain('| List item four | Alpha | Some info: |');
  });

  it('a header split over two text rows above numeric rows becomes one header row', () => {
    const rows = [
      ['#', '#', 'Language', '', 'TEDs', '', 'mAP'],
      ['enc-layers', 'dec-layers', '', 'simple', 'complex', 'all', '(0.75)'],
      ['6', '6', 'OTSL', '0.965', '0.934', '0.955', '0.88'],
      ['4', '4', 'HTML', '0.938', '0.904', '0.927', '0.853'],
    ];
    expect(mergeHeaderRows(rows)[0]).toEqual(['# enc-layers', '# dec-layers', 'Language', 'simple', 'TEDs complex', 'all', 'mAP (0.75)']);
    expect(mergeHeaderRows(rows).length).toBe(3);
    // Text rows below (a glossary, no numbers) are left alone.
    const text = [
      ['Term', 'Meaning'],
      ['', 'continued'],
      ['Alpha', 'first letter'],
    ];
    expect(mergeHeaderRows(text)).toEqual(text);
    // A first data row with a gap is not a second header line.
    const sparse = [
      ['Code', 'Location', 'Expected', 'Actual'],
      ['SKU-8847', 'A-12', '450', ''],
      ['SKU-9001', 'B-03', '120', '118'],
      ['SKU-9002', 'B-04', '80', '80'],
    ];
    expect(mergeHeaderRows(sparse)).toEqual(sparse);
  });
});

describe('pdf turned pages', () => {
  type Mark = { text: string; x: number; y: number; size?: number };
  /**
   * One page's content set on a landscape page (792 × 612, reading coordinates) and drawn on a portrait page so
   * that it runs `way` degrees counter-clockwise (0: upright on a landscape page), as a sideways table is: text
   * and ruled lines alike. At 90 the page also says `/Rotate 90`, as files that show such pages upright do.
   */
  function turnedPage(way: 0 | 90 | 180 | 270, marks: Mark[], rules: [number, number, number, number][]): Uint8Array {
    const at = (x: number, y: number): [number, number] =>
      way === 90 ? [612 - y, x] : way === 270 ? [y, 792 - x] : way === 180 ? [792 - x, 612 - y] : [x, y];
    const [c, s] = [Math.round(Math.cos((way * Math.PI) / 180)), Math.round(Math.sin((way * Math.PI) / 180))];
    const text = marks.map((m) => `BT /F1 ${m.size ?? 11} Tf ${c} ${s} ${-s} ${c} ${at(m.x, m.y).join(' ')} Tm (${m.text}) Tj ET`);
    const lines = rules.map(([x0, y0, x1, y1]) => `${at(x0, y0).join(' ')} m ${at(x1, y1).join(' ')} l S`);
    // A link over the title: its box turned with the page.
    const [ax, ay] = at(70, 535);
    const [bx, by] = at(330, 560);
    const links = [{ rect: [Math.min(ax, bx), Math.min(ay, by), Math.max(ax, bx), Math.max(ay, by)] as [number, number, number, number], url: 'https://example.org/q3' }];
    const file = Buffer.from(pdf([{ lines: [], ops: [...text, ...lines].join('\n'), links }])).toString('latin1');
    const box = way === 90 || way === 270 ? '[0 0 612 792]' : '[0 0 792 612]';
    return new Uint8Array(Buffer.from(file.replace('/MediaBox [0 0 612 792]', `/MediaBox ${box}${way === 90 ? ' /Rotate 90' : ''}`), 'latin1'));
  }
  const title: Mark = { text: 'Quarterly results by region', x: 72, y: 540, size: 18 };
  const intro = ['The table below lists each region with its sales and its growth over the quarter,', 'as the regional offices reported them at the close of the period.'].map((text, i) => ({ text, x: 72, y: 500 - i * 15 }));
  // A ruled grid of three columns and four rows, one cell over two lines with the row's other cells centred on
  // them: without its rules the text is no table at all.
  const cells = [['Region', 'Sales', 'Growth'], ['Northern', '1,200', '4.5%'], ['South', '980', ''], ['East', '1,430', '6.0%']].flatMap((row, i) =>
    row.map((text, j) => ({ text, x: 80 + j * 150, y: 440 - i * 36 - (i === 1 && j > 0 ? 6.5 : 0) })).filter((m) => m.text),
  );
  cells.push({ text: 'coastal', x: 80, y: 440 - 36 - 13 });
  const grid: [number, number, number, number][] = [
    ...[455, 419, 383, 347, 311].map((y): [number, number, number, number] => [72, y, 522, y]),
    ...[72, 222, 372, 522].map((x): [number, number, number, number] => [x, 311, x, 455]),
  ];

  it('a page whose text runs sideways or upside down reads as the same page upright: heading, link, paragraph, ruled table', async () => {
    const upright = await md(turnedPage(0, [title, ...intro, ...cells], grid));
    expect(upright).toContain('# [Quarterly results by region](https://example.org/q3)\n\nThe table below lists each region with its sales and its growth over the quarter, as the regional offices reported them at the close of the period.\n\n| Region | Sales | Growth |\n| --- | --- | --- |\n| Northern coastal | 1,200 | 4.5% |\n| South | 980 | |\n| East | 1,430 | 6.0% |');
    for (const way of [90, 180, 270] as const) expect(await md(turnedPage(way, [title, ...intro, ...cells], grid)), `turned ${way}`).toBe(upright);
  });

  it('text set at a slant (a watermark over the text, a stamp) joins no line: it follows its page\'s text, a paragraph never a heading, written once', async () => {
    const body = Array.from({ length: 20 }, (_, i) => ({ text: `Body sentence ${i + 1} of ordinary running prose in the body font, set across`, y: 700 - i * 15.4 }));
    const slant = (text: string, y: number) => `q 0.8 g BT /F2 60 Tf 0.7071 0.7071 -0.7071 0.7071 150 ${y} Tm (${text}) Tj ET Q`;
    const out = await md(pdf([{ lines: body, ops: slant('CONFIDENTIAL', 500) }, { lines: body, ops: [slant('CONFIDENTIAL', 500), slant('PAID', 300)].join('\n') }]));
    const prose = body.map((l) => l.text).join(' ');
    expect(out).toBe(`<!-- page 1 -->\n\n${prose}\n\nCONFIDENTIAL\n\n<!-- page 2 -->\n\n${prose}\n\nPAID\n`);
  });

  it('a sideways note in the margin of an upright page (arXiv\'s identifier) joins no line either: it follows the page\'s text', async () => {
    const body = Array.from({ length: 30 }, (_, i) => ({ text: `Body sentence ${i + 1} of ordinary running prose in the body font, set across`, y: 740 - i * 15.4 }));
    const note = { text: 'arXiv:2305.03393v1 [cs.CV] 5 May 2023', turned: true, x: 30, y: 420, size: 20 };
    const out = await md(pdf([{ lines: [...body, note] }]));
    expect(out).toBe(`<!-- page 1 -->\n\n${body.map((l) => l.text).join(' ')}\n\narXiv:2305.03393v1 \\[cs.CV\\] 5 May 2023\n`);
  });

  it('a table\'s long vertical column heads over short figures leave their page upright (without /Rotate, sideways text must outnumber upright text four to one)', async () => {
    // Four heads of 22 characters read upwards in a 120 pt header band, over three rows of two-digit figures.
    const heads = ['Respondents in region A', 'Respondents in region B', 'Respondents in region C', 'Respondents in region D'];
    const xs = [70, 170, 200, 230, 260, 290];
    const rules = ['70 700 m 290 700 l S', ...[580, 560, 540, 520].map((y) => `70 ${y} m 290 ${y} l S`), ...xs.map((x) => `${x} 520 m ${x} 700 l S`)].join('\n');
    const lines = [
      { text: 'Survey', x: 72, y: 720, size: 12 },
      { text: 'Year', x: 75, y: 586, size: 9 },
      ...heads.map((text, i) => ({ text, x: 192 + i * 30, y: 586, size: 9, turned: true })),
      ...['2021', '2022', '2023'].flatMap((year, r) => [{ text: year, x: 75, y: 566 - r * 20, size: 9 }, ...heads.map((_, i) => ({ text: String(10 + r * 4 + i), x: 176 + i * 30, y: 566 - r * 20, size: 9 }))]),
    ];
    const out = await md(pdf([{ lines, ops: rules }]));
    expect(out).toContain('| Year | Respondents in region A | Respondents in region B | Respondents in region C | Respondents in region D |');
    expect(out).toContain('| 2021 | 10 | 11 | 12 | 13 |');
  });
});
