/**
 * SPEC.md: "Empty values are omitted from responses: null, empty strings, empty objects and empty nested lists
 * are not sent." Applied once, before a result is cached. `false` and `0` are values and stay.
 */
export function pruneEmpty<T>(value: T): T | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    const out = [];
    for (const item of value) {
      const kept = pruneEmpty(item);
      if (kept !== undefined) out.push(kept);
    }
    return (out.length ? out : undefined) as T | undefined;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    let any = false;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const kept = pruneEmpty(v);
      if (kept !== undefined) {
        out[k] = kept;
        any = true;
      }
    }
    return (any ? out : undefined) as T | undefined;
  }
  return value;
}

/** The top-level `data` object is always sent, even when everything in it was empty. */
export function pruneData(data: Record<string, unknown>): Record<string, unknown> {
  return (pruneEmpty(data) as Record<string, unknown> | undefined) ?? {};
}
