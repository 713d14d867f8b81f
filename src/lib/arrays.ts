/**
 * Array helpers safe at any length: spreading a large array into arguments (`push(...xs)`, `Math.max(...xs)`)
 * overflows the call stack at around a hundred thousand elements, which a sheet or a page can reach.
 */

/** Appends every item of `items` to `to` (in place) and returns `to`. */
export function append<T>(to: T[], items: Iterable<T>): T[] {
  for (const x of items) to.push(x);
  return to;
}

/** The smallest number (Infinity for none). */
export function minOf(xs: Iterable<number>): number {
  let m = Infinity;
  for (const x of xs) if (x < m) m = x;
  return m;
}

/** The largest number (-Infinity for none). */
export function maxOf(xs: Iterable<number>): number {
  let m = -Infinity;
  for (const x of xs) if (x > m) m = x;
  return m;
}
