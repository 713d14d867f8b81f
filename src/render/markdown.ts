/**
 * `Accept: text/markdown`: a readable rendering of any record. Generic on purpose: it follows the record's own
 * structure (headings for sections, bullets for fields, one block per list item), so every endpoint gets it.
 */
const TITLE_KEYS = ['title', 'name', 'username', 'id'];

function label(key: string): string {
  const spaced = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return /^https?:\/\//.test(v) ? `<${v}>` : v.replace(/\n+/g, ' ');
  return String(v);
}

const isScalar = (v: unknown) => v === null || typeof v !== 'object';

function titleOf(obj: Record<string, unknown>): string | undefined {
  for (const k of TITLE_KEYS) if (typeof obj[k] === 'string' && obj[k]) return obj[k] as string;
  return undefined;
}

function renderObject(obj: Record<string, unknown>, depth: number, out: string[]): void {
  const hashes = '#'.repeat(Math.min(depth, 6));
  const nested: [string, unknown][] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'markdown' && typeof v === 'string') continue; // rendered as the body below
    if (isScalar(v)) out.push(`- **${label(k)}:** ${scalar(v)}`);
    else if (Array.isArray(v) && v.every(isScalar)) out.push(`- **${label(k)}:** ${v.map(scalar).join(', ')}`);
    else nested.push([k, v]);
  }
  if (typeof obj.markdown === 'string') out.push('', obj.markdown);
  for (const [k, v] of nested) {
    out.push('', `${hashes} ${label(k)}`, '');
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        if (isScalar(item)) {
          out.push(`- ${scalar(item)}`);
          return;
        }
        const o = item as Record<string, unknown>;
        out.push(`${hashes}# ${i + 1}. ${titleOf(o) ?? label(k)}`, '');
        renderObject(o, depth + 2, out);
        out.push('');
      });
    } else {
      renderObject(v as Record<string, unknown>, depth + 1, out);
    }
  }
}

export function renderMarkdown(endpointTitle: string, data: Record<string, unknown>): string {
  const out: string[] = [`# ${endpointTitle}`, ''];
  renderObject(data, 2, out);
  return out.join('\n').replace(/\n{3,}/g, '\n\n').trim() + '\n';
}
