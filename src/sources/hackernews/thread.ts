/**
 * Fetching a thread from the Firebase API, which answers one item per request: level by level (all replies to the
 * item, then their replies), so a `limit` cut keeps the upper levels whole and a thread costs at most `limit`
 * requests.
 */
import type { Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';
import { fetchItems } from './client.js';
import { kidsOf } from './normalise.js';

/** The items under `root`, by id: at most `limit`, at most `maxDepth` levels; ids Firebase does not know map to `{}`. */
export async function walkThread(ctx: SourceContext, root: Obj, limit: number, maxDepth?: number): Promise<Map<string, Obj>> {
  const fetched = new Map<string, Obj>();
  let level = kidsOf(root);
  let budget = limit;
  for (let depth = 0; level.length && budget > 0 && (maxDepth === undefined || depth < maxDepth); depth++) {
    const take = [...new Set(level.filter((id) => !fetched.has(id)))].slice(0, budget);
    budget -= take.length;
    const items = await fetchItems(ctx, take);
    const next: string[] = [];
    take.forEach((id, i) => {
      const item = items[i];
      fetched.set(id, item ?? {});
      if (item) next.push(...kidsOf(item));
    });
    level = next;
  }
  return fetched;
}
