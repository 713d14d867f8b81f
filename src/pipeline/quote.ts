/**
 * Quotes: what one call would cost before making it. Validates the input exactly as the call would, reads the cache
 * the way the call would (same key, same freshness), and asks the store what the account and its budgets can pay.
 * Free; never reaches a source, never holds credits.
 */
import type { CatalogueEndpoint } from '../catalogue/catalogue.js';
import { QuarryError } from '../errors.js';
import { budgetApplies } from '../budgets/periods.js';
import { cacheKey } from './cache-key.js';
import { freshHit } from './call.js';
import type { GatewayDeps } from './deps.js';
import type { Principal } from '../identity/principal.js';
import { maxPriceFor, priceFor } from './price.js';

export interface Quote {
  endpoint: string;
  /** The least the call costs when it returns anything (a call that returns nothing is free). */
  minCredits: number;
  /** The most it can cost (what is held while it runs). */
  maxCredits: number;
  cache: { wouldAnswer: boolean; ageSeconds: number | null; credits: number | null };
  balance: number;
  budgets: { id: string; scope: string; target: string; period: string; remainingCredits: number; resetsAt: string }[];
  /** Whether the balance and every budget that applies cover the highest price. */
  canPay: boolean;
  testMode: boolean;
}

export async function quoteCall(
  deps: GatewayDeps,
  principal: Principal,
  endpoint: CatalogueEndpoint,
  input: Record<string, unknown>,
  fixedPrice?: number,
): Promise<Quote> {
  const { def } = endpoint;
  if (endpoint.unavailable) throw new QuarryError('sourceUnavailable', `${def.id} is not served here; see GET /v1/catalogue.`, { retryable: false });
  const valid = endpoint.validate(input);
  const maxAge = valid.maxAge as number | undefined;
  const tags = (valid.tags as string[] | undefined) ?? [];
  let cache: Quote['cache'] = { wouldAnswer: false, ageSeconds: null, credits: null };
  const fresh = await freshHit(deps, def, cacheKey(principal.test ? 'test' : 'live', def.id, valid), maxAge);
  if (fresh) {
    const { hit, ageSeconds } = fresh;
    cache = { wouldAnswer: true, ageSeconds, credits: hit.free ? 0 : fixedPrice ?? priceFor(def, hit.items) };
  }
  const maxCredits = cache.credits ?? fixedPrice ?? maxPriceFor(def, valid);
  const minCredits = cache.credits ?? fixedPrice ?? priceFor(def, 1);
  const [account, budgets] = await Promise.all([deps.store.getAccount(principal.accountId), deps.store.budgets(principal.accountId, Date.now())]);
  const applicable = budgets.filter((b) => budgetApplies(b, principal.keyId, tags));
  const balance = account?.balance ?? 0;
  const canPay = principal.test || (balance >= maxCredits && applicable.every((b) => b.remainingCredits >= maxCredits));
  return {
    endpoint: def.id,
    minCredits,
    maxCredits,
    cache,
    balance,
    budgets: applicable.map((b) => ({
      id: b.id,
      scope: b.scope,
      target: b.target,
      period: b.period,
      remainingCredits: b.remainingCredits,
      resetsAt: b.resetsAt,
    })),
    canPay,
    testMode: principal.test,
  };
}
