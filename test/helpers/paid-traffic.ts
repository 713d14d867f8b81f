/**
 * Mixed paid traffic against reddit.subforum for the fault tests: a third cache hits, the rest live fetches
 * (`maxAge: 0`) with varying `limit`, so both billing paths are in flight whenever a fault strikes.
 */
import { post, type CallResponse } from './gateway.js';

export interface TrafficOptions {
  apiKey: string;
  /** Concurrent request loops. */
  loops: number;
  /** The base address the i-th request goes to (several instances may share the load). */
  target: (i: number) => string;
  onAnswer: (r: CallResponse) => void;
  /** A server is about to be killed: a dropped connection ends its loop instead of failing the test. */
  expectDisconnect?: boolean;
}

export function startPaidTraffic(o: TrafficOptions): { stop(): Promise<void> } {
  let stopped = false;
  let n = 0;
  const loop = async () => {
    while (!stopped) {
      const i = n++;
      const body = i % 3 === 0 ? { subforum: 'golang', limit: 10 } : { subforum: 'golang', limit: 1 + (i % 100), maxAge: 0 };
      let r: CallResponse;
      try {
        r = await post(o.target(i), '/v1/reddit/subforum', body, { key: o.apiKey });
      } catch (e) {
        if (o.expectDisconnect) return;
        throw e;
      }
      o.onAnswer(r);
    }
  };
  const running = Array.from({ length: o.loops }, loop);
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/**
 * Traffic to a server that is about to be killed: runs until `successes` calls succeeded, then hands back their
 * request ids (still growing while the loops run) and the traffic to stop.
 */
export async function trafficBeforeKill(o: { apiKey: string; target: () => string; successes: number }): Promise<{
  succeeded: string[];
  traffic: { stop(): Promise<void> };
}> {
  const succeeded: string[] = [];
  const traffic = startPaidTraffic({
    apiKey: o.apiKey,
    loops: 12,
    target: o.target,
    onAnswer: (r) => r.status === 200 && succeeded.push(r.json.requestId),
    expectDisconnect: true,
  });
  while (succeeded.length < o.successes) await new Promise((r) => setTimeout(r, 5));
  return { succeeded, traffic };
}
