/**
 * The result cache key: endpoint and canonical input (sorted keys, defaults filled, case folded), never `tags`
 * or `maxAge`, which change who asked and how fresh, not what the answer is. Test mode has its own namespace so a
 * sample never answers a live call.
 */
import { createHash } from 'node:crypto';

const NOT_PART_OF_THE_ANSWER = new Set(['tags', 'maxAge']);

type Frame = { items: unknown[]; i: number } | { obj: Record<string, unknown>; keys: string[]; i: number };

/**
 * JSON with object keys sorted, at any depth: a loop over an explicit stack, never recursion (a deeply nested
 * body must not overflow the call stack; bodies are also depth-checked on arrival, `http/body.ts`). The text is
 * exactly what the earlier recursive form wrote, so cache keys and idempotency fingerprints stay the same.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let out = '';
  const stack: Frame[] = [];
  const begin = (v: unknown, inArray: boolean): void => {
    if (Array.isArray(v)) {
      out += '[';
      stack.push({ items: v, i: 0 });
    } else if (v && typeof v === 'object') {
      out += '{';
      stack.push({ obj: v as Record<string, unknown>, keys: Object.keys(v).sort(), i: 0 });
    } else {
      // What JSON.stringify cannot write (undefined) was an empty item in an array and the word in an object.
      const text = JSON.stringify(v) as string | undefined;
      out += text ?? (inArray ? '' : 'undefined');
    }
  };
  begin(value, false);
  while (stack.length) {
    const f = stack[stack.length - 1]!;
    if ('items' in f) {
      if (f.i === f.items.length) {
        out += ']';
        stack.pop();
        continue;
      }
      if (f.i > 0) out += ',';
      begin(f.items[f.i++], true);
    } else {
      if (f.i === f.keys.length) {
        out += '}';
        stack.pop();
        continue;
      }
      if (f.i > 0) out += ',';
      const k = f.keys[f.i++]!;
      out += `${JSON.stringify(k)}:`;
      begin(f.obj[k], false);
    }
  }
  return out;
}

export function cacheKey(mode: 'live' | 'test', endpointId: string, input: Record<string, unknown>): string {
  const answerInput: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!NOT_PART_OF_THE_ANSWER.has(k)) answerInput[k] = v;
  const text = canonicalJson(answerInput);
  // Short inputs are their own key (exact, and cheaper than hashing); long ones are hashed to bound key size.
  const key = text.length <= 256 ? text : createHash('sha256').update(text).digest('base64url');
  return `${mode}:${endpointId}:${key}`;
}
