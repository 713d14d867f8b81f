/**
 * Source health: every live fetch (and canary probe) reports its outcome, upstream latency and whether the answer's
 * shape drifted; GET /v1/sources shows the last hour and day per source. In-process (./memory.ts) or shared by all
 * instances (./redis.ts), chosen once in the composition root like the cache and limits.
 */

export interface SourceEvent {
  source: string;
  /** `ok`, or the error code the call failed with. */
  outcome: string;
  latencyMs: number;
  /** The answer no longer matched the record's schema (counted as `sourceChanged` too). */
  drift?: boolean;
}

export interface WindowStats {
  calls: number;
  successes: number;
  /** Failed calls by error code. */
  errors: Record<string, number>;
  /** Upstream latency percentiles in milliseconds (interpolated in a log-scale histogram); null with no calls. */
  latencyMs: { p50: number; p95: number } | null;
  drift: number;
}

export interface SourceStats {
  /** Never throws and never waits: health must not slow or fail a call. */
  record(e: SourceEvent): void;
  /** The last hour (minute buckets) and the last day (hour buckets, the current one included) of each source. */
  summary(sources: readonly string[], nowMs: number): Promise<Record<string, { lastHour: WindowStats; lastDay: WindowStats }>>;
}

/** Latency histogram: bucket i holds latencies below 2^i ms (the last bucket everything above). */
export const LATENCY_BUCKETS = 18;

export function bucketOf(latencyMs: number): number {
  return Math.min(LATENCY_BUCKETS - 1, Math.max(0, Math.ceil(Math.log2(Math.max(1, latencyMs)))));
}

/** A bucket's counts, folded into the window's figures. */
export interface Counts {
  calls: number;
  ok: number;
  drift: number;
  errors: Record<string, number>;
  hist: number[];
}

export const emptyCounts = (): Counts => ({ calls: 0, ok: 0, drift: 0, errors: {}, hist: new Array<number>(LATENCY_BUCKETS).fill(0) });

export function addCounts(into: Counts, c: Counts): void {
  into.calls += c.calls;
  into.ok += c.ok;
  into.drift += c.drift;
  for (const [k, v] of Object.entries(c.errors)) into.errors[k] = (into.errors[k] ?? 0) + v;
  c.hist.forEach((v, i) => (into.hist[i]! += v));
}

function percentile(hist: number[], total: number, q: number): number {
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    const n = hist[i]!;
    if (n > 0 && seen + n >= rank) {
      const lo = i === 0 ? 0 : 2 ** (i - 1);
      const hi = 2 ** i;
      return Math.round(lo + ((rank - seen) / n) * (hi - lo));
    }
    seen += n;
  }
  return 2 ** (hist.length - 1);
}

export function toWindow(c: Counts): WindowStats {
  const timed = c.hist.reduce((a, b) => a + b, 0);
  return {
    calls: c.calls,
    successes: c.ok,
    errors: c.errors,
    latencyMs: timed ? { p50: percentile(c.hist, timed, 0.5), p95: percentile(c.hist, timed, 0.95) } : null,
    drift: c.drift,
  };
}

export function countEvent(c: Counts, e: SourceEvent): void {
  c.calls++;
  if (e.outcome === 'ok') c.ok++;
  else c.errors[e.outcome] = (c.errors[e.outcome] ?? 0) + 1;
  if (e.drift) c.drift++;
  c.hist[bucketOf(e.latencyMs)]!++;
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
