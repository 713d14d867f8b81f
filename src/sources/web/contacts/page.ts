/**
 * One fetched HTML page, read once with htmlparser2: title, language, links (with their text and whether they sit
 * in the footer), the visible text, and the places contacts hide in markup (mailto:/tel: links, Cloudflare's
 * e-mail protection, JSON-LD). The tree is the kit's bounded one (../../kit/web/dom.ts) and the walk is iterative,
 * so a hostile nesting depth can neither stall the parser nor overflow the stack.
 */
import type { ChildNode, Element } from 'domhandler';
import { parseHtml } from '../../kit/web/dom.js';

export interface PageLink {
  /** The href as written (entities decoded), resolved against the page's base. */
  href: string;
  text: string;
  inFooter: boolean;
}

export interface PageDoc {
  title?: string;
  lang?: string;
  links: PageLink[];
  /** Visible text, blocks separated by newlines. */
  text: string;
  /** Addresses decoded from Cloudflare's `data-cfemail` / `/cdn-cgi/l/email-protection#…`. */
  cfEmails: string[];
  /** Parsed `application/ld+json` blocks (unparseable ones are skipped). */
  jsonLd: unknown[];
}

/** Tags whose content is never visible text. */
const INVISIBLE = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'head', 'iframe', 'object', 'canvas', 'select', 'textarea']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'li', 'main', 'nav', 'ol', 'p', 'pre',
  'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'option', 'label', 'button',
]);
/** Text kept per page: enough for any real page's words, bounded for the phone matcher. */
const MAX_TEXT = 200_000;
const MAX_JSON_LD = 256 * 1024;

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

const isFooter = (el: Element): boolean =>
  el.name === 'footer' || el.attribs.role === 'contentinfo' || /(?:^|[\s_-])footer/i.test(`${el.attribs.id ?? ''} ${el.attribs.class ?? ''}`);

export function readDocument(html: string, pageUrl: string): PageDoc {
  const doc = parseHtml(html);
  let base = new URL(pageUrl);
  const links: PageLink[] = [];
  const cfEmails: string[] = [];
  const jsonLd: unknown[] = [];
  const text: string[] = [];
  let textLength = 0;
  let title: string | undefined;
  let ogTitle: string | undefined;
  let lang: string | undefined;
  // Open anchors collect their text as the walk passes through them.
  const openLinks: { link: PageLink; parts: string[] }[] = [];

  type Frame = { node: ChildNode; footer: boolean; hidden: boolean } | { exit: Element; link?: { link: PageLink; parts: string[] } };
  const stack: Frame[] = [...doc.children].reverse().map((node) => ({ node, footer: false, hidden: false }));
  while (stack.length) {
    const frame = stack.pop()!;
    if ('exit' in frame) {
      if (BLOCK.has(frame.exit.name)) text.push('\n');
      if (frame.link) {
        frame.link.link.text = collapse(frame.link.parts.join(' ')) || frame.link.link.text;
        openLinks.splice(openLinks.indexOf(frame.link), 1);
      }
      continue;
    }
    const { node } = frame;
    if (node.type === 'text') {
      if (frame.hidden) continue;
      const data = node.data;
      if (textLength < MAX_TEXT) {
        const kept = data.length > MAX_TEXT - textLength ? data.slice(0, MAX_TEXT - textLength) : data;
        text.push(kept);
        textLength += kept.length;
      }
      // Link text only feeds the ranking: its first words are enough.
      for (const open of openLinks) if (open.parts.length < 20) open.parts.push(data.slice(0, 200));
      continue;
    }
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const el = node as Element;
    const a = el.attribs;
    const name = el.name;
    if (name === 'html' && a.lang) lang = a.lang.trim();
    if (name === 'base' && a.href && URL.canParse(a.href, base)) base = new URL(a.href, base);
    if (name === 'title' && title === undefined) title = collapse(textOf(el));
    if (name === 'meta' && /^og:title$/i.test(a.property ?? '')) ogTitle = collapse(a.content ?? '');
    if (name === 'script') {
      if (/ld\+json/i.test(a.type ?? '')) {
        const body = textOf(el);
        if (body.length <= MAX_JSON_LD) {
          try {
            jsonLd.push(JSON.parse(body));
          } catch {
            /* broken JSON-LD is common; skip it */
          }
        }
      }
      continue;
    }
    if (a['data-cfemail']) pushDefined(cfEmails, decodeCfEmail(a['data-cfemail']));
    const footer = frame.footer || isFooter(el);
    const hidden = frame.hidden || INVISIBLE.has(name);
    let linkFrame: { link: PageLink; parts: string[] } | undefined;
    if ((name === 'a' || name === 'area' || (name === 'link' && /\bme\b/i.test(a.rel ?? ''))) && a.href) {
      const protectedHash = /\/cdn-cgi\/l\/email-protection#([0-9a-f]+)/i.exec(a.href)?.[1];
      if (protectedHash) pushDefined(cfEmails, decodeCfEmail(protectedHash));
      const href = resolve(a.href, base);
      if (href) {
        const link: PageLink = { href, text: collapse(a['aria-label'] ?? a.title ?? a.alt ?? ''), inFooter: footer };
        links.push(link);
        if (name === 'a') {
          linkFrame = { link, parts: [] };
          openLinks.push(linkFrame);
        }
      }
    }
    if (name === 'img' && a.alt) for (const open of openLinks) open.parts.push(a.alt);
    stack.push({ exit: el, link: linkFrame });
    for (let i = el.children.length - 1; i >= 0; i--) stack.push({ node: el.children[i], footer, hidden });
  }
  return {
    title: title || ogTitle || undefined,
    lang,
    links,
    text: text.join('').replace(/[ \t\f\v\u00a0]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim(),
    cfEmails,
    jsonLd,
  };
}

function pushDefined(list: string[], v: string | undefined): void {
  if (v) list.push(v);
}

/** Text of an element's subtree (title, script bodies), iteratively. */
function textOf(el: Element): string {
  const out: string[] = [];
  const stack: ChildNode[] = [...el.children].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') out.push(n.data);
    else if ('children' in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as ChildNode);
  }
  return out.join('');
}

/** mailto:/tel: links are kept as written; page links are made absolute. */
function resolve(href: string, base: URL): string | undefined {
  const h = href.trim();
  if (/^(?:mailto|tel|callto):/i.test(h)) return h;
  if (!URL.canParse(h, base)) return undefined;
  return new URL(h, base).href;
}

/** Cloudflare's scheme: hex bytes, the first is the key every following byte is XORed with. */
export function decodeCfEmail(hex: string): string | undefined {
  if (!/^(?:[0-9a-f]{2}){2,200}$/i.test(hex)) return undefined;
  const bytes = Buffer.from(hex, 'hex');
  for (let i = 1; i < bytes.length; i++) bytes[i] ^= bytes[0];
  return new TextDecoder().decode(bytes.subarray(1));
}
