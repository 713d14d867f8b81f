/**
 * Rich text (a job description, an about section) as plain text that keeps its line structure: block elements start
 * lines, paragraphs and headings end with a blank line, `<br>` breaks a line, list items get "- ", `<pre>` keeps its
 * lines and indentation, runs of blank lines shrink to one. Iterative, so it never overflows on deep trees (./dom.ts
 * bounds them anyway).
 *
 *   blockText(parseHtml('<p>One</p><ul><li>a</li><li>b</li></ul>'))   // "One\n\n- a\n- b"
 */
import { isTag, isText, type AnyNode } from 'domhandler';

const BLOCK = new Set(['p', 'div', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'tr', 'blockquote', 'pre', 'table']);
const PARAGRAPH = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table']);
const SKIPPED = new Set(['script', 'style', 'template', 'noscript']);

export function blockText(root: AnyNode | undefined): string | undefined {
  if (!root) return undefined;
  let out = '';
  const line = () => {
    if (out && !out.endsWith('\n')) out += '\n';
  };
  const todo: (AnyNode | 'line' | 'para' | 'endPre')[] = [root];
  let pre = 0;
  while (todo.length) {
    const n = todo.pop()!;
    if (n === 'line') line();
    else if (n === 'para') {
      line();
      out += '\n';
    } else if (n === 'endPre') pre--;
    // Inside <pre>, line breaks and leading spaces survive the trimming below behind markers taken out at the end.
    else if (isText(n)) out += pre > 0 ? `\u2060${n.data.replace(/\n/g, '\u2028')}` : n.data.replace(/\s+/g, ' ');
    else if (isTag(n) && n.name === 'br') out += '\n';
    else if (!isTag(n) || !SKIPPED.has(n.name)) {
      if (isTag(n) && BLOCK.has(n.name) && n !== root) {
        line();
        todo.push(PARAGRAPH.has(n.name) ? 'para' : 'line');
      }
      if (isTag(n) && n.name === 'pre') {
        pre++;
        todo.push('endPre');
      }
      if (isTag(n) && n.name === 'li') out += '- ';
      const children = 'children' in n ? n.children : [];
      for (let i = children.length - 1; i >= 0; i--) todo.push(children[i]);
    }
  }
  const text = out
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\u2028/g, '\n')
    .replace(/\u2060/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text || undefined;
}
