/**
 * `s` without any of `chars` at its end. A loop, where an end-anchored pattern (`/[ \t]+$/`) takes time quadratic
 * in a long run of those characters followed by anything else: a hostile file's megabyte of spaces in a `<pre>`.
 */
export function trimEndOf(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return end === s.length ? s : s.slice(0, end);
}
