/**
 * News feeds as items: RSS 2.0 (`channel > item`, Google News' `<source url>` included) and Atom (`feed > entry`).
 * Bytes are decoded by the XML declaration's encoding (feeds in ISO-8859-1 exist), then parsed in XML mode, which
 * never expands entities beyond the predefined ones. Hostile feeds are bounded (size, items, text).
 */
import type { Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import { isoFromText } from '../../kit/read.js';
import { clean } from './filters.js';
import { findAllIn, firstIn, fragmentText, textOf } from './html.js';

const MAX_FEED = 8 * 1024 * 1024;
const MAX_ITEMS = 1000;

export interface FeedItem {
  id?: string;
  title: string;
  link: string;
  publishedAt?: string;
  description?: string;
  source?: { name: string; url?: string };
  thumbnail?: string;
  language?: string;
}

/**
 * Feed bytes as text: the XML declaration's encoding, else the HTTP charset, else UTF-8; bytes that are not UTF-8
 * without any label (feeds written in Latin-1 that declare nothing) are read as windows-1252.
 */
export function decodeFeed(bytes: Buffer, contentType = ''): string {
  const body = bytes.subarray(0, MAX_FEED);
  const head = body.subarray(0, 200).toString('latin1');
  const label =
    /^\uFEFF?<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? /charset\s*=\s*["']?([A-Za-z0-9._-]+)/i.exec(contentType)?.[1];
  if (label && !/^utf-?8$/i.test(label)) {
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      /* unknown label: sniff */
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return new TextDecoder('windows-1252').decode(body);
  }
}

/** Month names feeds write in place of RFC 822's English ones (Portuguese, Spanish, French, German, Italian). */
const MONTHS: Record<string, number> = Object.fromEntries(
  [
    ['jan', 'ene', 'janv', 'gen'],
    ['feb', 'fev', 'févr', 'fevr', 'feb'],
    ['mar', 'mär', 'mars', 'marz'],
    ['apr', 'abr', 'avr'],
    ['may', 'mai', 'mayo', 'mag'],
    ['jun', 'juin', 'giu'],
    ['jul', 'juil', 'lug'],
    ['aug', 'ago', 'août', 'aout'],
    ['sep', 'set', 'sept'],
    ['oct', 'out', 'okt', 'ott'],
    ['nov'],
    ['dec', 'dez', 'dic', 'déc'],
  ].flatMap((names, i) => names.map((n) => [n, i])),
);

/** A feed's date: any form Date reads, else RFC 822 written with another language's day and month names. */
export function feedDate(text: string | undefined): string | undefined {
  const direct = isoFromText(text);
  if (direct || !text) return direct;
  const m = /(\d{1,2})\s+([^\s\d.,]+)\.?\s+(\d{4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|GMT|UTC|Z)?/i.exec(text);
  const month = m ? MONTHS[m[2].toLowerCase().slice(0, 4)] ?? MONTHS[m[2].toLowerCase().slice(0, 3)] : undefined;
  if (!m || month === undefined) return undefined;
  const zone = !m[7] || /^(GMT|UTC|Z)$/i.test(m[7]) ? 'Z' : `${m[7].slice(0, 3)}:${m[7].slice(3)}`;
  const pad = (n: string | number) => String(n).padStart(2, '0');
  return isoFromText(`${m[3]}-${pad(month + 1)}-${pad(m[1])}T${pad(m[4])}:${m[5]}:${m[6] ?? '00'}${zone}`);
}

const local = (el: Element): string => el.name.toLowerCase().replace(/^.*:/, '');
const child = (el: Element, name: string): Element | undefined =>
  el.children.find((c): c is Element => c.type === 'tag' && ((c as Element).name.toLowerCase() === name || local(c as Element) === name)) as Element | undefined;
const childText = (el: Element, name: string): string | undefined => clean(textOf(child(el, name)));

function rssItem(item: Element, language?: string): FeedItem | undefined {
  const title = childText(item, 'title');
  const link = childText(item, 'link') ?? (child(item, 'guid')?.attribs.ispermalink !== 'false' ? childText(item, 'guid') : undefined);
  if (!title || !link) return undefined;
  const source = child(item, 'source');
  const sourceName = clean(textOf(source));
  const media = firstIn(item, (el) => /^media:(thumbnail|content)$/i.test(el.name) && Boolean(el.attribs.url));
  return {
    id: childText(item, 'guid'),
    title,
    link,
    publishedAt: feedDate(childText(item, 'pubdate') ?? childText(item, 'date')),
    description: fragmentText(textOf(child(item, 'description'))),
    ...(sourceName ? { source: { name: sourceName, ...(source?.attribs.url ? { url: source.attribs.url } : {}) } } : {}),
    thumbnail: media?.attribs.url,
    language,
  };
}

function atomEntry(entry: Element, language?: string): FeedItem | undefined {
  const title = fragmentText(textOf(child(entry, 'title')));
  const links = entry.children.filter((c): c is Element => c.type === 'tag' && local(c as Element) === 'link');
  const link = (links.find((l) => !l.attribs.rel || l.attribs.rel === 'alternate') ?? links[0])?.attribs.href;
  if (!title || !link) return undefined;
  return {
    id: childText(entry, 'id'),
    title,
    link,
    publishedAt: feedDate(childText(entry, 'published') ?? childText(entry, 'updated')),
    description: fragmentText(textOf(child(entry, 'summary') ?? child(entry, 'content'))),
    language,
  };
}

/** The items of an RSS or Atom feed, in feed order; undefined when the text is neither. */
export function readFeed(xml: string): { title?: string; items: FeedItem[] } | undefined {
  const doc = parseDocument(xml.slice(0, MAX_FEED), { xmlMode: true, decodeEntities: true });
  const root = doc.children.find((c): c is Element => c.type === 'tag');
  if (!root) return undefined;
  const kind = local(root);
  if (kind === 'rss' || kind === 'rdf') {
    const channel = child(root, 'channel') ?? root;
    const language = childText(channel, 'language');
    const items = findAllIn(root, (el) => local(el) === 'item', MAX_ITEMS);
    return { title: childText(channel, 'title'), items: items.flatMap((i) => rssItem(i, language) ?? []) };
  }
  if (kind === 'feed') {
    const language = root.attribs['xml:lang'];
    const entries = root.children.filter((c): c is Element => c.type === 'tag' && local(c as Element) === 'entry').slice(0, MAX_ITEMS);
    return { title: fragmentText(textOf(child(root, 'title'))), items: entries.flatMap((e) => atomEntry(e, language) ?? []) };
  }
  return undefined;
}
