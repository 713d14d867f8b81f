/** Small documents built in the tests themselves: OOXML via fflate, PDFs by hand, and hostile variants. */
import { strToU8, zipSync } from 'fflate';
import { brotliCompressSync, constants as zlibConstants, deflateRawSync, deflateSync } from 'node:zlib';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

export function zip(files: Record<string, string | Uint8Array>, level: 0 | 6 = 6): Uint8Array {
  const input: Record<string, [Uint8Array, { level: 0 | 6 }]> = {};
  for (const [k, v] of Object.entries(files)) input[k] = [typeof v === 'string' ? strToU8(v) : v, { level }];
  return zipSync(input);
}

export function docx(body: string, extra: Record<string, string> = {}): Uint8Array {
  return zip({
    '[Content_Types].xml': '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    ...extra,
  });
}

export const p = (text: string, style?: string, num?: [number, number]) =>
  `<w:p><w:pPr>${style ? `<w:pStyle w:val="${style}"/>` : ''}${num ? `<w:numPr><w:ilvl w:val="${num[1]}"/><w:numId w:val="${num[0]}"/></w:numPr>` : ''}</w:pPr><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

export const numbering = `<?xml version="1.0"?><w:numbering ${W}>
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/></w:lvl><w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="3"/><w:numFmt w:val="decimal"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num></w:numbering>`;

export function xlsx(sheets: { name: string; rows: string }[], styles?: string, shared: string[] = [], o: { date1904?: boolean; extra?: Record<string, string> } = {}): Uint8Array {
  const files: Record<string, string> = {
    '[Content_Types].xml': '<Types/>',
    'xl/workbook.xml': `<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">${o.date1904 ? '<workbookPr date1904="1"/>' : ''}<sheets>${sheets.map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `<Relationships>${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="x/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
    'xl/sharedStrings.xml': `<sst>${shared.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`,
  };
  if (styles) files['xl/styles.xml'] = styles;
  sheets.forEach((s, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = `<worksheet><sheetData>${s.rows}</sheetData></worksheet>`));
  return zip({ ...files, ...o.extra });
}

/**
 * A deck of slides in presentation `order`; a slide's `parts` are parts it relates to by id (a chart, SmartArt
 * data), stored at their path under `ppt/`; its `links` are hyperlinks' external addresses by relationship id.
 */
export function pptx(
  slides: { shapes: string; hidden?: boolean; notes?: string; comments?: { author: string; dt?: string; text: string }[]; parts?: Record<string, { path: string; xml: string }>; links?: Record<string, string> }[],
  order?: number[],
): Uint8Array {
  const files: Record<string, string> = {
    '[Content_Types].xml': '<Types/>',
    'ppt/presentation.xml': `<p:presentation xmlns:p="p" xmlns:r="r"><p:sldIdLst>${(order ?? slides.map((_, i) => i)).map((i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': `<Relationships>${slides.map((_, i) => `<Relationship Id="rId${i + 1}" Type="x/slide" Target="slides/slide${i + 1}.xml"/>`).join('')}</Relationships>`,
  };
  const authors = [...new Set(slides.flatMap((s) => (s.comments ?? []).map((c) => c.author)))];
  if (authors.length) files['ppt/commentAuthors.xml'] = `<p:cmAuthorLst xmlns:p="p">${authors.map((a, i) => `<p:cmAuthor id="${i}" name="${a}"/>`).join('')}</p:cmAuthorLst>`;
  slides.forEach((s, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = `<p:sld xmlns:p="p" xmlns:a="a"${s.hidden ? ' show="0"' : ''}><p:cSld><p:spTree>${s.shapes}</p:spTree></p:cSld></p:sld>`;
    const rels: string[] = [];
    if (s.notes) {
      // Notes numbered in reverse, so pairing by index would be wrong.
      const n = slides.length - i;
      rels.push(`<Relationship Id="rId9" Type="x/notesSlide" Target="../notesSlides/notesSlide${n}.xml"/>`);
      files[`ppt/notesSlides/notesSlide${n}.xml`] = `<p:notes xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:nvSpPr><p:nvPr><p:ph type="body"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>${s.notes}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:notes>`;
    }
    if (s.comments?.length) {
      rels.push(`<Relationship Id="rId8" Type="x/comments" Target="../comments/comment${i + 1}.xml"/>`);
      files[`ppt/comments/comment${i + 1}.xml`] = `<p:cmLst xmlns:p="p">${s.comments.map((c) => `<p:cm authorId="${authors.indexOf(c.author)}"${c.dt ? ` dt="${c.dt}"` : ''}><p:text>${c.text}</p:text></p:cm>`).join('')}</p:cmLst>`;
    }
    for (const [id, part] of Object.entries(s.parts ?? {})) {
      rels.push(`<Relationship Id="${id}" Type="x/part" Target="../${part.path}"/>`);
      files[`ppt/${part.path}`] = part.xml;
    }
    for (const [id, url] of Object.entries(s.links ?? {})) rels.push(`<Relationship Id="${id}" Type="x/hyperlink" Target="${url}" TargetMode="External"/>`);
    if (rels.length) files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = `<Relationships>${rels.join('')}</Relationships>`;
  });
  return zip(files);
}

export const shape = (text: string, y: number, x = 0, ph?: string) =>
  `<p:sp><p:nvSpPr><p:nvPr>${ph ? `<p:ph type="${ph}"/>` : ''}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="${x}" y="${y}"/></a:xfrm></p:spPr><p:txBody><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

/** A form field's widget: a text field's value, a check box or radio button on or off, a choice's picked options. */
export type FieldSpec = { rect: [number, number, number, number]; name: string } & (
  | { type: 'text'; value: string }
  | { type: 'check'; on: boolean }
  | { type: 'radio'; on: boolean }
  | { type: 'choice'; value: string[]; options: [string, string][] }
);

/** A structure element of a tagged PDF page: its role and its kids, other elements or indexes of the page's lines. */
export interface StructSpec {
  role: string;
  kids: (StructSpec | number)[];
}

/** Content operators stroking a ruled grid: a rule along each `ys` (top down) and each `xs`, spanning the grid. */
export const ruledGrid = (xs: number[], ys: number[]) =>
  [...ys.map((y) => `${xs[0]} ${y} m ${xs[xs.length - 1]} ${y} l S`), ...xs.map((x) => `${x} ${ys[ys.length - 1]} m ${x} ${ys[0]} l S`)].join('\n');

/**
 * A PDF with one text stream per page (Helvetica; `bold` lines in Helvetica-Bold, `mono` ones in Courier; `turned` lines read upwards; `y` places a line, else lines run
 * down from the top; `ops` appends raw content operators such as rules, `form` draws its own through a form
 * XObject placed by its matrix), or none for an "image-only" page;
 * `outline` adds bookmarks (title → 0-based page index); `producer` names the program that made the file;
 * `compress` writes each content stream Flate-encoded;
 * a page's `links` are URI link annotations over the given rectangles, its `fields` filled form widgets; an
 * `artifact` line is marked `/Artifact` (pagination, not content); its `tags` make the file a tagged PDF: each line the tree names is marked content (its index is its MCID),
 * held by its element through the structure tree's parent tree.
 */
export function pdf(
  pages: {
    lines: { text: string; size?: number; bold?: boolean; mono?: boolean; x?: number; y?: number; turned?: boolean; artifact?: boolean }[];
    ops?: string;
    /** Content drawn through a form XObject (`Do`), placed by its matrix. */
    form?: { ops: string; matrix: [number, number, number, number, number, number] };
    tags?: StructSpec;
    links?: { rect: [number, number, number, number]; url: string }[];
    fields?: FieldSpec[];
  }[],
  info: { title?: string; producer?: string; outline?: { title: string; page: number }[]; compress?: boolean } = {},
): Uint8Array {
  const objs: string[] = [];
  const add = (s: string) => objs.push(s) ;
  add('CATALOG');
  add('PAGES');
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >>');
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>');
  const kids: number[] = [];
  const fieldRefs: string[] = [];
  for (const pg of pages) {
    let y = 760;
    const ops = pg.lines.map((l, i) => {
      const size = l.size ?? 11;
      // `turned`: set a quarter turn counter-clockwise (reading upwards), as vertical column headers are.
      const at = l.turned ? `0 1 -1 0 ${l.x ?? 72} ${l.y ?? y} Tm` : `${l.x ?? 72} ${l.y ?? y} Td`;
      const s = `BT /${l.mono ? 'F3' : l.bold ? 'F2' : 'F1'} ${size} Tf ${at} (${l.text.replace(/[()\\]/g, (c) => '\\' + c)}) Tj ET`;
      if (l.y === undefined) y -= size * 1.4;
      if (l.artifact) return `/Artifact BMC ${s} EMC`;
      return pg.tags ? `/P <</MCID ${i}>> BDC ${s} EMC` : s;
    });
    let xobject = '';
    if (pg.form) {
      add(`<< /Type /XObject /Subtype /Form /BBox [-1000 -1000 2000 2000] /Matrix [${pg.form.matrix.join(' ')}] /Length ${pg.form.ops.length} >>\nstream\n${pg.form.ops}\nendstream`);
      xobject = ` /XObject << /Fm1 ${objs.length} 0 R >>`;
    }
    const plain = [...ops, pg.ops ?? '', pg.form ? '/Fm1 Do' : ''].join('\n');
    const stream = info.compress ? deflateSync(Buffer.from(plain, 'latin1')).toString('latin1') : plain;
    add(`<< /Length ${stream.length}${info.compress ? ' /Filter /FlateDecode' : ''} >>\nstream\n${stream}\nendstream`);
    const contentId = objs.length;
    const annots = (pg.links ?? []).map((k) => {
      add(`<< /Type /Annot /Subtype /Link /Rect [${k.rect.join(' ')}] /Border [0 0 0] /A << /S /URI /URI (${k.url}) >> >>`);
      return `${objs.length} 0 R`;
    });
    for (const f of pg.fields ?? []) {
      const common = `/Type /Annot /Subtype /Widget /T (${f.name}) /Rect [${f.rect.join(' ')}]`;
      if (f.type === 'text') add(`<< ${common} /FT /Tx /V (${f.value}) >>`);
      else if (f.type === 'choice') add(`<< ${common} /FT /Ch /Ff 131072 /V [${f.value.map((v) => `(${v})`).join(' ')}] /Opt [${f.options.map(([e, d]) => `[(${e}) (${d})]`).join(' ')}] >>`);
      else {
        // A button's on state is named by its appearance: /Yes for a check box, /Choice1 for a radio button.
        add('<< /Length 0 /Subtype /Form /BBox [0 0 12 12] >>\nstream\n\nendstream');
        const ap = objs.length;
        const onName = f.type === 'check' ? 'Yes' : 'Choice1';
        const flags = f.type === 'radio' ? ' /Ff 49152' : '';
        add(`<< ${common} /FT /Btn${flags} /V /${f.on ? onName : 'Off'} /AS /${f.on ? onName : 'Off'} /AP << /N << /${onName} ${ap} 0 R /Off ${ap} 0 R >> >> >>`);
      }
      annots.push(`${objs.length} 0 R`);
      fieldRefs.push(`${objs.length} 0 R`);
    }
    const extra = `${pg.tags ? ` /StructParents ${kids.length}` : ''}${annots.length ? ` /Annots [${annots.join(' ')}]` : ''}`;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R /F3 5 0 R >>${xobject} >> /Contents ${contentId} 0 R${extra} >>`);
    kids.push(objs.length);
  }
  objs[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let structure = '';
  if (pages.some((pg) => pg.tags)) {
    add('STRUCT_ROOT');
    const rootId = objs.length;
    const tops: number[] = [];
    const nums: string[] = [];
    pages.forEach((pg, p) => {
      if (!pg.tags) return;
      const holder: number[] = [];
      // Each element's object number is known before its kids are written: its slot is added first.
      const write = (e: StructSpec, parent: number): number => {
        add('ELEM');
        const id = objs.length;
        const k = e.kids.map((kid) => {
          if (typeof kid !== 'number') return `${write(kid, id)} 0 R`;
          holder[kid] = id;
          return String(kid);
        });
        objs[id - 1] = `<< /Type /StructElem /S /${e.role} /P ${parent} 0 R /Pg ${kids[p]} 0 R /K [${k.join(' ')}] >>`;
        return id;
      };
      tops.push(write(pg.tags, rootId));
      nums.push(`${p} [${Array.from({ length: holder.length }, (_, i) => (holder[i] ? `${holder[i]} 0 R` : 'null')).join(' ')}]`);
    });
    objs[rootId - 1] = `<< /Type /StructTreeRoot /K [${tops.map((t) => `${t} 0 R`).join(' ')}] /ParentTree << /Nums [${nums.join(' ')}] >> >>`;
    structure = ` /MarkInfo << /Marked true >> /StructTreeRoot ${rootId} 0 R`;
  }
  let outlines = '';
  if (info.outline?.length) {
    const rootId = objs.length + 1;
    add('OUTLINES');
    const first = objs.length + 1;
    const n = info.outline.length;
    info.outline.forEach((o, i) => {
      const id = first + i;
      add(`<< /Title (${o.title}) /Parent ${rootId} 0 R ${i ? `/Prev ${id - 1} 0 R` : ''} ${i < n - 1 ? `/Next ${id + 1} 0 R` : ''} /Dest [${kids[o.page]} 0 R /XYZ 0 792 0] >>`);
    });
    objs[rootId - 1] = `<< /Type /Outlines /First ${first} 0 R /Last ${first + n - 1} 0 R /Count ${n} >>`;
    outlines = ` /Outlines ${rootId} 0 R`;
  }
  const form = fieldRefs.length ? ` /AcroForm << /Fields [${fieldRefs.join(' ')}] >>` : '';
  objs[0] = `<< /Type /Catalog /Pages 2 0 R${outlines}${structure}${form} >>`;
  let infoId = 0;
  if (info.title !== undefined || info.producer !== undefined) {
    add(`<< ${info.title !== undefined ? `/Title (${info.title})` : ''} ${info.producer !== undefined ? `/Producer (${info.producer})` : ''} >>`);
    infoId = objs.length;
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R ${infoId ? `/Info ${infoId} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

export const b64 = (b: Uint8Array | string) => Buffer.from(b).toString('base64');

/** Sets a central-directory field of every entry (offset 20 compressed size, 24 uncompressed size). */
export function patchCentral(z: Uint8Array, field: 20 | 24, value: (old: number, name: string) => number): Uint8Array {
  const out = new Uint8Array(z);
  const v = new DataView(out.buffer);
  for (let i = 0; i < out.length - 46; i++) {
    if (v.getUint32(i, true) === 0x02014b50) {
      const nameLen = v.getUint16(i + 28, true);
      const name = Buffer.from(out.subarray(i + 46, i + 46 + nameLen)).toString();
      v.setUint32(i + field, value(v.getUint32(i + field, true), name), true);
    }
  }
  return out;
}

/**
 * Points the cross-reference entries of the objects `which` picks (by their text) a few bytes past where they start,
 * as a damaged file does: pdf.js then finds no `N 0 obj` there and rebuilds its table by scanning the file.
 */
export function misplaceObjects(file: Uint8Array, which: (body: string) => boolean): Uint8Array {
  const text = Buffer.from(file).toString('latin1');
  const xref = text.lastIndexOf('\nxref\n') + 1;
  const entries = text.slice(xref).split('\n');
  for (const m of text.slice(0, xref).matchAll(/(\d+) 0 obj\n([\s\S]*?)\nendobj/g)) {
    const n = Number(m[1]);
    // Line 0 is "xref", line 1 the subsection header "0 N", line 2 object 0's free entry.
    if (which(m[2])) entries[n + 2] = `${String(m.index! + 9).padStart(10, '0')} 00000 n `;
  }
  return new Uint8Array(Buffer.from(text.slice(0, xref) + entries.join('\n'), 'latin1'));
}

/**
 * Compression bombs. zlib data inflating to `mb` MiB of zeros (after `lead`, if given), built without deflating them:
 * one MiB of zeros deflated and flushed (byte-aligned, history reset), repeated, then an empty final block and the
 * Adler-32 of the zeros.
 */
export function deflatedZeros(mb: number, lead?: Buffer): Buffer {
  const segment = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: zlibConstants.Z_FULL_FLUSH });
  // Data ahead of the zeros (its checksum is then wrong, which no reader reaches before its limits).
  const head = lead ? deflateRawSync(lead, { finishFlush: zlibConstants.Z_FULL_FLUSH }) : Buffer.alloc(0);
  const tail = Buffer.alloc(6);
  tail[0] = 0x03; // an empty final block, fixed Huffman codes
  tail.writeUInt16BE((mb * (1 << 20)) % 65521, 2); // Adler-32 of zeros: b = length mod 65521, a = 1
  tail.writeUInt16BE(1, 4);
  return Buffer.concat([Buffer.from([0x78, 0xda]), head, ...Array<Buffer>(mb).fill(segment), tail]);
}

/** Brotli data decompressing to `mb` MiB of zeros (about 190 bytes a MiB at quality 1). */
export function brotliZeros(mb: number): Buffer {
  return brotliCompressSync(Buffer.alloc(mb * (1 << 20)), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1 } });
}

export type PdfObject = string | { dict: string; data: Buffer };

/** A PDF of these objects (1 the catalog), with a correct cross-reference table. */
export function pdfOf(objs: PdfObject[]): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  const push = (b: Buffer) => {
    parts.push(b);
    at += b.length;
  };
  objs.forEach((o, i) => {
    offsets.push(at);
    if (typeof o === 'string') push(Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`, 'latin1'));
    else {
      push(Buffer.from(`${i + 1} 0 obj\n<< ${o.dict} /Length ${o.data.length} >>\nstream\n`, 'latin1'));
      push(o.data);
      push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    }
  });
  const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(Buffer.from(`xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
  return new Uint8Array(Buffer.concat(parts));
}
