/**
 * Word .docx to blocks, straight from the XML: headings from Heading N / Title styles (and outline levels, through
 * `basedOn`), lists from numbering.xml (bullet vs numbered, nesting by ilvl, start numbers and restarts), tables
 * with gridSpan/vMerge written once, hyperlinks by relationship, drawings as alt text, code paragraphs (a code style,
 * or text wholly in a monospace font) as fenced blocks, footnotes and endnotes as GFM footnotes, reviewer comments as
 * quotes after the block they are anchored in, text boxes, SmartArt and chart data after the paragraph that anchors
 * them.
 */
import { append } from '../../lib/arrays.js';
import { chunkBlocks } from '../alt-chunk.js';
import { firstHeading } from '../html.js';
import type { Converted, ParseOptions } from '../types.js';
import { attr, coreTitle, find, findAll, parseXml, readRels, type XNode } from '../xml.js';
import type { ZipReader } from '../zip.js';
import { readNumbering } from './numbering.js';
import { readStyles } from './styles.js';
import { DocxWalker } from './walker.js';

export function convertDocx(zip: ZipReader, _opts?: ParseOptions): Converted {
  const doc = parseXml(zip.text('word/document.xml') ?? '');
  const styles = readStyles(zip.text('word/styles.xml'));
  const numbering = readNumbering(zip.text('word/numbering.xml'));
  const rels = readRels(zip.text('word/_rels/document.xml.rels'), 'word/document.xml');
  const body = find(doc, 'w:body');
  const notes = readNotes(zip.text('word/footnotes.xml'), 'f', readNotes(zip.text('word/endnotes.xml'), 'e'));
  const comments = new Map(findAll(parseXml(zip.text('word/comments.xml') ?? ''), 'w:comment').map((c) => [attr(c, 'w:id') ?? '', c]));
  const part = (id: string | undefined) => {
    const xml = zip.textOnce(rels.get(id ?? ''));
    return xml === undefined ? undefined : parseXml(xml);
  };
  const chunk = (id: string | undefined) => {
    const bytes = zip.readOnce(rels.get(id ?? ''));
    return bytes ? chunkBlocks(bytes) : [];
  };
  const ctx = new DocxWalker(styles, numbering, rels, notes, comments, part, chunk);
  const blocks = append(ctx.body(body), ctx.noteBlocks());
  const title = coreTitle(zip.text('docProps/core.xml')) ?? ctx.titleText ?? firstHeading(blocks);
  return { blocks, title, cut: false };
}

/** Footnotes (`f:<id>`) or endnotes (`e:<id>`) by id; Word's separator notes carry no text and are skipped. */
function readNotes(xml: string | undefined, kind: 'f' | 'e', into = new Map<string, XNode>()): Map<string, XNode> {
  if (!xml) return into;
  for (const n of findAll(parseXml(xml), kind === 'f' ? 'w:footnote' : 'w:endnote')) {
    const type = attr(n, 'w:type');
    if (type && type !== 'normal') continue;
    into.set(`${kind}:${attr(n, 'w:id') ?? ''}`, n);
  }
  return into;
}
