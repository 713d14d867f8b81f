/**
 * The canary (operator-enabled with QUARRY_CANARY_INTERVAL_SECONDS): on a schedule, each served endpoint's catalogue
 * example is fetched live through the same watched path as a real call, so outages and format drift show in
 * GET /v1/sources before a customer meets them. Never billed, never cached, one endpoint at a time.
 */
import { findOperation } from '../sources/registry.js';
import { liveFetch } from './call.js';
import type { GatewayDeps } from './deps.js';

export function startCanary(deps: GatewayDeps, intervalSeconds: number): { stop(): void } {
  let running = false;
  const round = async () => {
    if (running) return; // a slow round is not stacked on
    running = true;
    try {
      for (const endpoint of deps.catalogue.endpoints) {
        if (deps.shutdownSignal.aborted) return;
        const found = endpoint.unavailable === undefined && endpoint.def.example ? findOperation(endpoint.def.id) : undefined;
        if (!found) continue;
        try {
          await liveFetch(deps, endpoint, found.operation, endpoint.validate(structuredClone(endpoint.def.example!)));
        } catch {
          // Counted by liveFetch; the canary only watches.
        }
      }
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), intervalSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
