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
  if (asked === undefined) return cut(def, pages[matchingFirstPage(def, set, input)].data, input);
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

/** A value as compared between an input and a recorded one: strings trimmed and case-folded, `r/` and `@` dropped. */
const comparable = (v: unknown): unknown => (typeof v === 'string' ? v.trim().toLowerCase().replace(/^(?:r\/|@)/, '') : JSON.stringify(v));

/**
 * Which first page answers a call without a cursor (issue 38.5): the one whose recorded request matches the input's
 * identifying fields (the endpoint's required fields), where one does; else the first. A page's recorded request
 * is its `request` (without the paging field) or, where `npm run samples` noted it, `_provenance.pages[i].input`.
 */
function matchingFirstPage<O>(def: EndpointDef<unknown, O>, set: SampleSet<O>, input: Record<string, unknown>): number {
  const required = ((def.input as { required?: unknown }).required ?? []) as string[];
  const identifying = required.filter((f) => f !== def.pagingField && input[f] !== undefined);
  if (!identifying.length || set.pages.length < 2) return 0;
  const noted = (set._provenance as { pages?: { input?: Record<string, unknown> }[] } | undefined)?.pages;
  for (let i = 0; i < set.pages.length; i++) {
    const page = set.pages[i];
    if (def.pagingField !== undefined && page.request?.[def.pagingField] !== undefined) continue;
    const recorded = { ...noted?.[i]?.input, ...page.request };
    if (identifying.every((f) => recorded[f] !== undefined && comparable(recorded[f]) === comparable(input[f]))) return i;
  }
  return 0;
}
