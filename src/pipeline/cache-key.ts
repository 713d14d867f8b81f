/**
 * The result cache key: endpoint and canonical input (sorted keys, defaults filled, case folded), never `tags`
 * or `maxAge`, which change who asked and how fresh, not what the answer is. Test mode has its own namespace so a
 * sample never answers a live call.
 */
import { createHash } from 'node:crypto';

const NOT_PART_OF_THE_ANSWER = new Set(['tags', 'maxAge']);

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function cacheKey(mode: 'live' | 'test', endpointId: string, input: Record<string, unknown>): string {
  const answerInput: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) if (!NOT_PART_OF_THE_ANSWER.has(k)) answerInput[k] = v;
  const text = canonicalJson(answerInput);
  // Short inputs are their own key (exact, and cheaper than hashing); long ones are hashed to bound key size.
  const key = text.length <= 256 ? text : createHash('sha256').update(text).digest('base64url');
  return `${mode}:${endpointId}:${key}`;
}
