/**
 * HTML to blocks. Decoded by BOM, then `<meta charset>`/`http-equiv`, then UTF-8; reads `<main>`/`<article>` when
 * the page marks one (else `<body>`); never script, style, template, svg, noscript, iframe, nav or aside (nor their
 * ARIA landmark roles), nor a heading's permalink symbol.
 */
import { append } from '../lib/arrays.js';
import { codeSpan, collapse, esc, image, link, MONO_FONT, plainText, raise, wrap } from './inline.js';
import { mathmlMarkdown } from './mathml.js';
import { captionedTable, writeMarkdown } from './markdown.js';
import { PAGE_LABEL } from './page-label.js';
import type { Block, Converted, ListItem } from './types.js';
import { LIMITS } from './types.js';
import { attr, find, kids, parseBounded, textOf, type XNode } from './xml.js';

/** The language a `<pre>` (or the `<code>` inside it) names in its class: `language-js`, `lang-py`. */
function codeLanguage(pre: XNode): string | undefined {
  const code = (pre.children ?? []).find((k) => k.type === 'tag' && k.name === 'code');
  for (const n of [pre, code]) {
    const m = /(?:^|\s)(?:language|lang)-([\w+#.-]{1,30})(?:\s|$)/.exec(attr(n, 'class') ?? '');
    if (m) return m[1];
  }
  return undefined;
}

export function decodeHtml(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (b[0] === 0xff && b[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (b[0] === 0xfe && b[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const head = b.subarray(0, 4096).toString('latin1');
  const m =
    /<meta[^>]+charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)/i.exec(head) ?? /<meta[^>]+content\s*=\s*["'][^"']*charset=([a-zA-Z0-9_.:-]+)/i.exec(head);
  if (m) {
    try {
      const label = m[1].toLowerCase();
      // WHATWG: latin1 and ascii labels mean windows-1252; Node 20's decoder leaves 0x80-0x9f as C1 controls.
      if (/^(windows-1252|cp1252|iso-8859-1|iso8859-1|latin1|l1|us-ascii|ascii|x-user-defined)$/.test(label)) return decode1252(b);
      // A UTF-16 label read in ASCII bytes is wrong about them (WHATWG's prescan takes UTF-8 then): without a BOM,
      // decoding as UTF-16 would turn the whole page into CJK noise.
      if (/^(utf-16|utf-16le|utf-16be|unicode|ucs-2|unicodefffe)$/.test(label)) return new TextDecoder('utf-8').decode(bytes);
      return new TextDecoder(label).decode(bytes);
    } catch {
      /* unknown label: UTF-8 */
    }
  }
  return new TextDecoder('utf-8').decode(bytes);
}

const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decode1252(b: Buffer): string {
  const s = b.toString('latin1');
  return s.replace(/[\u0080-\u009f]/g, (c) => CP1252[c.charCodeAt(0) - 0x80]);
}

const SKIP = new Set(['script', 'style', 'template', 'svg', 'noscript', 'iframe', 'nav', 'aside', 'head', 'button', 'select', 'input', 'textarea', 'object', 'embed', 'canvas', 'dialog']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'table', 'pre',
  'blockquote', 'hr', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'form', 'fieldset', 'address', 'details', 'summary', 'center', 'body', 'html',
  'caption', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot',
]);

/** ARIA landmarks that are what `nav` and `aside` are (menus, sidebars, search boxes). */
const SKIP_ROLES = new Set(['navigation', 'complementary', 'search']);

/** An element never read: a skipped tag (form controls but check boxes) or landmark, or one hidden from readers. */
function skipped(n: XNode): boolean {
  const a = n.attribs ?? {};
  return (SKIP.has(n.name!) && !isCheckBox(n)) || SKIP_ROLES.has(a.role ?? '') || 'hidden' in a || a['aria-hidden'] === 'true' || /display\s*:\s*none/i.test(a.style ?? '');
}

/** A permalink beside a heading (Sphinx's "¶", "#", "§", a link symbol) pointing into the page: no text. */
const PERMALINK = /^[\s¶§#🔗⚓]+$/u;

export function convertHtml(bytes: Uint8Array): Converted {
  const text = decodeHtml(bytes);
  const doc = parseBounded(text, { xmlMode: false, maxNodes: LIMITS.htmlNodes, maxDepth: LIMITS.htmlDepth, what: 'HTML' });
  // The page's own description of itself, in one walk: its metadata and the address it gives (`pageAddress`).
  const described = findAllTags(doc, new Set(['meta', 'link', 'base']));
  const og = described.find((m) => m.name === 'meta' && /^(og:title)$/i.test(attr(m, 'property') ?? attr(m, 'name') ?? ''));
  let title = collapse(attr(og, 'content') ?? '').trim() || collapse(textOf(find(doc, 'title'))).trim();
  const root = find(doc, 'main') ?? markedArticle(doc) ?? find(doc, 'body') ?? doc;
  const underBody = root.name === 'body' || root === doc;
  const blocks = new Walker(underBody, pageAddress(described)).blocks(root);
  if (!title) title = firstHeading(blocks) ?? '';
  return { blocks, title: title || undefined, cut: false };
}

export function firstHeading(blocks: Block[]): string | undefined {
  const h = blocks.find((b) => b.t === 'h');
  return h && h.t === 'h' ? plainText(h.text) : undefined;
}

const CONTENTS_ENTRY = new RegExp(`^([^\\t]*\\S)\\t[\\t .]*(${PAGE_LABEL})$`, 'i');

/**
 * A table-of-contents entry as a word processor exports one (LibreOffice: `<p><a href="#__RefHeading…">Scope<TAB>4</a></p>`):
 * a paragraph that is one link to a place in the page whose text ends in a tab and a page number. Its title and page,
 * or undefined.
 */
function contentsEntry(p: XNode): [string, string] | undefined {
  const shown = (p.children ?? []).filter((k) => k.type !== 'text' || k.data?.trim());
  const a = shown.length === 1 && shown[0].name === 'a' ? shown[0] : undefined;
  if (!a || !attr(a, 'href')?.startsWith('#')) return undefined;
  const m = CONTENTS_ENTRY.exec(textOf(a).trim());
  return m ? [esc(collapse(m[1]).trim()), m[2]] : undefined;
}

/** The outermost elements of a name (none inside another), in document order, outside elements never read. */
function outermost(n: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of n.children ?? []) {
    if (c.type !== 'tag' || skipped(c)) continue;
    if (c.name === name) out.push(c);
    else outermost(c, name, out);
  }
  return out;
}

/**
 * The article a page marks: its one outermost `<article>`, or the one holding two thirds of their text (a post
 * beside short related-post cards). A page of several comparable articles (a blog's index, a feed) marks none: it
 * is read whole rather than by its first entry. Articles in a menu or a sidebar do not count.
 */
function markedArticle(doc: XNode): XNode | undefined {
  const articles = outermost(doc, 'article');
  if (articles.length <= 1) return articles[0];
  const sizes = articles.map((a) => collapse(textOf(a)).trim().length);
  const best = sizes.reduce((b, n, i) => (n > sizes[b] ? i : b), 0);
  return sizes[best] * 3 >= sizes.reduce((a, b) => a + b, 0) * 2 ? articles[best] : undefined;
}

/** An absolute http(s) address, else undefined. */
function absolute(href: string | undefined): URL | undefined {
  const v = href?.trim();
  if (!v || !/^https?:\/\//i.test(v)) return undefined;
  try {
    return new URL(v);
  } catch {
    return undefined;
  }
}

/**
 * What relative links and images resolve against: the page's `<base href>`, else the address the page gives as its
 * own (`<link rel="canonical">`, then `og:url`). A saved or fetched page keeps its links this way ("/wiki/Mallard"
 * is `https://en.wikipedia.org/wiki/Mallard`) instead of losing them to text.
 */
function pageAddress(tags: XNode[]): URL | undefined {
  const base = absolute(attr(tags.find((b) => b.name === 'base' && attr(b, 'href')), 'href'));
  if (base) return base;
  const canonical = tags.find((l) => l.name === 'link' && /(^|\s)canonical(\s|$)/i.test(attr(l, 'rel') ?? '') && absolute(attr(l, 'href')));
  if (canonical) return absolute(attr(canonical, 'href'));
  return absolute(attr(tags.find((m) => m.name === 'meta' && /^og:url$/i.test(attr(m, 'property') ?? '') && absolute(attr(m, 'content'))), 'content'));
}

/**
 * An image's address: a lazy loader's real one (`data-src` and kin, `data-srcset`) before `src`, which such pages
 * fill with a placeholder (a blank GIF or SVG, a data URI), then `srcset`'s first candidate.
 */
const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original', 'data-delayed-url', 'data-srcset'];
function imageSource(img: XNode): string | undefined {
  const firstOf = (srcset: string | undefined) => srcset?.trim().split(/\s+/)[0]?.replace(/,$/, '') || undefined;
  for (const name of LAZY_SOURCES) {
    const v = attr(img, name)?.trim();
    if (v && !/^data:/i.test(v)) return name.endsWith('srcset') ? firstOf(v) : v;
  }
  const src = attr(img, 'src')?.trim();
  return src && !/^data:/i.test(src) ? src : (firstOf(attr(img, 'srcset')) ?? src);
}

function findAllTags(n: XNode, names: Set<string>, out: XNode[] = []): XNode[] {
  for (const c of n.children ?? []) {
    if (names.has(c.name!)) out.push(c);
    findAllTags(c, names, out);
  }
  return out;
}

const isCheckBox = (n: XNode) => n.name === 'input' && (attr(n, 'type') ?? '').toLowerCase() === 'checkbox';
const checked = (n: XNode) => !!n.attribs && 'checked' in n.attribs;
/** An element's first child that shows something: a tag, or text that is not white space. */
const leadingChild = (n: XNode) => (n.children ?? []).find((k) => k.type === 'tag' || (k.type === 'text' && (k.data ?? '').trim()));

/** A list's `start` or an item's `value`: a whole number markdown can write (nine digits at most), else undefined. */
function listNumber(v: string | undefined): number | undefined {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isFinite(n) && n >= 0 && n < 1e9 ? n : undefined;
}

class Walker {
  constructor(
    private readonly underBody: boolean,
    private readonly address?: URL,
  ) {}

  /** A link's or image's address resolved against the page's (`pageAddress`); in-page anchors stay as they are. */
  url(href: string | undefined): string | undefined {
    const v = href?.trim();
    if (!v || !this.address || v.startsWith('#') || /^[a-z][a-z\d+.-]*:/i.test(v)) return href;
    try {
      return new URL(v, this.address).href;
    } catch {
      return href;
    }
  }

  blocks(n: XNode): Block[] {
    const out: Block[] = [];
    let inline = '';
    // Consecutive table-of-contents entries (see `contentsEntry`), written as one table, as a PDF's contents are.
    let contents: string[][] = [];
    /** The list that items standing without one make (see below). */
    let loose: Extract<Block, { t: 'list' }> | undefined;
    const flush = () => {
      // Text after the entries came after them (text before them was flushed when the first one came).
      if (contents.length) out.push(contents.length > 1 ? { t: 'table', rows: contents } : { t: 'p', text: contents[0].join(' ') });
      contents = [];
      const t = inline.replace(/[ \t]+/g, ' ').replace(/ ?\n ?/g, '\n').trim();
      if (t) out.push({ t: 'p', text: t });
      inline = '';
    };
    for (const c of n.children ?? []) {
      if (c.type === 'text') {
        if (contents.length && !c.data?.trim()) continue;
        inline += esc(collapse(c.data ?? ''));
        continue;
      }
      if (c.type !== 'tag' && c.type !== 'script' && c.type !== 'style') continue;
      const name = c.name!;
      if (skipped(c)) continue;
      const entry = name === 'p' ? contentsEntry(c) : undefined;
      if (entry) {
        if (!contents.length) flush();
        contents.push(entry);
        continue;
      }
      // LibreOffice's export marks its running header and footer `<div title="header">`, `<div title="footer">`.
      const running = name === 'header' || name === 'footer' || c.attribs?.role === 'banner' || c.attribs?.role === 'contentinfo' || (name === 'div' && /^(header|footer)$/.test(c.attribs?.title ?? ''));
      if (this.underBody && running) continue;
      if (!BLOCK.has(name) && !this.holdsBlocks(c)) {
        inline += this.inline(c);
        continue;
      }
      flush();
      if (name === 'li') {
        // Items with no list around them (a fragment of `<li>`s, as LinkedIn's job search answers) are one list.
        const prev = out[out.length - 1];
        if (prev && prev === loose) loose.items.push(this.item(c));
        else out.push((loose = { t: 'list', ordered: false, start: 1, items: [this.item(c)] }));
        continue;
      }
      if (name === 'a') {
        // A link around blocks (a card: its heading, a summary): the blocks as they are, the link on the first
        // heading's or paragraph's text.
        const inner = this.blocks(c);
        const first = inner.find((b) => b.t === 'h' || b.t === 'p') as { text: string } | undefined;
        if (first) first.text = link(first.text, this.url(attr(c, 'href')));
        append(out, inner);
        continue;
      }
      for (const b of this.block(c)) {
        const prev = out[out.length - 1];
        const bare = b.t === 'list' && !b.items[0]?.text && b.items[0]?.children.every((k) => k.t === 'list');
        if (bare && prev?.t === 'list') {
          // A list opening with a bare nested list right after a list (LibreOffice's `</ul><ul><ul><li>`): the
          // nested list is the previous item's, and the list goes on.
          prev.items[prev.items.length - 1].children.push(...b.items[0].children);
          if (prev.ordered === b.ordered) append(prev.items, b.items.slice(1));
          else if (b.items.length > 1) out.push({ ...b, items: b.items.slice(1) });
        } else out.push(b);
      }
    }
    flush();
    return out;
  }

  private blockful = new WeakMap<XNode, boolean>();

  /**
   * An element of no block kind holding block elements (a framework's custom element such as Google's `<c-wiz>`, a
   * `<span>` around a `<div>`, a link around a card's heading and summary) is laid out as a block by a browser, and
   * read as one here.
   */
  holdsBlocks(c: XNode): boolean {
    if (c.type !== 'tag' || skipped(c)) return false;
    let known = this.blockful.get(c);
    if (known === undefined) {
      known = (c.children ?? []).some((k) => k.type === 'tag' && (BLOCK.has(k.name!) ? !skipped(k) : this.holdsBlocks(k)));
      this.blockful.set(c, known);
    }
    return known;
  }

  private showing = new WeakMap<XNode, boolean>();

  /** Whether an element shows anything: text, or a picture. Worked out once per element. */
  shows(n: XNode): boolean {
    if (n.type === 'text') return !!n.data?.trim();
    if (n.type !== 'tag' || skipped(n)) return false;
    let known = this.showing.get(n);
    if (known === undefined) this.showing.set(n, (known = n.name === 'img' || (n.children ?? []).some((k) => this.shows(k))));
    return known;
  }

  block(c: XNode): Block[] {
    const name = c.name!;
    const h = /^h([1-6])$/.exec(name);
    if (h) return [{ t: 'h', level: Number(h[1]), text: this.inlineChildren(c).replace(/\s+/g, ' ').trim() }];
    switch (name) {
      case 'ul':
      case 'ol':
        return this.lists(c);
      case 'table':
        return this.table(c);
      case 'pre':
        return [{ t: 'code', text: textOf(c).replace(/^\n/, ''), lang: codeLanguage(c) }];
      case 'blockquote':
        return [{ t: 'quote', blocks: this.blocks(c) }];
      case 'hr':
        return [];
      default:
        return this.blocks(c);
    }
  }

  /**
   * A `<ul>` or `<ol>` as list blocks: one, or, where an item's `value` renumbers an ordered list, a new list from
   * that item on (markdown numbers a list on from its first item only).
   */
  lists(c: XNode): Block[] {
    const ordered = c.name === 'ol';
    let list: Extract<Block, { t: 'list' }> = { t: 'list', ordered, start: (ordered ? listNumber(attr(c, 'start')) : undefined) ?? 1, items: [] };
    const out: Block[] = [list];
    for (const li of kids(c)) {
      if (skipped(li)) continue;
      // What stands between the items without text (LinkedIn's `<br>` after each `<li>`) is no item.
      if (li.name !== 'li' && !textOf(li).trim() && !find(li, 'img')) continue;
      if (li.name === 'ul' || li.name === 'ol') {
        const nested = this.lists(li);
        if (list.items.length) list.items[list.items.length - 1].children.push(...nested);
        else list.items.push({ text: '', children: nested });
        continue;
      }
      const value = ordered ? listNumber(attr(li, 'value')) : undefined;
      if (value !== undefined && list.items.length && value !== list.start + list.items.length) out.push((list = { t: 'list', ordered, start: value, items: [] }));
      else if (value !== undefined && !list.items.length) list.start = value;
      list.items.push(this.item(li));
    }
    return out;
  }

  item(li: XNode): ListItem {
    const blocks = this.blocks(li);
    let text = '';
    if (blocks[0]?.t === 'p') text = (blocks.shift() as { text: string }).text;
    // A check box leading the item (a rendered GFM task list) is the task's state.
    const first = leadingChild(li);
    if (first && isCheckBox(first)) text = `${checked(first) ? '[x]' : '[ ]'} ${text}`.trimEnd();
    return { text, children: blocks };
  }

  private open = new Set<string>();
  /** How many `<q>` elements enclose the text being written. */
  private quotes = 0;

  /** Emphasis nested in the same emphasis is written once (`<b><strong>x</strong></b>` is `**x**`). */
  emphasis(c: XNode, mark: string): string {
    if (this.open.has(mark)) return this.inlineChildren(c);
    this.open.add(mark);
    try {
      return wrap(this.inlineChildren(c), mark);
    } finally {
      this.open.delete(mark);
    }
  }

  inlineChildren(n: XNode): string {
    return (n.children ?? []).map((c) => this.inline(c)).join('');
  }

  inline(c: XNode): string {
    if (c.type === 'text') return esc(collapse(c.data ?? ''));
    if (c.type !== 'tag') return '';
    // Wikipedia hides its formulas' MathML (`display: none`) beside the picture it shows (alt text the TeX): the
    // formula is read from the MathML in the picture's place.
    if (/\bmwe-math-element\b/.test(c.attribs?.class ?? '')) {
      const math = find(c, 'math');
      return math ? mathmlMarkdown(math) : '';
    }
    if (skipped(c)) return '';
    switch (c.name) {
      case 'br':
        return '\n';
      case 'input':
        // A check box elsewhere than leading a list item (there it is the task's `[x]`) shows its state, as a
        // Word form field's does.
        return isCheckBox(c) && !(c.parent?.name === 'li' && leadingChild(c.parent) === c) ? (checked(c) ? '☒' : '☐') : '';
      case 'img':
        return image(attr(c, 'alt'), this.url(imageSource(c)));
      case 'a':
        if ((attr(c, 'href') ?? '').startsWith('#') && PERMALINK.test(textOf(c))) return '';
        return link(this.inlineChildren(c), this.url(attr(c, 'href')));
      case 'strong':
      case 'b':
        return this.emphasis(c, '**');
      case 'em':
      case 'i':
        return this.emphasis(c, '*');
      case 'del':
      case 's':
      case 'strike':
        return this.emphasis(c, '~~');
      // Teletype, keyboard input and sample output are set monospace like code (old pages write `<tt>`).
      case 'code':
      case 'tt':
      case 'kbd':
      case 'samp':
        return codeSpan(collapse(textOf(c)));
      case 'sup':
      case 'sub':
        return raise(this.inlineChildren(c), c.name);
      case 'math':
        return mathmlMarkdown(c);
      // A browser sets an inline quotation in quotation marks, single ones inside another quotation.
      case 'q': {
        const [open, close] = this.quotes % 2 ? ['‘', '’'] : ['“', '”'];
        this.quotes++;
        try {
          return open + this.inlineChildren(c) + close;
        } finally {
          this.quotes--;
        }
      }
      default:
        if (BLOCK.has(c.name!)) return ' ' + this.flatten(c) + ' ';
        // Word processors mark inline code by its font alone (LibreOffice `<font face="Courier New, monospace">`,
        // Word and Google Docs `<span style="font-family: 'Courier New'">`).
        if (monospaced(c)) return codeSpan(collapse(textOf(c)));
        return this.inlineChildren(c);
    }
  }

  /** Block content inside an inline or a table cell: text lines joined by newlines. */
  flatten(c: XNode): string {
    return flattenBlocks(this.block(c));
  }

  table(t: XNode): Block[] {
    const out: Block[] = [];
    const caption = kids(t, 'caption')[0];
    if (caption) out.push({ t: 'p', text: this.inlineChildren(caption).trim() });
    const sections = kids(t);
    const rows: XNode[] = [];
    const order = ['thead', 'tr', 'tbody', 'tfoot'];
    const sorted = [...sections].sort((a, b) => order.indexOf(a.name === 'tr' ? 'tbody' : a.name!) - order.indexOf(b.name === 'tr' ? 'tbody' : b.name!));
    for (const s of sorted) {
      if (s.name === 'tr') rows.push(s);
      else if (s.name === 'thead' || s.name === 'tbody' || s.name === 'tfoot') append(rows, kids(s, 'tr'));
    }
    const cellsOf = (tr: XNode) => kids(tr).filter((c) => c.name === 'td' || c.name === 'th');
    // A table marked as layout (`role="presentation"`, as e-mails mark theirs) or of one column without header cells
    // (an e-mail's or an old page's frame around its content) holds no data: its cells' content is read in order, as
    // a browser shows it, headings, lists and nested tables kept.
    const thead = sections.some((s) => s.name === 'thead');
    const marked = thead || rows.some((tr) => cellsOf(tr).some((c) => c.name === 'th'));
    const layout = ['presentation', 'none'].includes((attr(t, 'role') ?? '').trim().toLowerCase());
    if (layout || (!marked && rows.every((tr) => cellsOf(tr).filter((td) => this.shows(td)).length <= 1))) {
      for (const tr of rows) for (const td of cellsOf(tr)) append(out, this.blocks(td));
      return out;
    }
    const grid: string[][] = [];
    const taken: boolean[][] = [];
    rows.forEach((tr, r) => {
      grid[r] ??= [];
      taken[r] ??= [];
      let col = 0;
      for (const td of kids(tr)) {
        if (td.name !== 'td' && td.name !== 'th') continue;
        while (taken[r][col]) col++;
        const text = flattenBlocks(this.blocks(td));
        const cs = Math.min(100, Math.max(1, Number.parseInt(attr(td, 'colspan') ?? '1', 10) || 1));
        const rs = Math.min(1000, Math.max(1, Number.parseInt(attr(td, 'rowspan') ?? '1', 10) || 1));
        for (let dr = 0; dr < rs && r + dr < rows.length; dr++) {
          grid[r + dr] ??= [];
          taken[r + dr] ??= [];
          for (let dc = 0; dc < cs; dc++) {
            grid[r + dr][col + dc] = dr === 0 && dc === 0 ? text : '';
            taken[r + dr][col + dc] = true;
          }
        }
        col += cs;
      }
    });
    const cells = grid.map((r) => Array.from(r, (x) => x ?? ''));
    // A header the page marks (`<thead>`, `<th>` in the first row) stays the header; else title rows are captions.
    const headed = thead || cellsOf(rows[0]).some((c) => c.name === 'th');
    append(out, headed ? [{ t: 'table', rows: cells }] : captionedTable(cells));
    return out;
  }
}

export function flattenBlocks(blocks: Block[]): string {
  const lines: string[] = [];
  for (const b of blocks) {
    if (b.t === 'table') append(lines, b.rows.map((r) => r.filter((x) => x.trim()).join(' ')));
    else if (b.t === 'quote') lines.push(flattenBlocks(b.blocks));
    else if (b.t === 'code') lines.push(b.text);
    else lines.push(writeMarkdown([b]).trim());
  }
  return lines.filter((l) => l.trim()).join('\n');
}

/** An inline element whose font (a `<font face>`, or a `font-family` in its style) is monospace: its first family. */
function monospaced(c: XNode): boolean {
  const family = attr(c, 'face') ?? /font-family\s*:\s*([^;]+)/i.exec(attr(c, 'style') ?? '')?.[1];
  const first = family?.split(',')[0].trim().replace(/^["']|["']$/g, '');
  return !!first && (MONO_FONT.test(first) || /^monospace$/i.test(first));
}
