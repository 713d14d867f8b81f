/**
 * Test mode (CONTRACT.md "Keys"): answers from the committed, normalised samples that `npm run samples` makes from
 * real recordings through the live code path (scripts/samples/). A sample set is a list of pages: the first answers a
 * call without a cursor, the others answer the cursor of the page before, so paging in test mode walks real pages.
 */
import type { EndpointDef } from '../../catalogue/types.js';
import type { OperationResult } from '../types.js';

export interface SamplePage<O = Record<string, unknown>> {
  /** The request fields that select this page (the paging field and its value); absent for the first page. */
  request?: Record<string, unknown>;
  data: O;
}

export interface SampleSet<O = Record<string, unknown>> {
  /** Where the pages came from: the recordings each was normalised from, their origin and licence. */
  _provenance: Record<string, unknown>;
  pages: SamplePage<O>[];
}

/**
 * The page a test-mode call gets. A cursor that no recorded page answers is past the last recorded page: the answer
 * is the last page's record with no items and no cursor (the end of the list), unbilled like any empty answer.
 * `limit` is honoured by cutting the page's items, as the live call would return fewer.
 */
export function answerFromSamples<O>(def: EndpointDef<unknown, O>, set: SampleSet<O>, input: Record<string, unknown>): OperationResult<O> {
  const pages = set.pages;
  if (!pages?.length) throw new Error(`${def.id}: the sample set has no pages`);
  const field = def.pagingField;
  const asked = field === undefined ? undefined : input[field];
  if (asked === undefined) return cut(def, pages[0].data, input);
  const page = pages.find((p) => p.request?.[field!] === asked);
  if (page) return cut(def, page.data, input);
  const last = { ...(pages[pages.length - 1].data as Record<string, unknown>) };
  if (def.itemsField) last[def.itemsField] = [];
  delete last[field!];
  return { data: last as O, items: 0, free: true };
}

function cut<O>(def: EndpointDef<unknown, O>, data: O, input: Record<string, unknown>): OperationResult<O> {
  const items = def.itemsField ? (data as Record<string, unknown>)[def.itemsField] : undefined;
  const limit = def.limitField ? input[def.limitField] : undefined;
  if (!Array.isArray(items)) return { data };
  if (typeof limit !== 'number' || items.length <= limit) return { data, items: items.length };
  return { data: { ...data, [def.itemsField!]: items.slice(0, limit) }, items: limit };
}
