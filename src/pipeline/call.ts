/**
 * One data call, as a fixed list of named steps:
 * authenticate → limit → validate → read cache → (reserve → fetch once → settle | release) → result.
 * Rendering (envelope, maxTextLength, markdown) happens in the server route; billing is exact here:
 * every path that fails releases what it reserved, and every success is charged once.
 */
import type { CatalogueEndpoint } from '../catalogue/catalogue.js';
import { UNAVAILABLE_TEXT } from '../catalogue/catalogue.js';
import type { EndpointDef } from '../catalogue/types.js';
import { QuarryError, isQuarryError } from '../errors.js';
import type { CachedResult, RateDecision } from '../limits/types.js';
import { findOperation } from '../sources/registry.js';
import type { Operation, OperationResult } from '../sources/types.js';
import type { BudgetStatus, CacheOutcome, CallRecord } from '../store/types.js';
import { truncateTexts } from '../render/truncate.js';
import { createHash } from 'node:crypto';
import { isSourceFailure, type CacheDirectives } from './cache-control.js';
import { pruneData } from '../render/prune.js';
import { authenticate } from '../identity/authenticate.js';
import { cacheKey } from './cache-key.js';
import type { GatewayDeps } from './deps.js';
import type { Principal } from '../identity/principal.js';
import { acquireInFlight, checkRate, conversionTier, limitTestModeWork, rateLimitedError } from './limits.js';
import { withConversionTier, type ConversionTier } from '../parse/pool.js';
import { actualPriceFor, maxPriceFor, priceFor } from './price.js';
import { MemoryCoalescer } from '../limits/memory/coalescer.js';

export interface CallState {
  requestId: string;
  /** Set once the limit step ran, so error responses carry X-RateLimit-* too. */
  rate?: RateDecision;
  principal?: Principal | null;
  /** How the call came in; recorded with the call. */
  channel?: 'rest' | 'mcp' | 'legacy';
  /** The name the call is logged under when not its endpoint id (a legacy path such as `video`). */
  logEndpoint?: string;
  /** A price that replaces the endpoint's (MCP tool calls cost a flat 1 credit). */
  fixedPrice?: number;
  /** The request's Cache-Control directives (only-if-cached, stale-if-error). */
  cacheDirectives?: CacheDirectives;
  /** `maxTextLength`: texts in the answer are cut to this (the cached result stays whole). */
  textLimit?: number;
  /** What the request log records (src/server/request-log.ts): the endpoint asked, its tags, and how it ended. */
  endpointId?: string;
  tags?: string[];
  outcome?: { creditsUsed: number; cache: CacheOutcome };
  error?: { code: string; message: string };
  /** Set once the request log has taken this request. */
  logged?: boolean;
}

export interface CallResult {
  result: CachedResult;
  /** What the caller gets: the result's data, with texts cut to `maxTextLength`, and its JSON. */
  answer: Answer;
  creditsUsed: number;
  cache: CacheOutcome;
  ageSeconds: number;
  /**
   * Set for a test-mode key (issue 38.5; REST sends it as `Quarry-Test-Mode`): `sample`, the answer is a recorded
   * sample; `real`, the endpoint is real in both modes (CONTRACT.md "Keys": parse).
   */
  testMode?: 'sample' | 'real';
}

/** Endpoints test-mode keys get real answers from (CONTRACT.md "Keys": "Parse is real in both modes"). */
const REAL_IN_TEST_MODE: ReadonlySet<string> = new Set(['web.parse']);

export interface Answer {
  data: Record<string, unknown>;
  json: string;
  hash: string;
  /** `json` as UTF-8; a whole cached result's are made once and reused by every hit. */
  bytes(): Buffer;
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/** The answer as returned, hashed once per cached result (hits reuse it), so the archive can keep it by hash. */
function answerOf(result: CachedResult, textLimit: number | undefined): Answer {
  if (textLimit === undefined) {
    return { data: result.data, json: result.json, hash: (result.hash ??= sha256(result.json)), bytes: () => (result.bytes ??= Buffer.from(result.json)) };
  }
  const data = truncateTexts(result.data, textLimit);
  const json = JSON.stringify(data);
  return { data, json, hash: sha256(json), bytes: () => Buffer.from(json) };
}

/** Used when the composition root gave no coalescer (identical misses then share a fetch in this process). */
const localFlights = new MemoryCoalescer();

function refused(deps: GatewayDeps, required: number, outcome: { balance: number; budget?: BudgetStatus }): QuarryError {
  const b = outcome.budget;
  if (!b) return insufficient(deps, required, outcome.balance);
  const what = b.scope === 'key' ? `key ${b.target}` : `tag "${b.target}"`;
  return new QuarryError(
    'insufficientCredits',
    `The ${b.period === 'day' ? 'daily' : 'monthly'} budget of ${what} (${b.limitCredits} credits) has ${b.remainingCredits} left and this call needs ${required}; it resets at ${b.resetsAt}.`,
    { requiredCredits: required, availableCredits: b.remainingCredits, billingUrl: deps.config.billingUrl },
  );
}

function insufficient(deps: GatewayDeps, required: number, available: number): QuarryError {
  return new QuarryError(
    'insufficientCredits',
    `This call needs ${required} credits and the account has ${available}; add credits to continue.`,
    { requiredCredits: required, availableCredits: available, billingUrl: deps.config.billingUrl },
  );
}

function callRecord(
  state: CallState,
  principal: Principal,
  endpointId: string,
  credits: number,
  cache: CacheOutcome,
  tags: string[],
  answer: Answer,
): CallRecord {
  return {
    result: { hash: answer.hash, json: answer.json },
    id: state.requestId,
    accountId: principal.accountId,
    keyId: principal.keyId,
    keyName: principal.keyName,
    endpoint: state.logEndpoint ?? endpointId,
    credits,
    cache,
    test: principal.test,
    tags,
    createdAt: Date.now(),
    channel: state.channel ?? 'rest',
  };
}

/** Runs the source (or its sample in test mode) once per cache key, prunes, caches and returns the result. */
async function fetchFresh(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  input: Record<string, unknown>,
  mode: 'live' | 'test',
  key: string,
  tier: ConversionTier,
): Promise<CachedResult> {
  const found = findOperation(endpoint.def.id);
  if (!found) throw new QuarryError('sourceUnavailable', endpoint.unavailableReason ?? UNAVAILABLE_TEXT.notBuilt, { retryable: false });
  return (deps.coalescer ?? localFlights).run(key, endpoint.def.cacheTtlSeconds, async () => {
    // A document the operation hands the conversion pool is queued in its caller's tier (paid, or free).
    const out = await withConversionTier(tier, () => (mode === 'test' ? found.operation.sample(input) : liveFetch(deps, endpoint, found.operation, input)));
    const data = pruneData(out.data);
    const result: CachedResult = { data, json: JSON.stringify(data), items: out.items, storedAt: deps.now() };
    if (out.free) result.free = true;
    // Kept past its freshness so `stale-if-error` can still answer with it; freshness is judged on read (maxAge).
    // An answer that returned nothing (free) is often a passing state (a greylisting mail server, a site down):
    // kept a minute at most, so a retry soon asks again.
    const ttl = endpoint.def.cacheTtlSeconds;
    if (ttl > 0) await deps.cache.set(key, result, out.free ? Math.min(ttl, FREE_RESULT_TTL_SECONDS) : ttl + deps.config.cacheStaleSeconds);
    return result;
  });
}

const ageOf = (deps: GatewayDeps, r: CachedResult) => Math.max(0, Math.floor((deps.now() - r.storedAt) / 1000));

/**
 * The cached result that answers a call: fresh enough for its `maxAge` (default the endpoint's cacheTtlSeconds;
 * 0 asks the source), with its age. Used by the call and by its quote, so both read the cache the same way.
 */
export async function freshHit(
  deps: GatewayDeps,
  def: EndpointDef,
  key: string,
  maxAge: number | undefined,
): Promise<{ hit: CachedResult; ageSeconds: number } | undefined> {
  if (maxAge === 0 || def.cacheTtlSeconds <= 0) return undefined;
  const hit = await deps.cache.get(key);
  if (!hit) return undefined;
  const ageSeconds = ageOf(deps, hit);
  return ageSeconds <= (maxAge ?? def.cacheTtlSeconds) ? { hit, ageSeconds } : undefined;
}

/** Answers from a stored result (a fresh hit, or a stale one when the source failed): charged at its known price. */
async function chargeCached(
  deps: GatewayDeps,
  state: CallState,
  def: EndpointDef,
  hit: CachedResult,
  cache: 'hit' | 'stale',
  ageSeconds: number,
  tags: string[],
): Promise<CallResult> {
  const principal = state.principal ?? null;
  const price = hit.free ? 0 : state.fixedPrice ?? priceFor(def, hit.items);
  const answer = answerOf(hit, state.textLimit);
  if (price === 0 || !principal) return { result: hit, answer, creditsUsed: 0, cache, ageSeconds };
  const record = callRecord(state, principal, def.id, price, cache, tags, answer);
  if (principal.test) await deps.store.recordTestCall(record);
  else {
    const outcome = await deps.store.charge(record);
    if (!outcome.ok) throw refused(deps, price, outcome);
  }
  return { result: hit, answer, creditsUsed: price, cache, ageSeconds };
}

const FREE_RESULT_TTL_SECONDS = 60;

/**
 * A live fetch, watched: its outcome and latency go to source health, and its answer is checked against the
 * record's schema. An answer the normaliser trips over, or one missing what is normally there, means the upstream
 * changed its format: the call fails as sourceChanged (unbilled) and the drift is counted and logged with its path.
 */
export async function liveFetch(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  operation: Operation,
  input: Record<string, unknown>,
): Promise<OperationResult> {
  const started = performance.now();
  const report = (outcome: string, drift = false) =>
    deps.health?.record({ source: endpoint.source, outcome, latencyMs: performance.now() - started, drift });
  let out: OperationResult;
  try {
    out = await operation.run(input, deps.sourceContext(endpoint.source, deps.shutdownSignal));
  } catch (e) {
    if (isQuarryError(e)) {
      // The normaliser's own refusals (a body that is not the expected JSON, a record without its id) are drift.
      const drift = e.code === 'sourceChanged';
      report(e.code, drift);
      if (drift) deps.log.error({ endpoint: endpoint.def.id, drift: e.message }, 'source format drift: the answer was refused');
      throw e;
    }
    report('sourceChanged', true);
    deps.log.error({ err: e, endpoint: endpoint.def.id, drift: 'normaliser failed' }, 'source format drift: the normaliser failed on the answer');
    throw drifted(endpoint);
  }
  const wrong = endpoint.checkRecord?.(out.data);
  if (wrong) {
    report('sourceChanged', true);
    deps.log.error({ endpoint: endpoint.def.id, drift: wrong }, 'source format drift: the answer no longer fits its record');
    throw drifted(endpoint);
  }
  report('ok');
  return out;
}

const drifted = (endpoint: CatalogueEndpoint) =>
  new QuarryError('sourceChanged', `The ${endpoint.source} source answered in a shape we no longer understand; we have been alerted.`);

/**
 * First steps, before the body is even read: authenticate and count the request against its window, so every
 * response after this point (a 400 included) carries X-RateLimit-*.
 */
export async function admit(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  req: { authorization: string | undefined; clientAddress: () => string },
  state: CallState,
): Promise<void> {
  state.endpointId = endpoint.def.id;
  await admitCaller(deps, endpoint.def.keyless, req, state);
  await limitTestModeWork(deps, endpoint, state, req.clientAddress);
}

/** `admit` for a route that is not one endpoint (the legacy paths): `keyless` says whether a key may be missing. */
export async function admitCaller(
  deps: GatewayDeps,
  keyless: boolean,
  req: { authorization: string | undefined; clientAddress: () => string },
  state: CallState,
): Promise<void> {
  const principal = await authenticate(deps, req.authorization);
  state.principal = principal;
  if (!principal && !keyless) {
    throw new QuarryError('unauthorized', 'Invalid or missing API key. Send it as Authorization: Bearer <key>.');
  }
  state.rate = await checkRate(deps, principal, req.clientAddress);
  if (!state.rate.allowed) throw rateLimitedError(state.rate);
}

/** The rest of a data call, after `admit`: validate → cache → reserve → fetch once → settle or release. */
export async function runCall(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  req: { body: unknown; clientAddress: () => string },
  state: CallState,
): Promise<CallResult> {
  state.endpointId = endpoint.def.id;
  const call = await runSteps(deps, endpoint, req, state);
  state.outcome = { creditsUsed: call.creditsUsed, cache: call.cache };
  if (state.principal?.test) call.testMode = REAL_IN_TEST_MODE.has(endpoint.def.id) ? 'real' : 'sample';
  return call;
}

async function runSteps(
  deps: GatewayDeps,
  endpoint: CatalogueEndpoint,
  req: { body: unknown; clientAddress: () => string },
  state: CallState,
): Promise<CallResult> {
  const { def } = endpoint;
  const principal = state.principal ?? null;

  const input = endpoint.validate(req.body);
  if (!principal && def.pagingField && input[def.pagingField] !== undefined) {
    throw new QuarryError('unauthorized', `Paging needs an API key: send one to use \`${def.pagingField}\`.`);
  }

  if (endpoint.unavailable) {
    throw new QuarryError('sourceUnavailable', endpoint.unavailableReason ?? UNAVAILABLE_TEXT[endpoint.unavailable], { retryable: false });
  }

  const mode = principal?.test ? 'test' : 'live';
  const key = cacheKey(mode, def.id, input);
  const tags = (input.tags as string[] | undefined) ?? [];
  state.tags = tags;
  const maxAge = input.maxAge as number | undefined;

  const directives = state.cacheDirectives;
  const cacheable = def.cacheTtlSeconds > 0;
  const fresh = await freshHit(deps, def, key, maxAge);
  if (fresh) return chargeCached(deps, state, def, fresh.hit, 'hit', fresh.ageSeconds, tags);
  if (directives?.onlyIfCached) {
    throw new QuarryError(
      'sourceUnavailable',
      'No cached result is fresh enough for this call, and Cache-Control: only-if-cached forbids asking the source.',
      { retryable: false },
    );
  }

  const releaseSlot = await acquireInFlight(deps, principal, req.clientAddress);
  try {
    const billed = principal !== null && !principal.test;
    if (billed) {
      const maxPrice = state.fixedPrice ?? maxPriceFor(def, input);
      const outcome = await deps.store.reserve({
        id: state.requestId,
        accountId: principal.accountId,
        keyId: principal.keyId,
        tags,
        amount: maxPrice,
        expiresAt: Date.now() + deps.config.reservationTtlMs,
        instance: deps.instanceId,
      });
      if (!outcome.ok) throw refused(deps, maxPrice, outcome);
    }
    let result: CachedResult;
    try {
      result = await fetchFresh(deps, endpoint, input, mode, key, conversionTier(principal));
    } catch (e) {
      if (billed) await deps.store.release(state.requestId);
      const stale = directives?.staleIfError !== undefined && cacheable && isSourceFailure(e) ? await deps.cache.get(key) : undefined;
      if (stale && ageOf(deps, stale) <= directives!.staleIfError!) {
        return chargeCached(deps, state, def, stale, 'stale', ageOf(deps, stale), tags);
      }
      throw e;
    }
    const price = result.free ? 0 : state.fixedPrice ?? actualPriceFor(def, input, result.items);
    const answer = answerOf(result, state.textLimit);
    if (price === 0) {
      if (billed) await deps.store.release(state.requestId); // answered, but nothing to bill or log
    } else if (principal) {
      const record = callRecord(state, principal, def.id, price, 'miss', tags, answer);
      if (billed) await deps.store.settle(state.requestId, record);
      else await deps.store.recordTestCall(record);
    }
    return { result, answer, creditsUsed: principal ? price : 0, cache: 'miss', ageSeconds: 0 };
  } finally {
    releaseSlot();
  }
}
