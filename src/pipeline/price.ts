/** CONTRACT.md "Billing": credits * max(1, ceil(results / perItems)) for per-item endpoints, else credits. */
import type { EndpointDef } from '../catalogue/types.js';

export function priceFor(def: EndpointDef, items: number | undefined): number {
  if (def.perItems === null) return def.credits;
  return def.credits * Math.max(1, Math.ceil((items ?? 0) / def.perItems));
}

/** The most one call can cost, from its `limit` (already defaulted by validation); reserved before fetching. */
export function maxPriceFor(def: EndpointDef, input: Record<string, unknown>): number {
  if (def.perItems === null) return def.credits;
  const limit = def.limitField ? input[def.limitField] : undefined;
  return priceFor(def, typeof limit === 'number' ? limit : def.perItems);
}

/** What a call is billed once its result is known: never more than was reserved. */
export function actualPriceFor(def: EndpointDef, input: Record<string, unknown>, items: number | undefined): number {
  return Math.min(priceFor(def, items), maxPriceFor(def, input));
}
