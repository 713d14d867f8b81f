/**
 * SmartArt (README convention 5 and 6): a diagram's data part becomes a nested `-` list in decks and Word documents,
 * following its parent-of connections; connector and layout points carry no text; hostile hierarchies (cycles,
 * depth) end. A Word document's chart gives its data as a deck's does.
 */
import { describe, expect, it } from 'vitest';
import { docx, p, pptx, shape } from './files.js';
import { parseEndpoint } from './endpoint.js';

const md = parseEndpoint();

const DGM = 'xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const pt = (id: string, paras: string[], type?: string) =>
  `<dgm:pt modelId="${id}"${type ? ` type="${type}"` : ''}><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/>${paras.map((t) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${t}</a:t></a:r></a:p>`).join('') || '<a:p><a:endParaRPr/></a:p>'}</dgm:t></dgm:pt>`;
const cxn = (src: string, dest: string, ord: number, type?: string) => `<dgm:cxn modelId="c-${src}-${dest}"${type ? ` type="${type}"` : ''} srcId="${src}" destId="${dest}" srcOrd="${ord}" destOrd="0"/>`;
const model = (points: string[], cxns: string[]) => `<?xml version="1.0"?><dgm:dataModel ${DGM}><dgm:ptLst>${points.join('')}</dgm:ptLst><dgm:cxnLst>${cxns.join('')}</dgm:cxnLst><dgm:bg/><dgm:whole/></dgm:dataModel>`;

/** A process diagram as PowerPoint saves one: steps under the document point, sub-steps, connector and layout points. */
const PROCESS = model(
  [
    pt('doc', [], 'doc'),
    pt('plan', ['Plan']),
    pt('build', ['Build', 'in weekly steps']),
    pt('ship', ['Ship']),
    pt('review', ['Review'], 'node'),
    pt('helper', ['Assistant'], 'asst'),
    pt('t1', [], 'parTrans'),
    pt('t2', [], 'sibTrans'),
    pt('pres1', ['Layout text that is not content'], 'pres'),
  ],
  [cxn('doc', 'ship', 2), cxn('doc', 'plan', 0), cxn('doc', 'build', 1, 'parOf'), cxn('build', 'review', 0), cxn('plan', 'helper', 0), cxn('plan', 'pres1', 0, 'presOf'), cxn('plan', 'pres1', 0, 'presParOf')],
);
const EXPECTED = '- Plan\n  - Assistant\n- Build in weekly steps\n  - Review\n- Ship';

const frame = (relId: string, y: number) =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Diagram"/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="${y}"/><a:ext cx="100" cy="100"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="dgm" xmlns:r="r" r:dm="${relId}" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic></p:graphicFrame>`;

const wordDrawing = (relId: string) =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="wp"><wp:docPr id="1" name="Diagram 1"/><a:graphic xmlns:a="a"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds xmlns:dgm="dgm" xmlns:r="r" r:dm="${relId}" r:lo="rId6" r:qs="rId7" r:cs="rId8"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

describe('SmartArt and charts in Word', () => {
  it('a slide\'s diagram is a nested list in its visual place, connector and layout points left out', async () => {
    const deck = pptx([{ shapes: shape('Title', 0, 0, 'title') + shape('Before the diagram', 100) + frame('rId3', 200) + shape('After the diagram', 900), parts: { rId3: { path: 'diagrams/data1.xml', xml: PROCESS } } }]);
    const out = await md(deck);
    expect(out).toContain(`Before the diagram\n\n${EXPECTED}\n\nAfter the diagram`);
    expect(out).not.toContain('Layout text');
  });

  it('a Word document\'s diagram follows the paragraph that holds it', async () => {
    const rels = '<Relationships><Relationship Id="rId5" Type="x/diagramData" Target="diagrams/data1.xml"/></Relationships>';
    const doc = docx(p('Before the diagram') + wordDrawing('rId5') + p('After the diagram'), { 'word/_rels/document.xml.rels': rels, 'word/diagrams/data1.xml': PROCESS });
    expect(await md(doc)).toContain(`Before the diagram\n\n${EXPECTED}\n\nAfter the diagram`);
  });

  it('a Word document\'s chart gives its data as decks do: a Chart line and a table of categories by series', async () => {
    const chart = `<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart><c:title><c:tx><c:rich><a:p><a:r><a:t>Calls per day</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>${['Paid', 'Free']
      .map((name, k) => `<c:ser><c:tx><c:strRef><c:strCache><c:pt idx="0"><c:v>${name}</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:strCache><c:pt idx="0"><c:v>Mon</c:v></c:pt><c:pt idx="1"><c:v>Tue</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>${10 + k}</c:v></c:pt><c:pt idx="1"><c:v>${20 + k}</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>`)
      .join('')}</c:barChart></c:plotArea></c:chart></c:chartSpace>`;
    const drawing = `<w:p><w:r><w:drawing><wp:inline xmlns:wp="wp"><wp:docPr id="2" name="Chart 1"/><a:graphic xmlns:a="a"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="c" xmlns:r="r" r:id="rId9"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
    const rels = '<Relationships><Relationship Id="rId9" Type="x/chart" Target="charts/chart1.xml"/></Relationships>';
    const out = await md(docx(p('Traffic this week:') + drawing, { 'word/_rels/document.xml.rels': rels, 'word/charts/chart1.xml': chart }));
    expect(out).toContain('Traffic this week:\n\nChart: Calls per day\n\n| Category | Paid | Free |\n| --- | --- | --- |\n| Mon | 10 | 11 |\n| Tue | 20 | 21 |');
  });

  it('a chart\'s first column is headed by its category axis title (a scatter chart\'s horizontal axis); an untitled chart is not named after an axis, one whose title has no text after its only series', async () => {
    const axis = (tag: string, pos: string, title?: string) =>
      `<c:${tag}><c:axId val="1"/><c:axPos val="${pos}"/>${title ? `<c:title><c:tx><c:rich><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx></c:title>` : ''}</c:${tag}>`;
    const ser = (x: string, y: string) =>
      `<c:ser><c:tx><c:v>Load</c:v></c:tx><c:${x}><c:numRef><c:numCache><c:pt idx="0"><c:v>1</c:v></c:pt></c:numCache></c:numRef></c:${x}><c:${y}><c:numRef><c:numCache><c:pt idx="0"><c:v>5</c:v></c:pt></c:numCache></c:numRef></c:${y}></c:ser>`;
    const chart = (plot: string, title = '') => `<c:chartSpace xmlns:c="c" xmlns:a="a"><c:chart>${title}<c:plotArea>${plot}</c:plotArea></c:chart></c:chartSpace>`;
    const scatter = chart(`<c:scatterChart>${ser('xVal', 'yVal')}</c:scatterChart>${axis('valAx', 'l', 'Requests')}${axis('valAx', 'b', 'Workers')}`);
    const bars = chart(`<c:barChart>${ser('cat', 'val')}</c:barChart>${axis('catAx', 'b', 'Day')}${axis('valAx', 'l', 'Calls')}`);
    // A title without text: Office draws the only series' name there (and LibreOffice writes it out).
    const auto = chart(`<c:barChart>${ser('cat', 'val')}</c:barChart>`, '<c:title><c:overlay val="0"/></c:title><c:autoTitleDeleted val="0"/>');
    const xml = [scatter, bars, auto];
    const deck = pptx([1, 2, 3].map((n) => ({ shapes: `<p:graphicFrame><p:xfrm><a:off x="0" y="0"/></p:xfrm><a:graphic><a:graphicData><c:chart xmlns:c="c" r:id="rId${n + 2}"/></a:graphicData></a:graphic></p:graphicFrame>`, parts: { [`rId${n + 2}`]: { path: `charts/chart${n}.xml`, xml: xml[n - 1] } } })));
    const out = await md(deck);
    expect(out).toContain('Chart: untitled\n\n| Workers | Load |\n| --- | --- |\n| 1 | 5 |');
    expect(out).toContain('| Day | Load |\n| --- | --- |\n| 1 | 5 |');
    expect(out).toContain('<!-- slide 3 -->\n\nChart: Load\n\n| Category | Load |');
  });

  it('hostile hierarchies end: a cycle writes each node once, nesting stops at nine levels, a 20,000-node chain converts', async () => {
    const cyc = model([pt('doc', [], 'doc'), pt('a', ['A']), pt('b', ['B'])], [cxn('doc', 'a', 0), cxn('a', 'b', 0), cxn('b', 'a', 0)]);
    const deep = model([pt('doc', [], 'doc'), ...Array.from({ length: 20_000 }, (_, i) => pt(`n${i}`, [`N${i}`]))], [cxn('doc', 'n0', 0), ...Array.from({ length: 19_999 }, (_, i) => cxn(`n${i}`, `n${i + 1}`, 0))]);
    const deck = pptx([{ shapes: frame('rId3', 0), parts: { rId3: { path: 'diagrams/data1.xml', xml: cyc } } }, { shapes: frame('rId4', 0), parts: { rId4: { path: 'diagrams/data2.xml', xml: deep } } }]);
    const out = await md(deck);
    expect(out).toContain('- A\n  - B\n');
    expect(out.match(/^\s*- A$/gm)).toHaveLength(1);
    expect(out).toMatch(/^ {16}- N8$/m);
    expect(out).toMatch(/^ {16}- N9$/m);
    expect(out).toMatch(/^ {16}- N19999$/m);
    expect(out).not.toMatch(/^ {18}-/m);
  });

  it('points no connection reaches still show, in the order the file lists them', async () => {
    const loose = model([pt('x', ['First']), pt('y', ['Second'])], []);
    const deck = pptx([{ shapes: frame('rId3', 0), parts: { rId3: { path: 'diagrams/data1.xml', xml: loose } } }]);
    expect(await md(deck)).toContain('- First\n- Second');
  });
});
