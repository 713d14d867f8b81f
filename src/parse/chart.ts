/** Chart parts (DrawingML `c:chartSpace`) as data: a `Chart: <title>` line and a table of categories by series. */
import { esc } from './inline.js';
import type { Block } from './types.js';
import { attr, child, find, findAll, textOf, type XNode } from './xml.js';

export function chartBlocks(chart: XNode): Block[] {
  const title = textOf(find(find(chart, 'c:title'), 'c:rich')).trim() || textOf(find(find(chart, 'c:title'), 'c:v')).trim();
  const series = findAll(chart, 'c:ser');
  if (!series.length) return [];
  const points = (n: XNode | undefined) => {
    const arr: string[] = [];
    for (const pt of findAll(n, 'c:pt')) arr[Number(attr(pt, 'idx') ?? arr.length)] = textOf(child(pt, 'c:v'));
    return arr;
  };
  const cats = points(child(series[0], 'c:cat') ?? child(series[0], 'c:xVal'));
  const cols = series.map((s) => ({ name: textOf(find(child(s, 'c:tx'), 'c:v')) || textOf(child(s, 'c:tx')), vals: points(child(s, 'c:val') ?? child(s, 'c:yVal')) }));
  const n = Math.max(cats.length, ...cols.map((c) => c.vals.length));
  const rows: string[][] = [['Category', ...cols.map((c) => esc(c.name.trim()))]];
  for (let i = 0; i < n; i++) rows.push([esc(cats[i] ?? ''), ...cols.map((c) => esc(c.vals[i] ?? ''))]);
  return [{ t: 'p', text: `Chart: ${esc(title || 'untitled')}` }, { t: 'table', rows }];
}
