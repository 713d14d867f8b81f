/**
 * The catalogue at run time: every declared endpoint with its compiled validator and whether this server can
 * answer it (adapter built and source enabled). Compiled once at start-up, never per request.
 */
import { compileInput, type InputValidator } from './validator.js';
import { compileRecordCheck } from './records.js';
import { pathOf, sourceOf, type EndpointDef } from './types.js';

export interface CatalogueEndpoint {
  def: EndpointDef;
  path: string;
  source: string;
  validate: InputValidator;
  /** Why the endpoint cannot be served here, or undefined when it can. */
  unavailable?: 'notBuilt' | 'disabled';
  /** The sentence that says why (catalogue entry, error message). */
  unavailableReason?: string;
  /** Checks an answer against the record schema: the offending path and rule, or null. */
  checkRecord?: (data: unknown) => string | null;
}

export class Catalogue {
  readonly endpoints: readonly CatalogueEndpoint[];
  private readonly byId = new Map<string, CatalogueEndpoint>();

  /** `notBuilt` says why an endpoint has no operation here, or undefined when it has one. */
  constructor(defs: readonly EndpointDef[], notBuilt: (id: string) => string | undefined, enabledSources?: ReadonlySet<string>) {
    this.endpoints = defs.map((def) => {
      const source = sourceOf(def.id);
      const entry: CatalogueEndpoint = { def, path: pathOf(def.id), source, validate: compileInput(def.input) };
      if (def.output) entry.checkRecord = compileRecordCheck(def.output);
      const missing = notBuilt(def.id);
      if (enabledSources && !enabledSources.has(source)) {
        entry.unavailable = 'disabled';
        entry.unavailableReason = UNAVAILABLE_TEXT.disabled;
      } else if (missing !== undefined) {
        entry.unavailable = 'notBuilt';
        entry.unavailableReason = missing;
      }
      this.byId.set(def.id, entry);
      return entry;
    });
  }

  get(id: string): CatalogueEndpoint | undefined {
    return this.byId.get(id);
  }

  /**
   * Every endpoint as people are shown them (issue 38.6): those this server serves first, then the others (not
   * built, or disabled by QUARRY_SOURCES), each group in declaration order.
   */
  listed(): CatalogueEndpoint[] {
    return [...this.endpoints.filter((e) => e.unavailable === undefined), ...this.endpoints.filter((e) => e.unavailable !== undefined)];
  }

  /** Endpoint ids, served ones first (`listed()`). */
  ids(): string[] {
    return this.listed().map((e) => e.def.id);
  }

  /** Ids of the endpoints this server does not serve. */
  unavailableIds(): string[] {
    return this.endpoints.filter((e) => e.unavailable !== undefined).map((e) => e.def.id);
  }

  /** SPEC.md "Catalogue entry", plus whether this server serves it. */
  publicEntry(e: CatalogueEndpoint): Record<string, unknown> {
    const { def } = e;
    return {
      id: def.id,
      title: def.title,
      summary: def.summary,
      method: 'POST',
      path: e.path,
      credits: def.credits,
      keyless: def.keyless,
      perItems: def.perItems,
      cacheTtlSeconds: def.cacheTtlSeconds,
      input: def.input,
      example: def.example,
      available: e.unavailable === undefined,
      ...(e.unavailableReason ? { unavailableReason: e.unavailableReason } : {}),
    };
  }
}

export const UNAVAILABLE_TEXT = {
  notBuilt: 'This endpoint is declared but its source adapter is not built on this server yet.',
  disabled: 'The operator disabled this source on this server (QUARRY_SOURCES).',
} as const;
