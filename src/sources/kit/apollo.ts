/**
 * Apollo GraphQL caches that pages embed (`apolloState`, `__APOLLO_STATE__`, Booking's capla store): a flat map of
 * normalised entities (`Employer:7853`) whose fields point at each other with `{ "__ref": "Employer:7853" }`, and a
 * `ROOT_QUERY` whose keys are the queries asked with their arguments (`aggregatedSalaryEstimates({"employer":…})`).
 * A page is hostile: references may loop or fan out, so resolution is bounded in depth and in total work.
 */
import { isObj, type Obj } from './read.js';

export type ApolloCache = Obj;

const MAX_DEPTH = 24;
const MAX_NODES = 200_000;

/** `value` with every `__ref` replaced by the entity it names (a missing or looping one is left out). */
export function resolveRefs(cache: ApolloCache, value: unknown): unknown {
  let budget = MAX_NODES;
  const walk = (v: unknown, depth: number, path: ReadonlySet<string>): unknown => {
    if (--budget < 0 || depth > MAX_DEPTH) return undefined;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1, path));
    if (!isObj(v)) return v;
    const ref = v.__ref;
    if (typeof ref === 'string') {
      if (path.has(ref) || !isObj(cache[ref])) return undefined;
      return walk(cache[ref], depth + 1, new Set([...path, ref]));
    }
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, depth + 1, path);
    return out;
  };
  return walk(value, 0, new Set());
}

/** The first ROOT_QUERY entry whose key starts with `field` (`employerReviews`, `search(`), resolved. */
export function rootQuery(cache: ApolloCache, field: string, accept: (v: Obj) => boolean = () => true): Obj | undefined {
  const root = cache.ROOT_QUERY;
  if (!isObj(root)) return undefined;
  for (const [key, v] of Object.entries(root)) {
    if (!key.startsWith(field)) continue;
    const resolved = resolveRefs(cache, v);
    if (isObj(resolved) && accept(resolved)) return resolved;
  }
  return undefined;
}

/** Every entity of a type (`Employer:`), resolved. */
export function entitiesOf(cache: ApolloCache, typename: string): Obj[] {
  const out: Obj[] = [];
  for (const key of Object.keys(cache)) {
    if (!key.startsWith(`${typename}:`)) continue;
    const v = resolveRefs(cache, cache[key]);
    if (isObj(v)) out.push(v);
  }
  return out;
}
