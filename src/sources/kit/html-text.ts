/**
 * An HTML fragment a platform answers as text (Mastodon statuses and bios, Hacker News items) as plain text, read
 * through the bounded DOM and the toolkit's block text (./web/block-text.ts).
 */
import { blockText } from './web/block-text.js';
import { parseHtml } from './web/dom.js';

export function htmlText(html: string | undefined): string | undefined {
  return html ? blockText(parseHtml(html)) : undefined;
}
