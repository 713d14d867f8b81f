/** Chart parts (DrawingML `c:chartSpace`) as data: a `Chart: <title>` line and a table of categories by series. */
import { esc } from './inline.js';
import type { Block } from './types.js';
import { attr, child, find, findAll, kids, textOf, type XNode } from './xml.js';

/** A `c:title`'s text: rich text, or the cached value of the cell it refers to. */
const titleText = (title: XNode | undefined) => textOf(find(title, 'c:rich')).trim() || textOf(find(title, 'c:v')).trim();

/**
 * The category axis's title, for the first column's header: a `c:catAx` or `c:dateAx`, or for a scatter chart
 * (two value axes) the horizontal one (`c:axPos` bottom or top).
 */
function categoryTitle(chart: XNode): string {
  const plot = find(chart, 'c:plotArea');
  const axis = child(plot, 'c:catAx') ?? child(plot, 'c:dateAx') ?? kids(plot, 'c:valAx').find((a) => /^[bt]$/.test(attr(child(a, 'c:axPos'), 'val') ?? ''));
  return titleText(child(axis, 'c:title'));
}

export function chartBlocks(chart: XNode): Block[] {
  // The chart's own title, not the first one found (an untitled chart's axes may have titles).
  const titled = child(find(chart, 'c:chart'), 'c:title');
  const series = findAll(chart, 'c:ser');
  if (!series.length) return [];
  const points = (n: XNode | undefined) => {
    const arr: string[] = [];
    for (const pt of findAll(n, 'c:pt')) arr[Number(attr(pt, 'idx') ?? arr.length)] = textOf(child(pt, 'c:v'));
    return arr;
  };
  const cats = points(child(series[0], 'c:cat') ?? child(series[0], 'c:xVal'));
  const cols = series.map((s) => ({ name: textOf(find(child(s, 'c:tx'), 'c:v')) || textOf(child(s, 'c:tx')), vals: points(child(s, 'c:val') ?? child(s, 'c:yVal')) }));
  // A title without text is drawn by Office as the name of the chart's only series (LibreOffice writes it out).
  const title = titleText(titled) || (titled && cols.length === 1 ? cols[0].name.trim() : '');
  const n = Math.max(cats.length, ...cols.map((c) => c.vals.length));
  const rows: string[][] = [[esc(categoryTitle(chart) || 'Category'), ...cols.map((c) => esc(c.name.trim()))]];
  for (let i = 0; i < n; i++) rows.push([esc(cats[i] ?? ''), ...cols.map((c) => esc(c.vals[i] ?? ''))]);
  return [{ t: 'p', text: `Chart: ${esc(title || 'untitled')}` }, { t: 'table', rows }];
}
