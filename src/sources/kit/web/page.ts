/**
 * A fetched page as the open-web sources read it: status, final address, headers, bytes and the redirects on the
 * way, plus how to read its bytes as text (the HTTP charset, else a BOM or `<meta charset>`, else UTF-8) and whether
 * it is HTML at all. Plain data, so a test or a sample builder can hand one over without a network.
 */
import { decodeHtml } from '../../../parse/html.js';
import type { UpstreamRedirect } from '../../../upstream/types.js';

export interface Fetched {
  status: number;
  /** Final address, after redirects. */
  url: string;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** The redirects followed before this answer, in order. */
  redirects: UpstreamRedirect[];
  /** Milliseconds from the request to the whole body (redirects included). */
  elapsedMs?: number;
}

/** The media type of a Content-Type header, lower case; '' when there is none. */
export function contentType(headers: Record<string, string>): string {
  return (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Whether an answer is an HTML page: its type says HTML; or it names no type, or a generic one (text/plain, octet
 * streams), and its first bytes look like HTML.
 */
export function looksLikeHtml(page: Pick<Fetched, 'headers' | 'body'>): boolean {
  const type = contentType(page.headers);
  if (type.includes('html')) return true;
  if (type && !/^(?:text\/plain|application\/octet-stream|binary\/octet-stream)$/.test(type)) return false;
  return /<!doctype html|<html[\s>]|<head[\s>]|<body[\s>]/i.test(page.body.subarray(0, 2048).toString('latin1'));
}

/**
 * Bytes to text: the HTTP charset when it names one, else BOM / `<meta charset>` / UTF-8 (as web.parse decodes). A
 * Latin-1 or ASCII label in the header is not trusted (servers send it by default): the page's own bytes decide.
 */
export function decodePage(body: Uint8Array, contentTypeHeader = ''): string {
  const label = /charset\s*=\s*["']?([a-zA-Z0-9_.:-]+)/i.exec(contentTypeHeader)?.[1]?.toLowerCase();
  if (label && !/^(windows-1252|cp1252|iso-8859-1|iso8859-1|latin1|l1|us-ascii|ascii)$/.test(label)) {
    try {
      return new TextDecoder(label).decode(body);
    } catch {
      /* unknown label: sniff */
    }
  }
  return decodeHtml(body);
}

/** A fetched page's text, decoded by its charset. */
export function pageText(page: Pick<Fetched, 'headers' | 'body'>): string {
  return decodePage(page.body, page.headers['content-type']);
}
