/**
 * `maxTextLength=N` (SPEC.md common conventions 5, CONTRACT.md "Text and documents"): a text longer than N is cut
 * to N-1 characters plus `…`, never splitting a surrogate pair; screenshots are never cut; an object that carries
 * `isTruncated` and had text cut says so. Works on a copy: the cached result stays whole.
 */
const ELLIPSIS = '…';
const NEVER_CUT = new Set(['screenshot']);

export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1; // keep the pair whole
  return text.slice(0, end) + ELLIPSIS;
}

export function truncateTexts<T>(value: T, max: number): T {
  return walk(value, max, { cut: false }) as T;
}

function walk(value: unknown, max: number, flag: { cut: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.length <= max) return value;
    flag.cut = true;
    return cutText(value, max);
  }
  if (Array.isArray(value)) return value.map((v) => walk(v, max, flag));
  if (value && typeof value === 'object') {
    const inner = { cut: false };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = NEVER_CUT.has(k) ? v : walk(v, max, inner);
    }
    if (inner.cut) {
      flag.cut = true;
      if ('isTruncated' in out) out.isTruncated = true;
    }
    return out;
  }
  return value;
}
