/**
 * The contract every source implements. A source knows its upstream and its normaliser; it never imports the
 * pipeline, and the pipeline never imports a source by name (only through the registry).
 */
import type { EndpointDef } from '../catalogue/types.js';
import type { SettingDeclaration } from '../config.js';
import type { UpstreamClient } from '../upstream/types.js';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface SourceContext {
  /** Aborted when the caller goes away or the server shuts down. */
  signal: AbortSignal;
  /** The shared upstream client, already bound to this source's limits, proxy and upstream overrides. */
  http: UpstreamClient;
  log: Logger;
  /** Operator settings for this source, from QUARRY_<SOURCE>_<NAME> environment variables (its needs.settings). */
  settings: Readonly<Record<string, string | undefined>>;
}

/** What an operation hands back: the endpoint's `data`, and the result count where price depends on it. */
export interface OperationResult<O = Record<string, unknown>> {
  data: O;
  /** Number of results returned, for endpoints priced per item; counted from the endpoint's `itemsField` when absent. */
  items?: number;
  /** True when the call returned nothing worth paying for (SPEC: requests that return nothing are not billed). */
  free?: boolean;
}

/** One endpoint's implementation, bound to its declaration (./kit/operation.ts builds these). */
export interface Operation<I = any, O = any> {
  /** The catalogue declaration this operation serves (the same object the catalogue lists). */
  endpoint: EndpointDef<I, O>;
  /** Live call: upstream request(s) through ctx.http, then the normaliser. Input is validated, defaults filled. */
  run(input: I, ctx: SourceContext): Promise<OperationResult<O>>;
  /** Test-mode answer from the committed, normalised samples; never goes upstream. */
  sample(input: I): OperationResult<O> | Promise<OperationResult<O>>;
}

/** What a source needs from the operator, shown in GET /v1/sources. */
export interface SourceNeeds {
  /**
   * Operator settings (QUARRY_<SOURCE>_<NAME>, `name` without the prefix): whether the source works without them,
   * what they give, and the integer bounds of numeric ones. ctx.settings holds these alone (and the network
   * settings): a read of an undeclared one throws.
   */
  settings?: SettingDeclaration[];
  /** Outbound network it needs beyond HTTPS (e.g. port 25, port 43). */
  network?: string[];
  /** Whether an outbound proxy is advised (platforms that block data-centre addresses). */
  proxy?: 'advised' | 'required';
}

export interface SourceModule {
  /** Source id as in endpoint ids (`reddit`). */
  id: string;
  needs?: SourceNeeds;
  operations: readonly Operation[];
  /** Endpoints of this source with no operation yet, each with the reason (shown in the catalogue). */
  notBuilt?: Readonly<Record<string, string>>;
}
