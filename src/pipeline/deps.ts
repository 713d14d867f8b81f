import type { PrincipalCache } from '../identity/authenticate.js';
import type { KeyCrypto } from '../identity/secret.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { Config } from '../config.js';
import type { Coalescer, InFlightLimiter, RateLimiter, ResultCache } from '../limits/types.js';
import type { Logger, SourceContext } from '../sources/types.js';
import type { Store } from '../store/types.js';
import type { SourceStats } from '../health/types.js';

/** Everything the request steps need, built once by the composition root (src/server/build.ts). */
export interface GatewayDeps {
  config: Config;
  store: Store;
  cache: ResultCache;
  rateLimiter: RateLimiter;
  inFlight: InFlightLimiter;
  /** Identical concurrent misses share one fetch (in-process, or across instances with Redis); optional. */
  coalescer?: Coalescer;
  crypto: KeyCrypto;
  principals: PrincipalCache;
  catalogue: Catalogue;
  log: Logger;
  /** Source context factory: the upstream client and settings of a source, bound to a signal. */
  sourceContext(source: string, signal: AbortSignal): SourceContext;
  /** Aborted when the server shuts down. */
  shutdownSignal: AbortSignal;
  /** Source health: outcomes, latency and format drift of live fetches (GET /v1/sources). */
  health?: SourceStats;
  /** The clock cache ages are measured with (tests move it). */
  now(): number;
  /** This instance's lease id on a store shared by instances: its credit holds name it (`instance-lease.ts`). */
  instanceId?: string;
}
