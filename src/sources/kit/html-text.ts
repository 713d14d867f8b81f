/**
 * Text a platform answers as HTML (Hacker News comments, Mastodon statuses and bios) as plain text: paragraphs and
 * headings end with a blank line, blocks and `<br>` start lines, list items get "- ", `<pre>` keeps its spacing,
 * links keep their text. Read through the bounded DOM, so a hostile fragment costs nothing unusual.
 */
import type { ChildNode } from 'domhandler';
import { isTag, isText } from 'domhandler';
import { parseHtml } from './web/dom.js';

const BLOCK = new Set(['p', 'div', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'tr', 'blockquote', 'pre']);
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre']);
const SKIPPED = new Set(['script', 'style', 'template']);

export function htmlText(html: string | undefined): string | undefined {
  if (!html) return undefined;
  let out = '';
  const line = () => {
    if (out && !out.endsWith('\n')) out += '\n';
  };
  // A paragraph stands a blank line apart from what comes before and after it.
  const blank = () => {
    line();
    if (out && !out.endsWith('\n\n')) out += '\n';
  };
  type Step = ChildNode | 'line' | 'para' | 'endPre';
  const todo: Step[] = [...parseHtml(html).children].reverse();
  let pre = 0;
  while (todo.length) {
    const n = todo.pop()!;
    if (n === 'line') line();
    else if (n === 'para') blank();
    else if (n === 'endPre') pre--;
    // Inside <pre>, line breaks and leading spaces survive the trimming below behind markers taken out at the end.
    else if (isText(n)) out += pre > 0 ? `\u2060${n.data.replace(/\n/g, '\u2028')}` : n.data.replace(/\s+/g, ' ');
    else if (isTag(n) && !SKIPPED.has(n.name)) {
      if (n.name === 'br') {
        out += '\n';
        continue;
      }
      if (BLOCK.has(n.name)) {
        if (PARAGRAPH.has(n.name)) blank();
        else line();
        todo.push(PARAGRAPH.has(n.name) ? 'para' : 'line');
      }
      if (n.name === 'pre') {
        pre++;
        todo.push('endPre');
      }
      if (n.name === 'li') out += '- ';
      for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
    }
  }
  const text = out
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    // Lines of a <pre> were kept apart from the trimming above, their own spacing intact.
    .replace(/\u2028/g, '\n')
    .replace(/\u2060/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text || undefined;
}
