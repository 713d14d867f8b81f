/** Source health in this process: minute buckets for the last hour, hour buckets for the last day. */
import { HOUR_MS, MINUTE_MS, addCounts, countEvent, emptyCounts, toWindow, type Counts, type SourceEvent, type SourceStats } from './types.js';

interface Buckets {
  minutes: Map<number, Counts>;
  hours: Map<number, Counts>;
}

export class MemorySourceStats implements SourceStats {
  private readonly bySource = new Map<string, Buckets>();

  constructor(private readonly now: () => number = Date.now) {}

  record(e: SourceEvent): void {
    const t = this.now();
    let b = this.bySource.get(e.source);
    if (!b) this.bySource.set(e.source, (b = { minutes: new Map(), hours: new Map() }));
    for (const [map, size, keep] of [
      [b.minutes, MINUTE_MS, 60],
      [b.hours, HOUR_MS, 24],
    ] as const) {
      const start = Math.floor(t / size) * size;
      let c = map.get(start);
      if (!c) {
        map.set(start, (c = emptyCounts()));
        for (const k of map.keys()) if (k <= start - keep * size) map.delete(k);
      }
      countEvent(c, e);
    }
  }

  async summary(sources: readonly string[], nowMs: number) {
    const out: Awaited<ReturnType<SourceStats['summary']>> = {};
    for (const source of sources) {
      const b = this.bySource.get(source);
      const hour = emptyCounts();
      const day = emptyCounts();
      for (const [start, c] of b?.minutes ?? []) if (start > nowMs - HOUR_MS) addCounts(hour, c);
      for (const [start, c] of b?.hours ?? []) if (start > nowMs - 24 * HOUR_MS) addCounts(day, c);
      out[source] = { lastHour: toWindow(hour), lastDay: toWindow(day) };
    }
    return out;
  }
}
