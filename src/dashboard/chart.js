// Two small SVG charts: bars over days, and a ranked list of bars. Drawn at the container's real pixel width (and
// redrawn when it changes), so text stays readable on a phone. Colours come from styles.css classes.
import { fmtNumber, h } from './ui.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** A round axis maximum and its tick step: 0, step, 2·step… ≥ max. */
export function niceScale(max, ticks = 4) {
  if (!(max > 0)) return { max: ticks, step: 1 };
  const raw = max / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((v) => v >= raw && (v >= 1 || mag < 1)) ?? 10 * mag;
  const whole = Math.max(1, Math.ceil(step));
  return { max: whole * Math.ceil(max / whole), step: whole };
}

/** Every UTC day from `fromIso` to `toIso` with its value (0 where no calls were made). */
export function fillDays(byDay, fromIso, toIso, metric) {
  const values = new Map(byDay.map((d) => [d.day.slice(0, 10), d[metric] ?? 0]));
  const out = [];
  const end = new Date(toIso);
  const cursor = new Date(Date.UTC(new Date(fromIso).getUTCFullYear(), new Date(fromIso).getUTCMonth(), new Date(fromIso).getUTCDate()));
  while (cursor <= end && out.length < 400) {
    const day = cursor.toISOString().slice(0, 10);
    out.push({ day, value: values.get(day) ?? 0 });
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return out;
}

const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * Bars per day. `label` names the measure ("Credits"); the SVG is an image with a one-line summary, the numbers
 * themselves are in the table the page puts next to it.
 */
export function dayChart(points, { label, summary }) {
  const host = h('div', { class: 'chart' });
  const draw = () => {
    const width = Math.max(260, Math.floor(host.clientWidth || 600));
    const height = width < 480 ? 180 : 220;
    const pad = { top: 12, right: 8, bottom: 26, left: 40 };
    const innerW = width - pad.left - pad.right;
    const innerH = height - pad.top - pad.bottom;
    const { max, step } = niceScale(Math.max(0, ...points.map((p) => p.value)));
    const y = (v) => pad.top + innerH - (v / max) * innerH;
    const slot = innerW / Math.max(1, points.length);
    const barW = Math.max(2, Math.min(28, slot * 0.7));

    const svg = s('svg', { width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': summary, class: 'chart-svg' });
    for (let v = 0; v <= max; v += step) {
      svg.append(s('line', { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: v === 0 ? 'axis' : 'grid' }));
      svg.append(s('text', { x: pad.left - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'tick' }, fmtNumber(v)));
    }
    // Label every k-th day so labels never overlap (about 56 px each).
    const every = Math.max(1, Math.ceil(56 / slot));
    points.forEach((p, i) => {
      const x = pad.left + i * slot + (slot - barW) / 2;
      const top = y(p.value);
      if (p.value > 0) {
        const bar = s('rect', { x, y: top, width: barW, height: Math.max(1, pad.top + innerH - top), rx: Math.min(3, barW / 3), class: 'bar' });
        bar.append(s('title', {}, `${dayLabel.format(new Date(p.day))}: ${fmtNumber(p.value)} ${label.toLowerCase()}`));
        svg.append(bar);
      }
      if ((points.length - 1 - i) % every === 0) {
        // Labels at the edges are anchored inwards so they are never cut off.
        const cx = x + barW / 2;
        const anchor = cx + 26 > width ? 'end' : cx - 26 < 0 ? 'start' : 'middle';
        const tx = anchor === 'end' ? Math.min(cx + barW / 2, width - 2) : anchor === 'start' ? Math.max(2, cx - barW / 2) : cx;
        svg.append(s('text', { x: tx, y: height - 8, 'text-anchor': anchor, class: 'tick' }, dayLabel.format(new Date(p.day))));
      }
    });
    host.replaceChildren(svg);
  };
  // Drawn once attached (so the width is known), then whenever the width changes.
  let lastWidth = -1;
  const ro = new ResizeObserver(() => {
    const w = Math.floor(host.clientWidth);
    if (w !== lastWidth) {
      lastWidth = w;
      draw();
    }
  });
  ro.observe(host);
  return host;
}

/** A ranked list: each row a name, its figure and a proportional SVG bar. */
export function barList(items, { label, valueText }) {
  const max = Math.max(1, ...items.map((i) => i.value));
  return h(
    'ul',
    { class: 'barlist', 'aria-label': label },
    items.map((item) => {
      const pct = (item.value / max) * 100;
      const svg = s('svg', { viewBox: '0 0 100 6', preserveAspectRatio: 'none', class: 'barlist-svg', 'aria-hidden': 'true', focusable: 'false' });
      svg.append(s('rect', { x: 0, y: 0, width: 100, height: 6, rx: 0, class: 'track' }));
      svg.append(s('rect', { x: 0, y: 0, width: Math.max(item.value > 0 ? 0.8 : 0, pct), height: 6, class: 'bar' }));
      return h('li', { class: 'barlist-row' }, h('div', { class: 'barlist-head' }, item.href ? h('a', { class: 'barlist-name', href: item.href, title: item.linkTitle }, item.name) : h('span', { class: 'barlist-name' }, item.name), h('span', { class: 'barlist-value' }, valueText(item))), svg);
    }),
  );
}
