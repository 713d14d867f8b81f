/**
 * PDF structure rules (README "Document parsing", convention 2 and 6): headings from outlines, tagged structure,
 * font-size ranks and numbered section lines in another font, never from a bold line alone; running headers and
 * footers dropped; ordered and bulleted lists; multi-line table cells; tables the structure tree marks; right-to-left
 * lines.
 */
import { describe, expect, it } from 'vitest';
import { headingLevel, sizeLevels } from '../../src/parse/pdf/headings.js';
import { markItems } from '../../src/parse/pdf/items.js';
import type { Line } from '../../src/parse/pdf/lines.js';
import { tidyRows } from '../../src/parse/pdf/tables.js';
import { fillGrid, gridsFrom, trimFrameBands } from '../../src/parse/pdf/rules.js';
import { structureTags, outlineTitles } from '../../src/parse/pdf/structure.js';
import { dropRunningLines } from '../../src/parse/pdf/running.js';
import { figureBoxes, mcidOf } from '../../src/parse/pdf/figures.js';
import { pdf, ruledGrid, type FieldSpec } from './files.js';
import { parseEndpoint } from './endpoint.js';

const md = parseEndpoint();
const body = (n: number) => Array.from({ length: n }, (_, i) => ({ text: `Body sentence number ${i + 1} that reads like ordinary running prose.` }));

describe('pdf headings from real structure', () => {
  it('a lone bold line in the body size is not a heading (a paragraph of its own), a numbered section line in another font is', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            ...body(2),
            { text: 'Bold Line Only', bold: true },
            ...body(6),
            { text: '5.1 Hyper Parameter Optimization', bold: true },
            ...body(3),
            { text: '(2) Second Part Title', bold: true },
            ...body(2),
          ],
        },
      ]),
    );
    expect(out).not.toMatch(/^#+ Bold Line Only/m);
    // Not a heading, but not the start of the paragraph below it either: a paragraph of its own.
    expect(out).toMatch(/^Bold Line Only$/m);
    expect(out).toMatch(/^## 5\.1 Hyper Parameter Optimization$/m);
    expect(out).toMatch(/^### \(2\) Second Part Title$/m);
  });

  it('bold lines at the body size head the text where two or more stand apart, short and not ending like a sentence; a first bold line is the title (issue 36, decision 1)', async () => {
    // Three side heads set bold at the body size, each apart from the text above it, over a paragraph of five
    // lines; a bold run inside a line of text stays text; the document opens with its bold title.
    let y = 760;
    const line = (text: string, extra: { bold?: boolean; gap?: number; x?: number } = {}) => {
      y -= extra.gap ?? 15.4;
      return { text, y, bold: extra.bold, x: extra.x };
    };
    const para = (n: number) => Array.from({ length: n }, (_, i) => line(`Body sentence number ${i + 1} that reads like ordinary running prose.`));
    const lines = [
      line('The Annual Report of the Society', { bold: true }),
      ...para(3).map((l, i) => (i === 0 ? { ...l, y: l.y - 10 } : { ...l, y: l.y - 10 })),
      line('Membership and Finances', { bold: true, gap: 30 }),
      ...para(5),
      line('Work of the Committees', { bold: true, gap: 30 }),
      line('Emphasis inside a paragraph:', { bold: true }),
      { text: 'stays part of the sentence it sits in.', y, x: 240 },
      ...para(4),
      line('Outlook for the Coming Year', { bold: true, gap: 30 }),
      ...para(5),
    ];
    const out = await md(pdf([{ lines }]));
    expect(out).toMatch(/^# The Annual Report of the Society$/m);
    for (const head of ['Membership and Finances', 'Work of the Committees', 'Outlook for the Coming Year']) expect(out).toMatch(new RegExp(`^#+ ${head}$`, 'm'));
    expect(out).not.toMatch(/^#+ Emphasis/m);
    expect(out).toMatch(/^Emphasis inside a paragraph: stays part of the sentence it sits in\. Body sentence number 1/m);
  });

  it('bold body-size lines that are not headings read as paragraphs: a form\'s labels, a glossary\'s terms (issue 36, decision 1)', async () => {
    // A form: bold labels ending in a colon over their values.
    const form = [
      { text: 'Applicant name:', bold: true },
      { text: 'Ada Lovelace' },
      { text: 'Date of birth:', bold: true },
      { text: '10 December 1815' },
      { text: 'Address:', bold: true },
      { text: '12 St James\'s Square, London' },
    ];
    // A glossary: bold terms on lines of their own, each over a definition of a line: its entries, one in two of
    // its lines, not its sections.
    const glossary = [
      ['Amortization', 'The gradual repayment of a debt through scheduled payments.'],
      ['Collateral', 'An asset a lender accepts as security for a loan.'],
      ['Equity', 'The value of an asset less the debts secured on it.'],
      ['Liquidity', 'How quickly an asset can be turned into cash.'],
    ].flatMap(([term, definition]) => [{ text: term, bold: true }, { text: definition }]);
    for (const lines of [form, glossary]) {
      const out = await md(pdf([{ lines: [...body(2), ...lines] }]));
      expect(out).not.toMatch(/^#/m);
    }
    const out = await md(pdf([{ lines: [...body(2), ...glossary] }]));
    expect(out).toMatch(/^Amortization$/m);
    expect(out).toMatch(/^The gradual repayment of a debt through scheduled payments\.$/m);
    const labels = await md(pdf([{ lines: [...body(2), ...form] }]));
    expect(labels).toMatch(/Applicant name:/);
    expect(labels).toMatch(/Ada Lovelace/);
  });

  it('a numbered section line in another font may hold code spans and wrap onto a second line; a long numbered question in bold is no heading; a heading\'s wrapped line needs no letters', async () => {
    // 12 pt throughout, as LibreOffice sets pandoc's third-level headings: bold at the body size, 14 pt line spacing.
    const line = (text: string, y: number, extra: { bold?: boolean; mono?: boolean; x?: number; size?: number } = {}) => ({ text, y, size: 12, ...extra });
    // (The question's wrapped line hangs past its number, as a list item's does.)
    const prose = (y: number) => [0, 1, 2].map((k) => line(`Body sentence ${k + 1} of ordinary running prose that fills the line to the full width of the column.`, y - k * 14));
    const out = await md(
      pdf([
        {
          lines: [
            ...prose(760),
            line('1.1 Firecrawl', 700, { bold: true }),
            line('apps/api', 160, { mono: true }),
            ...prose(680),
            line('4.1 Catalogue as data (one source: validation, OpenAPI, MCP tools,', 620, { bold: true }),
            line('docs and the catalogue)', 606, { bold: true }),
            ...prose(586),
            line('23. If your country has an institutional legal aid provider (e.g. public defender), what is', 526, { bold: true }),
            line('the maximum caseload per lawyer at one time?', 512, { bold: true, x: 90 }),
            ...prose(492),
            // A larger heading that runs long wraps onto a line without letters.
            line('2. Stack: versions, health and smoke tests, in a scratch directory on Node', 430, { bold: true, size: 14 }),
            line('20.20.2)', 413, { bold: true, size: 14 }),
            ...prose(390),
          ].map((l) => (l.text === 'apps/api' ? { ...l, x: 160, y: 700 } : l)),
        },
      ]),
    );
    expect(out).toMatch(/^#+ 1\.1 Firecrawl `apps\/api`$/m);
    expect(out).toMatch(/^#+ 4\.1 Catalogue as data \(one source: validation, OpenAPI, MCP tools, docs and the catalogue\)$/m);
    expect(out).not.toMatch(/^#+ 23\./m);
    expect(out).toMatch(/^#+ 2\. Stack: versions, health and smoke tests, in a scratch directory on Node 20\.20\.2\)$/m);
    expect(out).toContain('23. If your country has an institutional legal aid provider (e.g. public defender), what is the maximum caseload per lawyer at one time?');
  });

  it('a page set smaller than the document ranks its own sizes; a sidebar heading beside a body line is a line of its own', async () => {
    const page = (n: number) => ({ lines: [{ text: `Chapter ${n} text`, size: 14 }, ...body(8)] });
    const out = await md(
      pdf([
        page(1),
        {
          lines: [
            { text: 'We build confident clients', size: 9.4, x: 280, y: 700 },
            { text: 'No one else has the vast consulting experience to do this', size: 7.4, x: 280, y: 690 },
            { text: 'Highlights', size: 9.4, x: 100, y: 688.5 },
            { text: 'and the line that follows it in the same column.', size: 7.4, x: 280, y: 680 },
            { text: 'Small body text on this brochure page runs on like this.', size: 7.4, x: 280, y: 670 },
          ],
        },
        page(3),
      ]),
    );
    expect(out).toContain('#### We build confident clients\n');
    expect(out).toContain('#### Highlights\n');
    expect(out).not.toMatch(/Highlights No one|No one else.*Highlights/);
  });

  it('a numbered line in the body font stays text (an ordered list item)', async () => {
    const out = await md(pdf([{ lines: [...body(3), { text: '1. First step to take' }, { text: '2. Second step to take' }, ...body(2)] }]));
    expect(out).not.toMatch(/^#/m);
    expect(out).toContain('1. First step to take\n2. Second step to take');
    // A numbered reference whose longest run is a title in another face (a browser-printed Wikipedia page's
    // citations): its number is set in the body font, so it is no numbered section line.
    const refs = await md(
      pdf([
        {
          lines: [
            ...body(3).map((l, i) => ({ ...l, y: 700 - i * 15.4 })),
            { text: '1.', y: 640 }, { text: 'Smith, Anna (2001). A short note.', x: 86, y: 640 },
            { text: '2.', y: 624.6 }, { text: 'Brown, Tom (1999).', x: 86, y: 624.6 },
            { text: 'The Encyclopedia of Historic and Endangered Livestock', bold: true, x: 200, y: 624.6 },
            { text: 'and Poultry Breeds. Yale University Press.', x: 86, y: 609.2 },
            { text: '3.', y: 593.8 }, { text: 'Doe, Jane (2003). Another note.', x: 86, y: 593.8 },
          ],
        },
      ]),
    );
    expect(refs).not.toMatch(/^#/m);
    expect(refs).toMatch(/^2\. Brown, Tom \(1999\)\. The Encyclopedia of Historic and Endangered Livestock and Poultry Breeds\. Yale University Press\.$/m);
  });

  it('outline (bookmark) titles matched to lines become headings at their depth', async () => {
    const out = await md(pdf([{ lines: [{ text: 'Introduction', bold: false }, ...body(5), { text: 'Method details' }, ...body(3)] }], { outline: [{ title: 'Introduction', page: 0 }, { title: 'Method Details', page: 0 }] }));
    expect(out).toMatch(/^# Introduction$/m);
    expect(out).toMatch(/^# Method details$/m);
    // A title wrapped over two lines of the same face matches its bookmark as a whole.
    const long = 'site.seo (checks an audit normally runs; mirrors the SEO category of Lighthouse plus crawler basics)';
    const wrapped = await md(
      pdf([{ lines: [...body(3), { text: long.slice(0, long.lastIndexOf(' ', 66)), bold: true }, { text: long.slice(long.lastIndexOf(' ', 66) + 1), bold: true }, ...body(3)] }], { outline: [{ title: long, page: 0 }] }),
    );
    expect(wrapped).toContain(`\n# ${long}\n`);
    expect(outlineTitles([{ title: 'A  Part', items: [{ title: 'Sub one', items: [] }] }, { title: 'x' }])).toEqual(
      new Map([
        ['a part', 1],
        ['sub one', 2],
      ]),
    );
  });

  it('tagged structure: marked content inside H/Hn elements carries its level to the line', () => {
    const tags = structureTags({ role: 'Root', children: [{ role: 'H2', children: [{ type: 'content', id: 'p1_mc0' }] }, { role: 'P', children: [{ type: 'content', id: 'p1_mc1' }] }] });
    expect(tags).toEqual(new Map([['p1_mc0', { heading: 2, cell: undefined }]]));
    const items = markItems(
      [
        { type: 'beginMarkedContentProps', id: 'p1_mc0' } as never,
        { str: 'Tagged Title', transform: [10, 0, 0, 10, 72, 700], width: 60, height: 10 },
        { type: 'endMarkedContent' } as never,
        { type: 'beginMarkedContentProps', id: 'p1_mc1' } as never,
        { str: 'Body', transform: [10, 0, 0, 10, 72, 680], width: 20, height: 10 },
        { type: 'endMarkedContent' } as never,
      ],
      tags,
    );
    expect(items.map((i) => [i.str, i.tag])).toEqual([
      ['Tagged Title', 2],
      ['Body', undefined],
    ]);
  });

  it('tagged structure: rows and cells of Table elements, in tree order, a table inside a cell belonging to that cell', () => {
    const c = (id: string) => ({ type: 'content', id });
    const tags = structureTags({
      role: 'Root',
      children: [
        { role: 'Table', children: [
          { role: 'THead', children: [{ role: 'TR', children: [{ role: 'TH', children: [c('h0')] }, { role: 'TH', children: [c('h1')] }] }] },
          { role: 'TBody', children: [{ role: 'TR', children: [{ role: 'TD', children: [c('d0')] }, { role: 'TD', children: [{ role: 'Table', children: [{ role: 'TR', children: [{ role: 'TD', children: [c('in')] }] }] }] }] }] },
        ] },
        { role: 'Table', children: [{ role: 'TR', children: [{ role: 'TD', children: [] }, { role: 'TD', children: [c('e1')] }] }] },
      ],
    });
    expect(Object.fromEntries([...tags].map(([id, t]) => [id, t.cell]))).toEqual({
      h0: { table: 0, row: 0, col: 0, head: true },
      h1: { table: 0, row: 0, col: 1, head: true },
      d0: { table: 0, row: 1, col: 0, head: false },
      in: { table: 0, row: 1, col: 1, head: false },
      e1: { table: 1, row: 0, col: 1, head: false },
    });
  });

  it('a tagged table (a browser or Word export) is a pipe table: header row, monospace cells as code, wrapped cells joined (a wrapped code span as one), rows far apart', async () => {
    // Set as a browser prints an HTML table: rows 30 pt apart, the names in Courier, one cell wrapped onto two lines,
    // a name wrapped after its "_" one code span.
    const lines = [
      { text: 'Settings', size: 18, y: 720 },
      { text: 'The server reads these variables at start.', y: 690 },
      { text: 'variable', bold: true, x: 90, y: 660 },
      { text: 'default', bold: true, x: 300, y: 660 },
      { text: 'PORT', mono: true, size: 10, x: 90, y: 630 },
      { text: '8080', mono: true, size: 10, x: 300, y: 630 },
      { text: 'QUARRY_SECRET', mono: true, size: 10, x: 90, y: 600 },
      { text: 'generated into', x: 300, y: 600 },
      { text: 'the data dir', x: 300, y: 586 },
      { text: 'A | B', x: 90, y: 556 },
      { text: 'both', x: 300, y: 556 },
      { text: 'QUARRY_UPSTREAM_', mono: true, size: 10, x: 90, y: 526 },
      { text: 'TIMEOUT_MS', mono: true, size: 10, x: 90, y: 514 },
      { text: '15000', mono: true, size: 10, x: 300, y: 526 },
      { text: 'Restart the server after a change.', y: 480 },
    ];
    const td = (...k: number[]) => ({ role: 'TD', kids: k });
    const tags = {
      role: 'Document',
      kids: [
        { role: 'H1', kids: [0] },
        { role: 'P', kids: [1] },
        { role: 'Table', kids: [
          { role: 'TR', kids: [{ role: 'TH', kids: [2] }, { role: 'TH', kids: [3] }] },
          { role: 'TR', kids: [td(4), td(5)] },
          { role: 'TR', kids: [td(6), td(7, 8)] },
          { role: 'TR', kids: [td(9), td(10)] },
          { role: 'TR', kids: [td(11, 12), td(13)] },
        ] },
        { role: 'P', kids: [14] },
      ],
    };
    const out = await md(pdf([{ lines, tags }]));
    expect(out).toContain(
      ['The server reads these variables at start.', '', '| variable | default |', '| --- | --- |', '| `PORT` | `8080` |', '| `QUARRY_SECRET` | generated into the data dir |', '| A \\| B | both |', '| `QUARRY_UPSTREAM_TIMEOUT_MS` | `15000` |', '', 'Restart the server after a change.'].join('\n'),
    );
    expect(out).not.toContain('```');
    // The same lines untagged: monospace lines set apart are code, not a table (what the tags settle).
    expect(await md(pdf([{ lines }]))).toContain('```');
  });

  it('a tagged table whose rows hold fewer cells (spans, empty cells the tree leaves out) places them under the columns their text stands in', async () => {
    const at = (text: string, x: number, y: number) => ({ text, x, y });
    const lines = [
      at('Plan', 72, 700), at('Limits', 200, 700), at('Price', 400, 700),
      at('Free', 72, 680), at('100/day', 150, 680), at('1 key', 260, 680), at('$0', 400, 680),
      at('Pro', 72, 660), at('10k/day', 150, 660), at('5 keys', 260, 660), at('$49', 400, 660),
      at('50k/day', 150, 640), at('20 keys', 260, 640), at('$99', 400, 640),
    ];
    const row = (...k: number[]) => ({ role: 'TR', kids: k.map((i) => ({ role: 'TD', kids: [i] })) });
    const tags = { role: 'Table', kids: [row(0, 1, 2), row(3, 4, 5, 6), row(7, 8, 9, 10), row(11, 12, 13)] };
    const out = await md(pdf([{ lines, tags }]));
    expect(out).toContain(['| Plan | Limits | | Price |', '| --- | --- | --- | --- |', '| Free | 100/day | 1 key | $0 |', '| Pro | 10k/day | 5 keys | $49 |', '| | 50k/day | 20 keys | $99 |'].join('\n'));
  });

  it('tagged list items are list items: a bullet where the label has no text (a browser draws shapes), nesting by where they stand', async () => {
    // Lines 0-3 are the labels a browser draws (marked content without text), 4-7 the items' text.
    const lines = [
      { text: '', x: 80, y: 700 },
      { text: '', x: 110, y: 684 },
      { text: '', x: 110, y: 668 },
      { text: '', x: 80, y: 652 },
      { text: 'Faster parsing of large files', x: 90, y: 700 },
      { text: 'PDF pages in parallel', x: 120, y: 684 },
      { text: 'Lower memory', x: 120, y: 668 },
      { text: 'New endpoints', x: 90, y: 652 },
      { text: '\u00b7', x: 72, y: 620 },
      { text: 'Labelled item', x: 90, y: 620 },
      { text: '\u00b7', x: 72, y: 604 },
      { text: 'Second labelled item', x: 90, y: 604 },
    ];
    type Kid = number | { role: string; kids: Kid[] };
    const li = (lbl: number, ...body: Kid[]) => ({ role: 'LI', kids: [{ role: 'Lbl', kids: [lbl] }, { role: 'LBody', kids: body }] });
    const tags = {
      role: 'Document',
      kids: [
        { role: 'L', kids: [li(0, 4, { role: 'L', kids: [li(1, 5), li(2, 6)] }), li(3, 7)] },
        { role: 'L', kids: [li(8, 9), li(10, 11)] },
      ],
    } as never;
    const out = await md(pdf([{ lines, tags }]));
    expect(out).toContain('- Faster parsing of large files\n  - PDF pages in parallel\n  - Lower memory\n- New endpoints');
    expect(out).toContain('- Labelled item\n- Second labelled item');
    expect(out).not.toMatch(/- •|• •/);
    // An item whose label is on the page before: its text here continues it and gets no bullet.
    const cont = await md(pdf([{ lines: [{ text: 'continued from the page before.', x: 90, y: 700 }, { text: 'A paragraph after the list.', x: 72, y: 660 }], tags: { role: 'L', kids: [{ role: 'LI', kids: [{ role: 'LBody', kids: [0] }] }, { role: 'P', kids: [1] }] } as never }]));
    expect(cont).toContain('continued from the page before.');
    expect(cont).not.toMatch(/^- /m);
  });

  it('a filled form keeps its answers: field values beside their labels, check boxes as tasks or ☒/☐, choices as shown', async () => {
    const lines = [
      { text: 'Application form', size: 16, y: 740 },
      { text: 'Name:', x: 72, y: 700 },
      { text: 'Country:', x: 72, y: 670 },
      { text: 'Married', x: 90, y: 640 },
      { text: 'Single', x: 90, y: 622 },
      { text: 'Newsletter', x: 72, y: 590 },
      { text: 'Express delivery', x: 90, y: 560 },
    ];
    const fields = [
      { type: 'text', name: 'name', rect: [120, 695, 300, 712], value: 'Ada Lovelace' },
      { type: 'choice', name: 'country', rect: [120, 665, 300, 681], value: ['FR'], options: [['FR', 'France'], ['ES', 'Spain']] },
      { type: 'check', name: 'married', rect: [72, 636, 84, 648], on: true },
      { type: 'check', name: 'single', rect: [72, 618, 84, 630], on: false },
      { type: 'check', name: 'news', rect: [140, 586, 152, 598], on: true },
      { type: 'radio', name: 'ship', rect: [72, 556, 84, 568], on: true },
      { type: 'text', name: 'empty', rect: [120, 520, 300, 536], value: '' },
    ] as FieldSpec[];
    const out = await md(pdf([{ lines, fields }]));
    expect(out).toContain('Name: Ada Lovelace');
    expect(out).toContain('Country: France');
    expect(out).toContain('- [x] Married\n- [ ] Single');
    expect(out).toContain('Newsletter ☒');
    expect(out).toContain('- [x] Express delivery');
    expect(out).not.toContain('Spain');
  });

  it('a tagged PDF\'s artifacts (print header and footer, page numbers) are not content; a page of little else keeps them', async () => {
    const tags = { role: 'Document', kids: [{ role: 'P', kids: [1] }, { role: 'P', kids: [2] }] };
    const lines = [
      { text: '11/25/26, 3:44 PM Release notes', size: 8, x: 24, y: 770, artifact: true },
      { text: 'The first paragraph of the page, with enough words to be the content.', y: 700 },
      { text: 'The second paragraph of the page, also with words enough to count.', y: 670 },
      { text: 'file:///tmp/notes.html 1/2', size: 8, x: 24, y: 20, artifact: true },
    ];
    const out = await md(pdf([{ lines, tags }]));
    expect(out).toContain('The first paragraph');
    expect(out).not.toMatch(/3:44 PM|notes\.html/);
    // Mis-tagged: the page's text is all artifact, so it is read after all.
    const all = await md(pdf([{ lines: lines.map((l) => ({ ...l, artifact: true })), tags }]));
    expect(all).toContain('The first paragraph');
  });

  it('figure boxes: the painted image\'s matrix, else the one where the figure begins, else the last set inside; a unit square is no place', () => {
    const page = [0.24, 0, 0, -0.24, 0, 792];
    // save 10, restore 11, transform 12, BDC 70, EMC 71, paintImageXObject 85.
    const ops = (...o: [number, unknown][]) => ({ fnArray: o.map((x) => x[0]), argsArray: o.map((x) => x[1]) });
    const boxes = figureBoxes(
      ops(
        [12, page],
        // Figure 1: matrix set before it begins (a browser), a text matrix inside it afterwards.
        [10, null],
        [12, [375, 0, 0, -187.5, 140.625, 437.5]],
        [70, ['Figure', 1]],
        [11, null],
        [10, null],
        [12, [3.125, 0, 0, 3.125, 115.625, 115.625]],
        [71, null],
        [11, null],
        // Figure 2: painted inside, with its own matrix.
        [70, ['Figure', 2]],
        [10, null],
        [12, [100, 0, 0, 50, 200, 300]],
        [85, ['img', 1, 1]],
        [11, null],
        [71, null],
        // Figure 3: drawn with paths under the page's matrix only.
        [10, null],
        [12, [1, 0, 0, 1, 0, 0]],
        [70, ['Figure', 3]],
        [71, null],
      ),
      new Set([1, 2, 3]),
    );
    expect([...boxes.keys()].sort()).toEqual([1, 2]);
    expect(boxes.get(1)!.map((v) => Math.round(v))).toEqual([34, 687, 124, 732]);
    expect(boxes.get(2)!.map((v) => Math.round(v))).toEqual([48, 708, 72, 720]);
    expect(mcidOf('p2R_mc17')).toBe(17);
    // Only alternate text worth writing marks a figure (a Word export writes "Figure" and a NUL when there is none).
    const fig = (alt: string, id: string) => ({ role: 'Figure', alt, children: [{ type: 'content', id }] });
    const alts = structureTags({ role: 'Root', children: [fig('Figure\u0000', 'a'), fig('Image 3', 'b'), fig(' Sales by\u0000region ', 'c')] });
    expect([...alts].map(([id, t]) => [id, t.alt])).toEqual([['c', 'Sales by region']]);
  });

  it('a tagged table of one row, or of one cell per row, is a frame: its text stays text', async () => {
    const lines = [{ text: 'Framed note inside a one-cell layout table.' }, { text: 'Second framed line.' }];
    const one = await md(pdf([{ lines, tags: { role: 'Table', kids: [{ role: 'TR', kids: [{ role: 'TD', kids: [0] }] }, { role: 'TR', kids: [{ role: 'TD', kids: [1] }] }] } }]));
    expect(one).not.toContain('|');
    expect(one).toContain('Framed note inside a one-cell layout table.');
  });

  it('heading levels rank the sizes body pages use; a cover\'s sizes share the top level', () => {
    // An IBM Redbook: covers in 70/43/33 pt, chapters 26, front matter 24, sections 16, subsections 13.
    const book = sizeLevels([70, 43, 33, 26, 24, 16, 13], [26, 24, 16, 13]);
    expect([...book.values()]).toEqual([1, 1, 1, 1, 2, 3, 4]);
    // A report whose title page alone uses 32/26 pt: its sections (13.5, 12.5) rank below the title.
    expect([...sizeLevels([32, 26, 13.5, 12.5], [13.5, 12.5]).values()]).toEqual([1, 1, 2, 3]);
    // A size only an insert page uses between two ranked ones takes the level of the next smaller one.
    expect(sizeLevels([26, 19, 16], [26, 16]).get(19)).toBe(2);
    // No body pages: every size ranks, capped at four levels.
    expect([...sizeLevels([30, 24, 20, 16, 14], []).values()]).toEqual([1, 2, 3, 4, 4]);
  });

  it('a book whose cover uses sizes of its own still gives chapters, sections and subsections their own levels', async () => {
    const cover = { lines: [{ text: 'Redpaper', size: 40 }, { text: 'Access Control Support', size: 30 }, { text: 'Implement roles', size: 20 }, { text: 'Front cover', size: 18 }] };
    const chapter = (n: number) => ({ lines: [{ text: `Chapter ${n}. Securing data`, size: 24 }, ...body(6), { text: `${n}.1 Security fundamentals`, size: 16 }, ...body(6), { text: `${n}.1.1 Existing controls`, size: 13 }, ...body(6)] });
    const out = await md(pdf([cover, chapter(1), chapter(2)]));
    // Three body sizes leave room for the cover's title above them.
    expect(out).toMatch(/^# Redpaper$/m);
    expect(out).toMatch(/^## Chapter 2\. Securing data$/m);
    expect(out).toMatch(/^### 2\.1 Security fundamentals$/m);
    expect(out).toMatch(/^#### 2\.1\.1 Existing controls$/m);
  });

  it('a back cover set mostly in the body size ranks no sizes of its own: covers are a book\'s first and last pages', async () => {
    const cover = { lines: [{ text: 'Redpaper', size: 40 }, { text: 'Front cover', size: 18 }] };
    const chapter = (n: number) => ({ lines: [{ text: `Chapter ${n}. Securing data`, size: 24 }, ...body(6), { text: `${n}.1 Security fundamentals`, size: 16 }, ...body(6), { text: `${n}.1.1 Existing controls`, size: 13 }, ...body(6)] });
    // The blurb outweighs the cover's titles, so by its sizes alone the page would read as a body page.
    const back = { lines: [{ text: 'Back cover', size: 33 }, { text: 'Row and Column Access Control', size: 30 }, { text: 'Support in DB2', size: 28 }, ...body(8)] };
    const out = await md(pdf([cover, chapter(1), chapter(2), back]));
    expect(out).toMatch(/^## Chapter 2\. Securing data$/m);
    expect(out).toMatch(/^### 2\.1 Security fundamentals$/m);
    expect(out).toMatch(/^#### 2\.1\.1 Existing controls$/m);
    expect(out).toMatch(/^# Back cover$/m);
  });

  it('a cover\'s own smaller sizes (side heads, authors, a web address) are text, its title a heading; a blurb wrapped in a heading\'s size is a paragraph', async () => {
    const chapter = (n: number) => ({ lines: [{ text: `Chapter ${n}. Securing data`, size: 24 }, ...body(6), { text: `${n}.1 Security fundamentals`, size: 16 }, ...body(6)] });
    const at = (text: string, size: number, y: number, bold = false) => ({ text, size, y, bold });
    const cover = {
      lines: [
        at('Access Control', 43, 700),
        // Side heads in a face of their own, wrapped in narrow lines each short of the body's measure: a paragraph each.
        at('Implement roles and separation', 14, 600, true),
        at('of duties', 14, 583, true),
        at('Leverage row permissions on', 14, 546, true),
        at('the database', 14, 529, true),
        at('ibm.com/redbooks', 15, 400),
        at('Jim Bainbridge Hernando Bedoya Rob Bestgen', 12, 300),
      ],
    };
    // A back cover's blurb set in a chapter's size: too long for a heading.
    const blurb = Array.from({ length: 5 }, (_, i) => at(`Redbooks are made by experts, line ${i + 1} of the blurb`, 16, 700 - i * 19));
    const out = await md(pdf([cover, chapter(1), chapter(2), { lines: [...blurb, ...body(3).map((l, i) => at(l.text, 11, 500 - i * 15))] }]));
    expect(out).toMatch(/^# Access Control$/m);
    expect(out).toMatch(/^Implement roles and separation of duties$/m);
    expect(out).toMatch(/^Leverage row permissions on the database$/m);
    expect(out).toMatch(/^ibm\.com\/redbooks$/m);
    expect(out).toMatch(/^Jim Bainbridge Hernando Bedoya Rob Bestgen$/m);
    expect(out).toMatch(/^## Chapter 2\. Securing data$/m);
    expect(out).toMatch(/^Redbooks are made by experts, line 1 of the blurb Redbooks are made by experts, line 2/m);
    expect(out).not.toMatch(/^#+ Redbooks/m);
  });

  it('a book read only in part (maxPages) ranks its last page read: only the document\'s own last page is a cover', async () => {
    const pages = [
      { lines: [{ text: 'Redpaper', size: 40 }] },
      { lines: [{ text: 'Chapter 1. Securing data', size: 24 }, ...body(6)] },
      { lines: [...body(4), { text: '1.1 Security fundamentals', size: 16 }, ...body(4), { text: 'Aside on terms', size: 12 }, ...body(2)] },
      { lines: [...body(4), { text: '1.1.1 Existing controls', size: 13 }, ...body(4)] },
      { lines: [{ text: 'Back cover', size: 33 }, ...body(8)] },
    ];
    const whole = await md(pdf(pages));
    const part = await md(pdf(pages), 4);
    for (const out of [whole, part]) {
      expect(out).toMatch(/^# Chapter 1\. Securing data$/m);
      expect(out).toMatch(/^## 1\.1 Security fundamentals$/m);
      expect(out).toMatch(/^### 1\.1\.1 Existing controls$/m);
    }
  });

  it('a figure\'s labels at a heading size, parted only by smaller callouts, are text: a section holds body text', async () => {
    const at = (text: string, size: number, y: number) => ({ text, size, y });
    const out = await md(
      pdf([
        {
          lines: [
            // A title wrapped over three lines is one heading, not a run of labels.
            at('Row and column access control for the', 14, 760),
            at('database administrator and the security', 14, 743),
            at('officer of a large organisation', 14, 726),
            ...body(4).map((l, i) => at(l.text, 11, 700 - i * 15)),
            // A syntax diagram: clauses at 12.5 pt, each under its 8 pt callout, then the figure's caption.
            at('Names the row permission', 8, 630),
            at('CREATE PERMISSION permission-name', 12.5, 615),
            at('Identifies the table', 8, 595),
            at('ON table-name', 12.5, 580),
            at('Indicates that a row permission is created', 8, 560),
            at('FOR ROWS', 12.5, 545),
            at('Applies to all access', 8, 525),
            at('ENFORCED FOR ALL ACCESS', 12.5, 510),
            at('Figure 3-1 CREATE PERMISSION statement', 9, 485),
            at('Column masks', 12.5, 455),
            ...body(4).map((l, i) => at(l.text, 11, 435 - i * 15)),
            at('Special registers', 12.5, 360),
            ...body(3).map((l, i) => at(l.text, 11, 340 - i * 15)),
          ],
        },
      ]),
    );
    expect(out).toMatch(/^#+ Row and column access control for the database administrator and the security officer of a large organisation$/m);
    for (const clause of ['CREATE PERMISSION permission-name', 'ON table-name', 'FOR ROWS', 'ENFORCED FOR ALL ACCESS']) {
      expect(out).toMatch(new RegExp(`^${clause}$`, 'm'));
    }
    expect(out).not.toMatch(/^#+ (CREATE|ON|FOR|ENFORCED)/m);
    expect(out).toMatch(/^#+ Column masks$/m);
    expect(out).toMatch(/^#+ Special registers$/m);
  });

  it('headingLevel: size ranks first, then numbered lines need another font (all of the line) or a larger size', () => {
    const ctx = { levels: sizeLevels([18, 14], []), bodySize: 10, bodyFont: 'f1', outline: new Map<string, number>() };
    const line = (text: string, size: number, font = 'f1', oneFont = true): Line => ({ y: 0, x: 0, size, text, height: size, cells: [], font, oneFont });
    expect(headingLevel(line('Big', 18), ctx)).toBe(1);
    expect(headingLevel(line('Bold text', 10, 'f2'), ctx)).toBe(0);
    expect(headingLevel(line('2.3 Results', 10, 'f2'), ctx)).toBe(3);
    expect(headingLevel(line('2.3 Results', 10), ctx)).toBe(0);
    // Mostly in another face, but not all of it (the number in the body font): no section line.
    expect(headingLevel(line('2.3 Results', 10, 'f2', false), ctx)).toBe(0);
    expect(headingLevel(line('2.3 Results end with a period.', 10, 'f2'), ctx)).toBe(0);
  });
});

describe('pdf page furniture, lists, tables, direction', () => {
  it('running headers and footers repeated on most pages are dropped, page numbers with them', async () => {
    const pages = [1, 2, 3, 4].map((n) => ({
      lines: [{ text: 'ACME Quarterly Report', y: 770, size: 9 }, { text: `Unique content of page ${n} goes here.`, y: 600 }, { text: `Page ${n} starts a short line`, y: 750 }, { text: `Page ${n} of 4`, y: 30, size: 9 }],
    }));
    const out = await md(pdf(pages));
    expect(out).not.toContain('ACME Quarterly Report');
    expect(out).not.toMatch(/Page \d of 4/);
    for (const n of [1, 2, 3, 4]) expect(out).toContain(`Unique content of page ${n} goes here.`);
    // Short lines in the band whose digits differ are read as the same running line; the sentence below is not.
    expect(out).not.toContain('starts a short line');
    // Two pages are not enough to call anything running.
    const two: Line[][] = [[{ y: 780, x: 0, size: 9, text: 'Header', height: 9, cells: [] }], [{ y: 780, x: 0, size: 9, text: 'Header', height: 9, cells: [] }]];
    expect(dropRunningLines(two, [[0, 0, 612, 792], [0, 0, 612, 792]])).toEqual(two);
  });

  it('in a document too short to show repetition, a page number standing apart at the foot goes; a number by the text stays', async () => {
    // A LaTeX article's number sits an inch and a quarter above the foot, four lines below the text.
    const page = (n: number, tail: { text: string; y: number }[]) => ({ lines: [...body(5), ...tail, { text: String(n), x: 303, y: 89 }] });
    const out = await md(pdf([page(1, []), page(2, [{ text: 'Total items counted', y: 140 }, { text: '42', y: 126 }])]));
    expect(out).not.toMatch(/^1$/m);
    expect(out).not.toMatch(/^2$/m);
    // The page's last line of content, a bare number right under the text, is content.
    expect(out).toContain('42');
    const near = await md(pdf([{ lines: [...body(5), { text: 'Total items counted', y: 110 }, { text: '7', y: 96 }] }]));
    expect(near).toMatch(/\b7$/m);
  });

  it('a book\'s running heads that follow its chapters (three pages each) are dropped; a larger repeated title and a recurring footnote are not', async () => {
    const pages = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({
      lines: [
        { text: `Chapter ${Math.ceil(n / 3)}: Part ${['One', 'Two', 'Three'][Math.ceil(n / 3) - 1]} ${n}`, y: 770, size: 9 },
        ...([2, 3, 5].includes(n) ? [{ text: 'Agenda', y: 750, size: 20 }] : []),
        // A short footnote recurring at the foot of three pages, at a different height on each, is text.
        ...([4, 6, 8].includes(n) ? [{ text: `${n} Ibid.`, y: 30 + n * 3, size: 9 }] : []),
        { text: `Unique content of page ${n} goes here.`, y: 600 },
      ],
    }));
    const out = await md(pdf(pages));
    expect(out).not.toMatch(/Chapter \d: Part/);
    expect(out.match(/^#+ Agenda$/gm)).toHaveLength(3);
    expect(out.match(/\d Ibid\./g)).toHaveLength(3);
    for (const n of [1, 5, 9]) expect(out).toContain(`Unique content of page ${n} goes here.`);
  });

  it('a running head of a chapter too short to recur is dropped where the running heads stand, with its page number, and a roman page number; a line elsewhere in the band stays', async () => {
    // Chapter 1 runs over four pages (its head recurs), chapter 2 over two (its head is on one page only: the
    // chapter's first page carries none).
    const head = (n: number) => (n <= 4 ? `Chapter 1: Introduction ${n}` : `Chapter 2: Naming ${n}`);
    const pages = [1, 2, 3, 4, 5, 6].map((n) => ({
      lines: [
        ...(n === 5 ? [] : [{ text: head(n), y: 770, size: 9 }]),
        { text: `Unique content of page ${n} goes here.`, y: 600 },
        // The bottom band: a figure's note with a number, where no running line stands; a front-matter page's roman
        // number.
        ...(n === 6 ? [{ text: 'Table 2 lists 12', y: 40, size: 9 }] : []),
        ...(n === 1 ? [{ text: 'vi', y: 30, size: 9 }] : []),
      ],
    }));
    const out = await md(pdf(pages));
    expect(out).not.toMatch(/Chapter \d: /);
    expect(out).not.toMatch(/^vi$/m);
    expect(out).toContain('Table 2 lists 12');
    for (const n of [1, 5, 6]) expect(out).toContain(`Unique content of page ${n} goes here.`);
  });

  it('list markers set a tab apart from their text are list items, not table rows; Word\'s Courier "o" is a nested bullet', async () => {
    const prose = (y: number) => ({ text: 'Some ordinary running prose sits above the list on this page.', x: 72, y });
    // A marker at `x` and its text 26 pt right of it (a tab stop): two cells, as a table row would have.
    const item = (y: number, m: string, t: string, x = 90) => [{ text: m, x, y, mono: m === 'o' }, { text: t, x: x + 26, y }];
    const out = await md(
      pdf([
        {
          lines: [
            prose(700),
            ...item(680, '1.', 'First step'),
            ...item(666, '2.', 'Second step'),
            ...item(652, '3.', 'Third step'),
            prose(620),
            // \xb7 is the bullet in the builder's standard encoding.
            ...item(600, '\xb7', 'Apples'),
            ...item(586, '\xb7', 'Pears'),
            ...item(572, 'o', 'Green pears', 108),
            ...item(558, '\xb7', 'Plums'),
            prose(520),
            // A three-column table whose first column is numbered stays a table.
            ...[500, 486, 472].flatMap((y, k) => [{ text: `${k + 1}.`, x: 72, y }, { text: `Part ${k + 1}`, x: 120, y }, { text: `${k * 4 + 2} kg`, x: 300, y }]),
            prose(440),
            // A word "o" in the sentence's own font is a word.
            { text: 'o', x: 72, y: 420 },
            { text: 'gato e o cachorro dormem juntos.', x: 82, y: 420 },
          ],
        },
      ]),
    );
    expect(out).toContain('1. First step\n2. Second step\n3. Third step');
    expect(out).toContain('- Apples\n- Pears\n  - Green pears\n- Plums');
    expect(out).toContain('| 1. | Part 1 | 2 kg |\n| --- | --- | --- |\n| 2. | Part 2 | 6 kg |');
    expect(out).toMatch(/^o gato e o cachorro dormem juntos\.$/m);
  });

  it('a bullet touching its text (a deck exported to PDF) starts an item; a line in another size beside an item does not continue it', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'Second slide title', x: 73, y: 700, size: 44 },
            // \xb7 is the bullet in the builder's standard encoding.
            { text: '\xb7With foo', x: 73, y: 600, size: 28 },
            { text: 'A rectangle shape', x: 380, y: 590, size: 18 },
            { text: '\xb7Bar', x: 73, y: 560, size: 28 },
            { text: '\xb7And baz things', x: 73, y: 520, size: 28 },
            { text: '-5 degrees is cold for a duck.', x: 73, y: 470, size: 18 },
          ],
        },
      ]),
    );
    expect(out).toContain('- With foo\n');
    expect(out).toContain('- Bar\n- And baz things');
    // A line a little smaller than its item (a note set in it, 10 pt under 12 pt) still goes on with it.
    const note = await md(pdf([{ lines: [...body(3), { text: '\xb7 5 Behaviour', size: 12, x: 72, y: 600 }, { text: 'Toggle Behaviour subsection', size: 10, x: 84, y: 586 }, { text: '\xb7 6 Relationship', size: 12, x: 72, y: 570 }] }]));
    expect(note).toContain('- 5 Behaviour Toggle Behaviour subsection\n- 6 Relationship');
    expect(out).toMatch(/^A rectangle shape$/m);
    expect(out).toMatch(/^-5 degrees is cold for a duck\.$/m);
  });

  it("an item's line that runs on without ending goes on at its marker's start (no hanging indent); a line after an item that ends does not", async () => {
    const at = (text: string, y: number) => ({ text, y, size: 10 });
    const out = await md(
      pdf([
        {
          lines: [
            at('Recommendations for the team that runs the warehouse and its inventory counts:', 700),
            at('1. Immediate review of the handling procedures. 2. Implement additional checks for critical', 688),
            at('items. 3. Schedule a follow-up audit for the high-value products in the next quarter.', 676),
            at('2. Report the results to the board of the company when the audit is done, in writing.', 664),
            at('The paragraph after the list starts here and it runs across the whole measure too.', 652),
          ],
        },
      ]),
    );
    expect(out).toContain('1. Immediate review of the handling procedures. 2. Implement additional checks for critical items. 3. Schedule');
    expect(out).toContain('in writing.\n\nThe paragraph after the list starts here');
  });

  it('list items nest by where their markers stand; right-aligned numbers ("9." and "10.") stay one level', async () => {
    const at = (text: string, x: number) => ({ text, x });
    const out = await md(
      pdf([
        {
          lines: [
            ...body(2),
            at('\u00b7 apples', 72),
            at('\u00b7 pears', 72),
            at('- green ones', 90),
            at('- red ones', 90),
            at('\u00b7 plums', 72),
            at('8. eight', 78),
            at('1. first step', 96),
            at('9. nine', 78),
            at('10. ten', 72),
            ...body(2),
          ],
        },
      ]),
    );
    expect(out).toContain('- apples\n- pears\n  - green ones\n  - red ones\n- plums\n\n8. eight\n   1. first step\n9. nine\n10. ten');
    // Each item a little further right for ever: nesting stops at eight levels.
    const deep = await md(pdf([{ lines: [...body(2), ...Array.from({ length: 30 }, (_, i) => at(`- level ${i + 1}`, 72 + i * 12)), ...body(2)] }]));
    expect(deep).toContain(`${' '.repeat(14)}- level 8\n${' '.repeat(14)}- level 9`);
    expect(deep).toContain(`${' '.repeat(14)}- level 30`);
  });

  it('discs and circles drawn left of indented lines are bullets in a file a browser printed (a page of list items too), and shapes in any other', async () => {
    // A disc 3.8 pt across (four curves, filled) 8.7 pt left of each item, its middle 4 pt above the baseline, as
    // Chromium draws a list's markers; the second level's marker is a stroked circle.
    const disc = (x: number, y: number, paint: 'f' | 'S') => {
      const r = 1.9;
      const k = r * 0.552;
      return `${x + r} ${y} m ${x + r} ${y + k} ${x + k} ${y + r} ${x} ${y + r} c ${x - k} ${y + r} ${x - r} ${y + k} ${x - r} ${y} c ${x - r} ${y - k} ${x - k} ${y - r} ${x} ${y - r} c ${x + k} ${y - r} ${x + r} ${y - k} ${x + r} ${y} c ${paint}`;
    };
    const items = [
      { text: 'Faster parsing', x: 102, y: 680, dot: [91.9, 684, 'f'] },
      { text: 'PDF pages in parallel', x: 132, y: 662, dot: [121.9, 666, 'S'] },
      { text: 'Lower memory', x: 132, y: 644, dot: [121.9, 648, 'S'] },
      { text: 'New endpoints', x: 102, y: 626, dot: [91.9, 630, 'f'] },
    ] as const;
    const page = {
      lines: [{ text: 'What changed in this release:', x: 72, y: 700 }, ...items.map(({ text, x, y }) => ({ text, x, y })), { text: 'That is all for now.', x: 72, y: 600 }],
      ops: items.map(({ dot: [x, y, p] }) => disc(x, y, p)).join('\n'),
    };
    // A second page holding only the list's last items: its margin is the page before's.
    const more = {
      lines: [{ text: 'Better logs', x: 102, y: 700 }, { text: 'Cheaper caching', x: 102, y: 682 }, { text: 'Quieter retries', x: 102, y: 664 }],
      ops: [704, 686, 668].map((y) => disc(91.9, y, 'f')).join('\n'),
    };
    const printed = await md(pdf([page, more], { producer: 'Skia/PDF m156' }));
    expect(printed).toContain('What changed in this release:\n\n- Faster parsing\n  - PDF pages in parallel\n  - Lower memory\n- New endpoints\n\nThat is all for now.');
    expect(printed).toContain('<!-- page 2 -->\n\n- Better logs\n- Cheaper caching\n- Quieter retries');
    const other = await md(pdf([page], { producer: 'LibreOffice 7.4' }));
    expect(other).not.toContain('- Faster parsing');
  });

  it('bullet glyphs (including a symbol font\'s lone control character, or one letter and control characters, and Word\'s private-use symbol bullets) become - items', async () => {
    const out = await md(pdf([{ lines: [...body(2), { text: '\u00b7 first point' }, { text: '\u00b7 second point' }, ...body(2)] }]));
    expect(out).toContain('- first point\n- second point');
    expect(markItems([{ str: '\u0002', transform: [9, 0, 0, 9, 0, 0], width: 5, height: 9 }], new Map())[0].str).toBe('•');
    expect(markItems([{ str: 'r\u0001', transform: [5, 0, 0, 5, 0, 0], width: 4, height: 5 }], new Map())[0].str).toBe('•');
    expect(markItems([{ str: 'a\u0003b', transform: [9, 0, 0, 9, 0, 0], width: 5, height: 9 }], new Map())[0].str).toBe('ab');
    // Word's symbol-font bullets arrive as private-use code points (inside a table cell no item marker strips them).
    expect(markItems([{ str: '\uF0B7 A First \uF0A7 \uF0FC', transform: [9, 0, 0, 9, 0, 0], width: 50, height: 9 }], new Map())[0].str).toBe('• A First ▪ ✓');
  });

  it('a font without a usable encoding (glyph ids as control characters, or U+FFFD) yields no text, its stray printable ids included', () => {
    const at = (str: string, fontName: string) => ({ str, fontName, transform: [6, 0, 0, 6, 0, 0], width: 30, height: 6 });
    const items = [
      at('\u0002\u0003 \u0004\u0005\u0006\u0007\u0005\b \u0003', 'sidebar'),
      at('\u0003\b\u000e\u0005\u0014!\u0015\u001b', 'sidebar'),
      at('!', 'sidebar'),
      at('\u0007', 'sidebar'),
      at('r\u0001', 'dingbats'),
      at('Readable text beside it', 'body'),
    ];
    expect(markItems(items, new Map()).map((it) => it.str)).toEqual(['•', 'Readable text beside it']);
    // So does one whose glyphs pdf.js could not map at all (U+FFFD each: a font cairo re-encoded without its glyph
    // names), and a lone such glyph leading a line is a bullet.
    const lost = [at('\uFFFD\uFFFD \uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD', 'lost'), at('\uFFFD', 'dingbats'), at('Readable text beside it', 'body')];
    expect(markItems(lost, new Map()).map((it) => it.str)).toEqual(['•', 'Readable text beside it']);
  });

  it('multi-line cells: a row holding one non-first cell continues the row above; indented columns fold left', () => {
    expect(
      tidyRows([
        ['Column', 'Type', 'Description', ''],
        ['USER_NAME', 'VARCHAR(10)', 'Name of the user profile that has', ''],
        ['', '', 'a usage setting.', ''],
        ['USAGE', 'VARCHAR(7)', 'Usage setting:', ''],
        ['', '', '', '• ALLOWED: allowed.'],
      ]),
    ).toEqual([
      ['Column', 'Type', 'Description'],
      ['USER_NAME', 'VARCHAR(10)', 'Name of the user profile that has a usage setting.'],
      ['USAGE', 'VARCHAR(7)', 'Usage setting: • ALLOWED: allowed.'],
    ]);
    // A row with several cells and an empty first one is a row of its own.
    expect(tidyRows([['a', 'b', 'c'], ['1', '2', '3'], ['', '4', '5']])).toHaveLength(3);
  });

  it('right-to-left lines read right to left; reversed lam-alef-hamza ligatures are restored', async () => {
    // Two runs of an Arabic line: the right one comes first in reading order.
    const { readingOrder } = await import('../../src/parse/pdf/lines.js');
    const lines = readingOrder(
      markItems(
        [
          { str: 'مرحبا', transform: [12, 0, 0, 12, 300, 700], width: 40, height: 12 },
          { str: 'اإلنتاجية', transform: [12, 0, 0, 12, 240, 700], width: 50, height: 12 },
        ],
        new Map(),
      ),
      [],
      [0, 0, 612, 792],
    );
    expect(lines[0].text).toBe('مرحبا الإنتاجية');
  });

  it('ruled tables: crossing rules make a grid (drawn in a form XObject too); a cell\'s several lines stay one cell; the table sits in reading order', async () => {
    // A 3-column, 3-row grid drawn with strokes: rows at y 700/680/640/620, columns at x 70/200/330/460.
    const rules = ruledGrid([70, 200, 330, 460], [700, 680, 640, 620]);
    const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 10 });
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'Text above the table.', y: 730 },
            cell('Name', 75, 686),
            cell('Kind', 205, 686),
            cell('Notes', 335, 686),
            cell('Alpha', 75, 660),
            cell('First', 205, 660),
            cell('wraps onto', 335, 666),
            cell('two lines', 335, 652),
            cell('Beta', 75, 626),
            cell('Second', 205, 626),
            cell('short', 335, 626),
            { text: 'Text below the table.', y: 590 },
          ],
          ops: rules,
        },
      ]),
    );
    expect(out).toContain('Text above the table.\n\n| Name | Kind | Notes |\n| --- | --- | --- |\n| Alpha | First | wraps onto two lines |\n| Beta | Second | short |\n\nText below the table.');
    // The same rules drawn in a form XObject whose matrix moves them down into place: read where they stand.
    const lifted = ruledGrid([70, 200, 330, 460], [1000, 980, 940, 920]);
    const formed = await md(pdf([{ lines: [cell('Name', 75, 686), cell('Kind', 205, 686), cell('Notes', 335, 686), cell('Alpha', 75, 660), cell('First', 205, 660), cell('wraps onto', 335, 666), cell('two lines', 335, 652), cell('Beta', 75, 626), cell('Second', 205, 626), cell('short', 335, 626)], form: { ops: lifted, matrix: [1, 0, 0, 1, 0, -300] } }]));
    expect(formed).toContain('| Alpha | First | wraps onto two lines |\n| Beta | Second | short |');
  });

  it('ruled tables: a title row inside the rules (one cell across the width) is a caption above the table, and the row under it heads it', async () => {
    const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 10 });
    // Rules at 720/700/680/640/620; the inner column rules stop under the title row.
    const h = (y: number) => `70 ${y} m 460 ${y} l S`;
    const v = (x: number, top: number) => `${x} 620 m ${x} ${top} l S`;
    const ops = [h(720), h(700), h(680), h(640), h(620), v(70, 720), v(460, 720), v(200, 700), v(330, 700)].join('\n');
    const lines = [cell('Table 3: Fleet by kind', 75, 706), cell('Name', 75, 686), cell('Kind', 205, 686), cell('Notes', 335, 686), cell('Alpha', 75, 660), cell('First', 205, 660), cell('one', 335, 660), cell('Beta', 75, 626), cell('Second', 205, 626), cell('short', 335, 626)];
    expect(await md(pdf([{ lines, ops }]))).toBe('<!-- page 1 -->\n\nTable 3: Fleet by kind\n\n| Name | Kind | Notes |\n| --- | --- | --- |\n| Alpha | First | one |\n| Beta | Second | short |\n');
  });

  it('ruled tables: a word too wide for its cell, cut where the line reaches the cell\'s edge, is one word again where the document writes it whole; words that fit wrap with a space', async () => {
    // Courier 10 pt: 6 pt a character. The middle column (200-276) holds 66 pt of text between 5 pt margins:
    // "libphonenum" fills it to the edge, "libphonenumber-js" (102 pt) could not fit it, and the text above writes
    // the word whole. "cheerio 1.2.0," wraps at its space; so do "and" before "each", whose line reaches the edge
    // too (the two would fit together, so the writer moved the word whole), and "lock" before "springs"; and two
    // words stacked in the cell, the first filling it, stay two ("Transformer" "baseline": the document never
    // writes them as one).
    const code = (text: string, x: number, y: number) => ({ text, x, y, size: 10, mono: true });
    const head = [{ text: 'Phone numbers are found with libphonenumber-js and the Transformer model is the baseline.', y: 730, size: 10 }];
    const rows = [code('Source', 75, 686), code('Packages', 205, 686), code('Notes', 281, 686)];
    const cells = [
      ...[code('Web', 75, 666), code('cheerio', 205, 666), code('1.2.0,', 205, 652), code('html', 281, 666)],
      ...[code('Phone', 75, 632), code('libphonenum', 205, 632), code('ber-js 1.13', 205, 618), code('numbers', 281, 632)],
      ...[code('Nuts', 75, 598), code('the nut and', 205, 598), code('each lock', 205, 587), code('springs', 205, 576), code('parts', 281, 598)],
      ...[code('Model', 75, 564), code('Transformer', 205, 564), code('baseline', 205, 550), code('ours', 281, 564)],
    ];
    const out = await md(pdf([{ lines: [...head, ...rows, ...cells], ops: ruledGrid([70, 200, 276, 400], [700, 680, 640, 606, 572, 538]) }]));
    expect(out).toContain('| Web | cheerio 1.2.0, | html |');
    expect(out).toContain('| Phone | libphonenumber-js 1.13 | numbers |');
    expect(out).toContain('| Nuts | the nut and each lock springs | parts |');
    expect(out).toContain('| Model | Transformer baseline | ours |');
  });

  it('ruled tables: a cell merged over two rows (no rule under it, column rules on both sides) holds its text once, in its top row', async () => {
    // Rows at y 700/680/640/620/600, columns at x 70/200/330/460; the line at 640 is drawn over the outer columns only.
    const rules = [
      ...[700, 680, 620, 600].map((y) => `70 ${y} m 460 ${y} l S`),
      '70 640 m 200 640 l S',
      '330 640 m 460 640 l S',
      ...[70, 200, 330, 460].map((x) => `${x} 600 m ${x} 700 l S`),
    ].join('\n');
    const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 10 });
    const out = await md(
      pdf([
        {
          lines: [
            cell('Name', 75, 686),
            cell('Kind', 205, 686),
            cell('Notes', 335, 686),
            cell('Alpha', 75, 660),
            cell('Merged cell', 205, 644),
            cell('first', 335, 660),
            // The merged cell's text wraps below the row line it has no rule on.
            cell('over rows', 205, 632),
            cell('Beta', 75, 626),
            cell('second', 335, 626),
            cell('Gamma', 75, 606),
            cell('Third', 205, 606),
            cell('third', 335, 606),
          ],
          ops: rules,
        },
      ]),
    );
    expect(out).toContain('| Name | Kind | Notes |\n| --- | --- | --- |\n| Alpha | Merged cell over rows | first |\n| Beta | | second |\n| Gamma | Third | third |');
  });

  it('a form in a page frame: label boxes on the frame edge join the grid, letterhead and disclaimer bands stay text, unruled text across a column line is one merged cell', async () => {
    // Frame 60..500 x 100..760 (left edge drawn at 60.4, the label boxes' edges at 60.2: one line within 1 pt).
    // Inside: a letterhead band (no inner rules), a header band ruled at x 280, three form rows whose labels sit in
    // boxes 60..150, a centred "Totals" band with no inner rule, a row ruled at 280 again, and a disclaimer band.
    const box = (x0: number, y0: number, x1: number, y1: number) => `${x0} ${y0} m ${x1} ${y0} l S ${x0} ${y1} m ${x1} ${y1} l S ${x0} ${y0} m ${x0} ${y1} l S ${x1} ${y0} m ${x1} ${y1} l S`;
    const ops = [
      '60.4 100 m 60.4 760 l S 500 100 m 500 760 l S 60.4 760 m 500 760 l S 60.4 100 m 500 100 l S',
      '60.4 700 m 500 700 l S 60.4 680 m 500 680 l S 60.4 580 m 500 580 l S 60.4 560 m 500 560 l S 60.4 540 m 500 540 l S 60.4 520 m 500 520 l S',
      '280 680 m 280 700 l S 280 520 m 280 540 l S',
      box(60.2, 650, 150, 664),
      box(60.2, 620, 150, 634),
      box(60.2, 590, 150, 604),
    ].join('\n');
    const at = (text: string, x: number, y: number, size = 10) => ({ text, x, y, size });
    const out = await md(
      pdf([
        {
          lines: [
            at('ACME REPAIR SHOP, 1 Main Street, Springfield', 150, 730),
            at('Customer', 70, 686),
            at('Vehicle', 290, 686),
            at('Name', 70, 654),
            at('Ann Lee', 160, 654),
            at('Year 2022', 290, 654),
            at('Phone', 70, 624),
            at('555-0100', 160, 624),
            at('Make Jeep', 290, 624),
            at('Email', 70, 594),
            at('ann@example.com', 160, 594),
            at('Model Cherokee', 290, 594),
            at('Estimate Totals', 250, 566),
            at('GRAND TOTAL', 70, 526),
            at('5,738', 290, 526),
            at('This estimate covers visible damage only; more may be found once the vehicle is taken apart.', 70, 300),
          ],
          ops,
        },
      ]),
    );
    expect(out).toContain('ACME REPAIR SHOP, 1 Main Street, Springfield\n\n| Customer | | Vehicle |');
    expect(out).toContain('| Name | Ann Lee | Year 2022 |\n| Phone | 555-0100 | Make Jeep |\n| Email | ann@example.com | Model Cherokee |');
    // "Estimate Totals" starts in the middle column and runs across the unruled line at 280: one cell, written once
    // in its leftmost slot (by its centre alone it would sit in the last column).
    expect(out).toContain('| | Estimate Totals | |\n| GRAND TOTAL | | 5,738 |\n\nThis estimate covers visible damage only');
  });

  it('ruled tables: column headers set a quarter turn (reading upwards) sit in their own columns', async () => {
    // Columns at x 70/250/290/330; the header band 600..700 holds turned headers whose baselines run up x 282 and 322.
    const rules = ['70 700 m 330 700 l S', ...[600, 580, 560, 540].map((y) => `70 ${y} m 330 ${y} l S`), ...[70, 250, 290, 330].map((x) => `${x} 540 m ${x} 700 l S`)].join('\n');
    const cell = (text: string, x: number, y: number) => ({ text, x, y, size: 9 });
    const out = await md(
      pdf([
        {
          lines: [
            cell('User action', 75, 606),
            { ...cell('*JOBCTL', 282, 606), turned: true },
            { ...cell('No Authority', 322, 606), turned: true },
            ...[['SET CURRENT DEGREE', 586], ['CHGQRYA command', 566]].flatMap(([t, y]) => [cell(t as string, 75, y as number), cell('X', 255, y as number), cell('X', 295, y as number)]),
            cell('Dump cache', 75, 546),
            cell('X', 295, 546),
          ],
          ops: rules,
        },
      ]),
    );
    expect(out).toContain('| User action | \\*JOBCTL | No Authority |\n| --- | --- | --- |\n| SET CURRENT DEGREE | X | X |\n| CHGQRYA command | X | X |\n| Dump cache | | X |');
  });

  it('a column header centred above an aligned table on two lines becomes its header row; a lead-in line stays text', async () => {
    const row = (y: number, a: string, b: string) => [
      { text: a, x: 72, y },
      { text: b, x: 300, y },
      { text: '*', x: 420, y },
    ];
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'Which services are offered, and by whom? (Please select all that apply)', x: 72, y: 700 },
            { text: 'State funded', x: 285, y: 676 },
            { text: 'CSOs', x: 412, y: 676 },
            { text: 'legal aid', x: 292, y: 664 },
            ...row(646, 'Children', 'yes'),
            ...row(628, 'Women', 'no'),
            ...row(610, 'Migrants', 'yes'),
          ],
        },
      ]),
    );
    expect(out).toContain('Which services are offered, and by whom? (Please select all that apply)\n\n| | State funded legal aid | CSOs |\n| --- | --- | --- |\n| Children | yes | \\* |');
  });

  it('a spreadsheet printed without gridlines: left-aligned headers over right-aligned figures head their columns', async () => {
    // Cells 64 pt wide from x 56; text starts 4 pt into its cell, figures end 4 pt before its right edge (Helvetica
    // 10 pt: a digit is 5.56 pt wide, a minus 3.33 pt).
    const width = (t: string) => [...t].reduce((w, ch) => w + (ch === '-' ? 3.33 : 5.56), 0);
    const figure = (t: string, k: number, y: number) => ({ text: t, x: 56 + 64 * (k + 1) - 4 - width(t), y, size: 10 });
    const data = [['1', '5', '9'], ['2', '4', '6'], ['3', '3', '3'], ['4', '2', '0'], ['5', '1', '-3'], ['6', '0', '-6']];
    const out = await md(
      pdf([
        {
          lines: [
            ...['first', 'second', 'third'].map((t, k) => ({ text: t, x: 60 + 64 * k, y: 700, size: 10 })),
            ...data.flatMap((r, n) => r.map((t, k) => figure(t, k, 686 - n * 14))),
          ],
        },
      ]),
    );
    expect(out).toContain('| first | second | third |\n| --- | --- | --- |\n| 1 | 5 | 9 |\n| 2 | 4 | 6 |');
  });

  it('a table set with little space between its columns (a browser printing it without a stylesheet) is still a table', async () => {
    // Columns at x 72, 114 and 153: "Item 44" (10 pt Helvetica, 33.4 pt wide) ends 8.6 pt (0.86 em) before the next
    // column and "132 kg" 9 pt, less than the em that usually separates cells, but the columns start at the same
    // places on every line.
    const rows = Array.from({ length: 5 }, (_, i) => [
      { text: `Item ${44 + i}`, x: 72, y: 700 - i * 14, size: 10 },
      { text: `${(44 + i) * 3} kg`, x: 114, y: 700 - i * 14, size: 10 },
      { text: `Store ${i}`, x: 153, y: 700 - i * 14, size: 10 },
    ]).flat();
    const out = await md(pdf([{ lines: [{ text: 'Inventory on hand:', x: 72, y: 730, size: 10 }, ...rows] }]));
    expect(out).toContain('| Item 44 | 132 kg | Store 0 |\n| --- | --- | --- |\n| Item 45 | 135 kg | Store 1 |');
  });

  it('an aligned table\'s header cell wrapped onto a second line stays in the header row', async () => {
    const row = (y: number, a: string, b: string, c: string) => [{ text: a, x: 72, y }, { text: b, x: 160, y }, { text: c, x: 380, y }];
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'Here are some things a respectful duck could eat:', x: 72, y: 700 },
            { text: 'Food', x: 160, y: 676 },
            { text: 'Calories per', x: 380, y: 676 },
            { text: 'portion', x: 380, y: 662 },
            ...row(644, 'Leaves', 'Ash, Elm, Maple', '50'),
            ...row(626, 'Berries', 'Blueberry, Strawberry', '150'),
            ...row(608, 'Grain', 'Corn, Buckwheat, Barley', '200'),
          ],
        },
      ]),
    );
    expect(out).toContain('| | Food | Calories per portion |\n| --- | --- | --- |\n| Leaves | Ash, Elm, Maple | 50 |');
  });

  it('an aligned table whose rows are padded apart: lines at the line spacing are the same row\'s wrapped cells, an identifier cut at its column\'s edge joins without a space', async () => {
    // As LibreOffice sets a Word or pandoc table without borders: 12 pt text, a cell's lines 14 pt apart, rows 17.6 pt
    // apart. Columns at 72, 228 and 384; "QUARRY_BILLING_UR" reaches the first column's edge and goes on with "L".
    const at = (y: number, cells: [number, string][]) => cells.map(([x, text]) => ({ text, x, y, size: 12 }));
    // The header's third cell wraps and stands at the cell's foot, its first line above the others; the first row's
    // name wraps twice, its last lines alone in their column (before any row gap has shown the table's pitches).
    const lines = [
      ...at(714, [[384, 'what the']]),
      ...at(700, [[72, 'variable'], [228, 'default'], [384, 'setting means']]),
      ...at(682.4, [[72, 'QUARRY_WEB_CONTA'], [228, '12582912'], [384, 'bytes read per crawl']]),
      ...at(668.4, [[72, 'CTS_TOTAL_MAX_BYT']]),
      ...at(654.4, [[72, 'ES']]),
      ...at(636.8, [[72, 'PORT'], [228, '8080'], [384, 'listening port']]),
      ...at(618.8, [[72, 'QUARRY_DATA_DIR'], [228, './data'], [384, 'embedded SQLite']]),
      ...at(604.8, [[384, 'database and the']]),
      ...at(590.8, [[384, 'server secret']]),
      ...at(573.2, [[72, 'QUARRY_BILLING_UR'], [228, '$BASE_URL/'], [384, 'the fixed billing']]),
      ...at(559.2, [[72, 'L'], [228, 'billing'], [384, 'address in errors']]),
      ...at(541.6, [[72, 'QUARRY_RATE_LIMIT_'], [228, '600'], [384, 'requests per key']]),
      ...at(527.6, [[72, 'PER_MINUTE'], [384, 'per minute']]),
      ...at(510.0, [[72, 'HOST'], [228, '0.0.0.0'], [384, 'listening address']]),
    ];
    const out = await md(pdf([{ lines }]));
    expect(out).toContain(
      [
        '| variable | default | what the setting means |',
        '| --- | --- | --- |',
        '| QUARRY\\_WEB\\_CONTACTS\\_TOTAL\\_MAX\\_BYTES | 12582912 | bytes read per crawl |',
        '| PORT | 8080 | listening port |',
        '| QUARRY\\_DATA\\_DIR | ./data | embedded SQLite database and the server secret |',
        '| QUARRY\\_BILLING\\_URL | $BASE\\_URL/billing | the fixed billing address in errors |',
        '| QUARRY\\_RATE\\_LIMIT\\_PER\\_MINUTE | 600 | requests per key per minute |',
        '| HOST | 0.0.0.0 | listening address |',
      ].join('\n'),
    );
    // A dotted field name, the column's widest, cut for want of room; a list item ending in a comma goes on spaced.
    const fields = [
      ...at(700, [[72, 'Field'], [228, 'Type'], [384, 'Notes']]),
      ...at(682.4, [[72, 'error.code'], [228, 'string'], [384, 'items[],']]),
      ...at(668.4, [[384, 'hasMore']]),
      ...at(650.8, [[72, 'error.retryAfterSecond'], [228, 'integer'], [384, 'optional']]),
      ...at(636.8, [[72, 's']]),
      ...at(619.2, [[72, 'error.requiredCredits'], [228, 'number'], [384, 'optional']]),
    ];
    expect(await md(pdf([{ lines: fields }]))).toContain('| error.code | string | items\\[\\], hasMore |\n| error.retryAfterSeconds | integer | optional |');
    // A plain word cut at the column's edge joins where the document writes it whole ("libphonenumber" above);
    // a word that reaches the edge over another word the document never joins to it stays apart.
    const packages = [
      { text: 'Phone numbers are parsed with libphonenumber, and the Transformer model is our baseline.', x: 72, y: 740, size: 12 },
      ...at(700, [[72, 'Source'], [228, 'Package'], [384, 'Notes']]),
      ...at(682.4, [[72, 'Phone'], [228, 'libphonenum'], [384, 'numbers']]),
      ...at(668.4, [[228, 'ber 1.13']]),
      ...at(650.8, [[72, 'Model'], [228, 'Transformer'], [384, 'ours']]),
      ...at(636.8, [[228, 'baseline']]),
      ...at(619.2, [[72, 'Web'], [228, 'cheerio'], [384, 'html']]),
    ];
    expect(await md(pdf([{ lines: packages }]))).toContain('| Phone | libphonenumber 1.13 | numbers |\n| Model | Transformer baseline | ours |');
    // A figure ending in a separator goes on under it ("2026-04 /" "2024-04"); a token closing its quote at the
    // column's edge ends there before a word.
    const dates = [
      ...at(700, [[72, 'Package'], [228, 'Published'], [384, 'Note']]),
      ...at(682.4, [[72, 'ajv / ajv-'], [228, '2026-04 /'], [384, 'format:"date"']]),
      ...at(668.4, [[72, 'formats'], [228, '2024-04'], [384, 'rejects']]),
      ...at(650.8, [[72, 'zod'], [228, '2026-10-12'], [384, 'fine']]),
      ...at(633.2, [[72, 'pg'], [228, '2026-09-30'], [384, 'fine']]),
    ];
    expect(await md(pdf([{ lines: dates }]))).toContain('| ajv / ajv-formats | 2026-04 / 2024-04 | format:"date" rejects |\n| zod | 2026-10-12 | fine |');
  });

  it('a padded table whose rows are taller than the page shows (one row gap, or only the header\'s): lines with an empty first column are wrapped cells', async () => {
    const at = (y: number, cells: [number, string][]) => cells.map(([x, text]) => ({ text, x, y, size: 12 }));
    // The header 18.3 pt above the first row, the row's lines 14 pt apart, one more row 17.6 pt below.
    const lines = [
      ...at(700, [[72, 'platform'], [228, 'peers'], [384, 'operations']]),
      ...at(681.7, [[72, 'Instagram'], [228, 'SC 19, ED 11, BD'], [384, 'profile(handle),']]),
      ...at(667.7, [[228, '4, AP default'], [384, 'user/posts(handle),']]),
      ...at(653.7, [[384, 'post(url)']]),
      ...at(636.1, [[72, 'TikTok'], [228, 'SC 22, ED 19'], [384, 'profile,']]),
      ...at(622.1, [[384, 'video(url)']]),
    ];
    expect(await md(pdf([{ lines }]))).toContain(
      '| platform | peers | operations |\n| --- | --- | --- |\n| Instagram | SC 19, ED 11, BD 4, AP default | profile(handle), user/posts(handle), post(url) |\n| TikTok | SC 22, ED 19 | profile, video(url) |',
    );
    // The same lines under a header set apart, in a table set at one pitch: a line with a first cell is a row.
    const plain = [
      ...at(700, [[72, 'name'], [228, 'kind'], [384, 'notes']]),
      ...at(681.7, [[72, 'Alpha'], [228, 'first'], [384, 'one']]),
      ...at(667.7, [[72, 'Bravo'], [228, 'second'], [384, 'two']]),
      ...at(653.7, [[72, 'Charlie'], [228, 'third'], [384, 'three']]),
    ];
    expect(await md(pdf([{ lines: plain }]))).toContain('| Alpha | first | one |\n| Bravo | second | two |\n| Charlie | third | three |');
  });

  it('an aligned table set at one pitch, or whose groups are a blank line apart, or with figures under figures, keeps each line a row', async () => {
    const at = (y: number, cells: [number, string][]) => cells.map(([x, text]) => ({ text, x, y, size: 11 }));
    // One pitch (13 pt) with a blank line (26 pt) between two groups: no row is padded apart, so no line is a wrap.
    const grouped = [
      ...at(700, [[72, 'Item'], [300, 'Owner']]),
      ...at(687, [[72, 'Lamp'], [300, 'Ada']]),
      ...at(674, [[72, 'Desk'], [300, 'Grace']]),
      ...at(648, [[72, 'Chair'], [300, 'Edsger']]),
      ...at(635, [[72, 'Shelf'], [300, 'Barbara']]),
    ];
    // Rows 15.5 pt apart with a subtotal 12.5 pt under the row before it: a figure under a figure is its own row.
    const figures = [
      ...at(560, [[72, 'Line'], [300, 'Amount']]),
      ...at(544.5, [[72, 'Revenue'], [300, '1,200']]),
      ...at(529, [[72, 'Costs'], [300, '800']]),
      ...at(516.5, [[300, '400']]),
      ...at(501, [[72, 'Tax'], [300, '100']]),
    ];
    const out = await md(pdf([{ lines: [...grouped, { text: 'Figures for the year:', x: 72, y: 590, size: 11 }, ...figures] }]));
    expect(out).toContain('| Item | Owner |\n| --- | --- |\n| Lamp | Ada |\n| Desk | Grace |\n| Chair | Edsger |\n| Shelf | Barbara |');
    expect(out).toMatch(/\| Costs \| 800 \|\n\| +\| 400 \|\n\| Tax \| 100 \|/);
  });

  it('a table continued on the next page in the same columns repeats its header row there; one with a header of its own, in other columns or after text does not', async () => {
    // Rows of an aligned table from `y` down, 18 pt apart: a name at x 72 and a share at x 300.
    const rows = (y: number, names: string[], x = 300) => names.flatMap((n, k) => [{ text: n, x: 72, y: y - k * 18 }, { text: `${k + 1}.5%`, x, y: y - k * 18 }]);
    const header = (y: number) => [{ text: 'Shareholder name', x: 72, y, bold: true }, { text: 'Percentage', x: 300, y, bold: true }];
    const first = { lines: [{ text: 'The largest shareholders were:', x: 72, y: 700 }, ...header(120), ...rows(102, ['Vanguard', 'BlackRock', 'State Street', 'Fidelity'])] };
    const table = (out: string, n: number) => out.split(`<!-- page ${n} -->`)[1];
    const carried = await md(pdf([first, { lines: [...rows(740, ['Geode', 'T. Rowe Price', 'Eaton Vance']), { text: 'Text after the table.', x: 72, y: 600 }] }]));
    expect(table(carried, 2)).toMatch(/^\s*\| Shareholder name \| Percentage \|\n\| --- \| --- \|\n\| Geode \| 1\.5% \|\n\| T\. Rowe Price \| 2\.5% \|/);
    // And on to a third page, under the first page's header.
    const third = await md(pdf([first, { lines: rows(740, ['Geode', 'T. Rowe Price', 'Eaton Vance', 'JP Morgan']) }, { lines: rows(740, ['Bill Gates', 'Others', 'Nobody']) }]));
    expect(table(third, 3)).toMatch(/^\s*\| Shareholder name \| Percentage \|\n\| --- \| --- \|\n\| Bill Gates \| 1\.5% \|/);
    // The header repeated by the source is not doubled.
    const repeated = await md(pdf([first, { lines: [...header(758), ...rows(740, ['Geode', 'T. Rowe Price', 'Eaton Vance'])] }]));
    expect(table(repeated, 2).match(/Shareholder name/g)).toHaveLength(1);
    // A table with a header of its own (set apart in another face), one in other columns, or one after text on the
    // next page keeps its own first row.
    const own = await md(pdf([first, { lines: [{ text: 'Region', x: 72, y: 758, bold: true }, { text: 'Sales', x: 300, y: 758, bold: true }, ...rows(740, ['North', 'South', 'West'])] }]));
    expect(table(own, 2)).toMatch(/^\s*\| Region \| Sales \|\n\| --- \| --- \|\n\| North \| 1\.5% \|/);
    const moved = await md(pdf([first, { lines: rows(740, ['Geode', 'T. Rowe Price', 'Eaton Vance'], 400) }]));
    expect(table(moved, 2)).not.toContain('Shareholder name');
    const after = await md(pdf([first, { lines: [{ text: 'A paragraph opens this page.', x: 72, y: 770 }, ...rows(740, ['Geode', 'T. Rowe Price', 'Eaton Vance'])] }]));
    expect(table(after, 2)).not.toContain('Shareholder name');
  });

  it('a row a page break split (its cells going on atop the next page, the first one empty) joins its row before the page marker; a group\'s next row under a label written once stays a row', async () => {
    const row = (y: number, cells: [string, string, string]) => cells.map((text, k) => ({ text, x: [72, 200, 400][k], y })).filter((c) => c.text);
    const header = (y: number) => row(y, ['Option', 'Meaning', 'Default']);
    const first = {
      lines: [
        { text: 'The options are:', x: 72, y: 700 },
        ...header(160),
        ...row(142, ['maxPages', 'Pages read at most', '100']),
        ...row(124, ['maxTextLength', 'Characters kept, the rest cut', 'none']),
        ...row(106, ['filename', 'A hint only: the type is', 'none']),
      ],
    };
    const table = (out: string, n: number) => out.split(`<!-- page ${n} -->`)[1];
    // The cell goes on mid-sentence atop the next page, under the header the page repeats.
    const more = [...row(722, ['tags', 'Labels', 'empty']), ...row(704, ['format', 'Answer format', 'json']), ...row(686, ['maxAge', 'Oldest cached answer', '3600'])];
    const split = await md(pdf([first, { lines: [...header(758), ...row(740, ['', 'sniffed from the bytes', '']), ...more] }]));
    expect(table(split, 1)).toContain('| filename | A hint only: the type is sniffed from the bytes | none |');
    expect(table(split, 2)).toMatch(/^\s*\| Option \| Meaning \| Default \|\n\| --- \| --- \| --- \|\n\| tags \| Labels \| empty \|\n/);
    // A capitalised value under an empty first cell is a group's next row (its label written once), not the rest.
    const group = await md(pdf([first, { lines: [...row(740, ['', 'Read from the bytes', 'yes']), ...more] }]));
    expect(table(group, 1)).toContain('| filename | A hint only: the type is | none |');
    expect(table(group, 2)).toContain('| | Read from the bytes | yes |');
    // So is a lower-case value under a cell of one word: only a cell that wrapped runs on.
    const value = await md(pdf([first, { lines: [...row(740, ['', '', 'yes']), ...more] }]));
    expect(table(value, 1)).toContain('| filename | A hint only: the type is | none |');
    expect(table(value, 2)).toContain('| | | yes |');
  });

  it('a table header repeated at the top of every page (a browser repeating <thead>) is the table\'s header, not a running head', async () => {
    const page = (first: number) => ({
      lines: [
        { text: 'Name', x: 72, y: 770, size: 10 },
        { text: 'Weight', x: 200, y: 770, size: 10 },
        { text: 'Store', x: 300, y: 770, size: 10 },
        ...Array.from({ length: 4 }, (_, i) => [
          { text: `Item ${first + i}`, x: 72, y: 755 - i * 14, size: 10 },
          { text: `${(first + i) * 3} kg`, x: 200, y: 755 - i * 14, size: 10 },
          { text: `Store ${i}`, x: 300, y: 755 - i * 14, size: 10 },
        ]).flat(),
        { text: `Body text under the table on page ${first} runs on like ordinary prose.`, x: 72, y: 600, size: 10 },
      ],
    });
    const out = await md(pdf([page(1), page(5), page(9), page(13)]));
    for (const n of [1, 2, 3, 4]) expect(out.split(`<!-- page ${n} -->`)[1]).toMatch(/^\s*\| Name \| Weight \| Store \|\n\| --- \| --- \| --- \|\n\| Item \d+ \|/);
  });

  it('a ruled table continued on the next page in the same grid repeats its header row there', async () => {
    // A two-column grid from y `top` down, rows 20 pt high, columns at x 70/250/430.
    const grid = (top: number, n: number) => ruledGrid([70, 250, 430], Array.from({ length: n + 1 }, (_, k) => top - k * 20));
    const cells = (top: number, texts: [string, string][]) => texts.flatMap(([a, b], k) => [{ text: a, x: 75, y: top - k * 20 - 14, size: 10 }, { text: b, x: 255, y: top - k * 20 - 14, size: 10 }]);
    const out = await md(
      pdf([
        { lines: [{ text: 'Parts on order:', y: 700 }, ...cells(200, [['Part', 'Quantity'], ['Bolt', '40'], ['Nut', '40']])], ops: grid(200, 3) },
        { lines: cells(760, [['Washer', '80'], ['Spring', '12'], ['Pin', '6']]), ops: grid(760, 3) },
      ]),
    );
    expect(out.split('<!-- page 2 -->')[1]).toMatch(/^\s*\| Part \| Quantity \|\n\| --- \| --- \|\n\| Washer \| 80 \|\n\| Spring \| 12 \|/);
  });

  it('a sentence starting at the table\'s left edge, or a caption, right above a two-column table is not its header', async () => {
    const code = (a: string, b: string, y: number) => [{ text: a, x: 136, y, size: 10 }, { text: b, x: 210, y, size: 10 }];
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'shown in Example 2-1.', x: 136, y: 700, size: 10 },
            { text: 'Example 2-1', x: 136, y: 682, size: 10 },
            { text: 'Query to determine who has authority', x: 210, y: 682, size: 10 },
            ...code('SELECT', 'function_id, user_name', 664),
            ...code('FROM', 'function_usage', 652),
            ...code('WHERE', 'function_id = 1', 640),
          ],
        },
      ]),
    );
    expect(out).toContain('shown in Example 2-1.');
    expect(out).toMatch(/^Example 2-1 Query to determine who has authority\n\n\| SELECT \| function\\_id, user\\_name \|/m);
  });

  it('a line at the first column after a table whose header starts in its second column (an empty corner) is no row of it', async () => {
    const row = (y: number, cells: [number, string][]) => cells.map(([x, text]) => ({ text, x, y, size: 11 }));
    const out = await md(
      pdf([
        {
          lines: [
            ...row(700, [[190, 'key storage'], [330, 'debit']]),
            ...row(682, [[72, 'Unkey'], [190, 'SHA-256'], [330, 'Redis Lua']]),
            ...row(664, [[72, 'Stripe'], [190, 'secret keys'], [330, 'n/a']]),
            ...row(646, [[72, 'Quarry'], [190, 'SHA-256 index'], [330, 'conditional UPDATE']]),
            { text: 'What users complain about', x: 72, y: 622, size: 11 },
            { text: 'Billed for failures: login-walled pages were billed, and so were error pages served as a success.', x: 72, y: 604, size: 11 },
          ],
        },
      ]),
    );
    expect(out).toContain('| Quarry | SHA-256 index | conditional UPDATE |\n\nWhat users complain about');
  });

  it('the last, short line of a paragraph, or a numbered section title, set right above a table is not the table\'s header', async () => {
    const row = (y: number, cells: string[]) => cells.map((text, k) => ({ text, x: 72 + k * 140, y, size: 11 }));
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'The parse endpoint takes a file and is callable without a key, subject to limits per', x: 72, y: 700, size: 11 },
            { text: 'client address.', x: 72, y: 687, size: 11 },
            ...row(669, ['Field', 'Type', 'Rules']),
            ...row(651, ['file', 'string', 'required']),
            ...row(633, ['filename', 'string', 'optional']),
            ...row(615, ['maxPages', 'integer', 'optional']),
          ],
        },
      ]),
    );
    expect(out).toContain('subject to limits per client address.\n\n| Field | Type | Rules |\n| --- | --- | --- |\n| file | string | required |');
    // Nor is a numbered section title set in another face right above it (as LibreOffice sets a pandoc document).
    const two = (y: number, a: string, b: string) => [{ text: a, x: 72, y, size: 12 }, { text: b, x: 306, y, size: 12 }];
    const titled = await md(
      pdf([
        {
          lines: [
            { text: 'Own thin client for the storefront, reading the shop pages the platform serves to anyone.', x: 72, y: 441, size: 12 },
            { text: '9.1 Storefront record', x: 72, y: 417, size: 12, bold: true },
            ...two(401.2, 'spec field', 'upstream source'),
            ...two(382.9, 'url', 'the shop address'),
            ...two(365.3, 'name', 'meta.json name'),
            ...two(347.7, 'currency', 'meta.json currency'),
          ],
        },
      ]),
    );
    expect(titled).toMatch(/^#+ 9\.1 Storefront record\n\n\| spec field \| upstream source \|$/m);
  });

  it('a numbered item\'s wrapped lines stay in the item while they are indented past its number', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            { text: '24. If your country has an institutional legal aid provider, do the', x: 60, y: 700 },
            { text: 'staff lawyers coordinate to uniformly challenge common violations of', x: 78, y: 688 },
            { text: 'international due process rights and human rights?', x: 78, y: 676 },
            ...body(3),
          ],
        },
      ]),
    );
    expect(out).toContain('24. If your country has an institutional legal aid provider, do the staff lawyers coordinate to uniformly challenge common violations of international due process rights and human rights?\n');
  });

  it('a table of contents becomes a two-column table (title, page), leaders dropped; a wrapped title joins its entry; one entry alone stays text', async () => {
    const out = await md(
      pdf([
        {
          lines: [
            { text: 'Contents', size: 16 },
            { text: 'Notices . . . . . . . . . . . . . . . vii' },
            { text: '1.1 Security fundamentals. . . . . . . . . . . 2' },
            { text: '3.6.5 Defining and creating column' },
            { text: 'masks . . . . . . . . . . . . . . . . . 26' },
            { text: 'Chapter 4. Pipes | and bars . . . . . . . . 31' },
            // Chapter-page and appendix numbering, as manuals print them.
            { text: 'Installing the agent . . . . . . . . 2-14' },
            { text: 'Glossary . . . . . . . . . . . . . . . A-3' },
            ...body(2),
            { text: 'See the index . . . . . . . . . 40' },
          ],
        },
      ]),
    );
    expect(out).toContain(
      '| Notices | vii |\n| --- | --- |\n| 1.1 Security fundamentals | 2 |\n| 3.6.5 Defining and creating column masks | 26 |\n| Chapter 4. Pipes \\| and bars | 31 |\n| Installing the agent | 2-14 |\n| Glossary | A-3 |\n\nBody sentence number 1',
    );
    expect(out).toContain('See the index . . . . . . . . . 40');
  });

  it('gridsFrom/fillGrid: a lone box is not a table; form bands whose labels line up with values split into rows', () => {
    const H = (at: number, a: number, b: number) => ({ h: true, at, a, b });
    const V = (at: number, a: number, b: number) => ({ h: false, at, a, b });
    expect(gridsFrom([H(700, 0, 100), H(600, 0, 100), V(0, 600, 700), V(100, 600, 700)])).toEqual([]);
    const [g] = gridsFrom([H(700, 0, 200), H(600, 0, 200), H(500, 0, 200), V(0, 500, 700), V(100, 500, 700), V(200, 500, 700)]);
    expect(g).toMatchObject({ rows: [700, 600, 500], cols: [0, 100, 200] });
    // Booktabs-like: no outer verticals, inner column rules drawn one row at a time; the rules' ends bound the
    // outer columns.
    const [b] = gridsFrom([H(700, 0, 300), H(650, 0, 300), H(600, 0, 300), V(100, 650, 700), V(100, 600, 650), V(200, 650, 700), V(200, 600, 650)]);
    expect(b).toMatchObject({ rows: [700, 650, 600], cols: [0, 100, 200, 300] });
    const it = (str: string, x: number, y: number) => ({ str, x, y, w: 30, size: 10 });
    expect(fillGrid(g, [it('Head A', 5, 650), it('Head B', 105, 650), it('Name', 5, 580), it('Phone', 5, 560), it('Ann', 105, 580), it('555', 105, 560)])).toEqual([
      ['Head A', 'Head B'],
      ['Name', 'Ann'],
      ['Phone', '555'],
    ]);
    // A space run between two nearly touching runs inside a cell is a word break.
    const tight = (str: string, x: number, w: number) => ({ str, x, y: 580, w, size: 10 });
    expect(fillGrid(g, [it('Head A', 5, 650), it('Head B', 105, 650), tight('높거나', 5, 20), tight(' ', 25, 0.3), tight('집단', 25.3, 14), tight('발생', 39.3, 14), it('v', 105, 580)])[1]).toEqual(['높거나 집단발생', 'v']);
    // A band still splits when a few lines have no partner (a group label "Supplies" with no value of its own).
    expect(fillGrid(g, [it('Head A', 5, 650), it('Head B', 105, 650), it('Parts', 5, 590), it('2,100', 105, 590), it('Supplies', 5, 575), it('Paint', 5, 560), it('60', 105, 560), it('Tax', 5, 545), it('278', 105, 545)])).toEqual([
      ['Head A', 'Head B'],
      ['Parts', '2,100'],
      ['Supplies', ''],
      ['Paint', '60'],
      ['Tax', '278'],
    ]);
    // A label centred beside two staggered lines stays one row.
    expect(fillGrid(g, [it('Head A', 5, 650), it('Head B', 105, 650), it('Label', 5, 550), it('one', 105, 570), it('two', 105, 530)])).toEqual([
      ['Head A', 'Head B'],
      ['Label', 'one two'],
    ]);
  });
});
