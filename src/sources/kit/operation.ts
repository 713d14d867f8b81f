/**
 * Binds an implementation to its catalogue declaration. The input and record types come from the declaration
 * (InputOf / OutputOf), so a source never restates them; test mode answers from the committed samples unless the
 * operation gives its own `sample` (web.parse, which is real in both modes). A per-item endpoint's result count is
 * read from its `itemsField` when the operation does not give it.
 */
import type { EndpointDef } from '../../catalogue/types.js';
import type { Operation, OperationResult, SourceContext } from '../types.js';
import { answerFromSamples, type SampleSet } from './samples.js';

export interface OperationSpec<I, O> {
  run(input: I, ctx: SourceContext): Promise<OperationResult<O>>;
  /** Test-mode pages made by `npm run samples` (./samples.ts); or: */
  samples?: SampleSet<O> | unknown;
  /** A test-mode answer of its own, when samples do not fit (an operation that is real in both modes). */
  sample?(input: I): OperationResult<O> | Promise<OperationResult<O>>;
}

export function operation<I, O>(endpoint: EndpointDef<I, O>, spec: OperationSpec<I, O>): Operation<I, O> {
  const { run, samples } = spec;
  let sample = spec.sample;
  if (!sample) {
    if (samples === undefined) throw new Error(`${endpoint.id}: an operation needs test-mode samples or a sample() of its own`);
    sample = (input) => answerFromSamples(endpoint, samples as SampleSet<O>, input as Record<string, unknown>);
  }
  const counted = (out: OperationResult<O>): OperationResult<O> => {
    if (out.items !== undefined || !endpoint.itemsField) return out;
    const items = (out.data as Record<string, unknown>)[endpoint.itemsField];
    return Array.isArray(items) ? { ...out, items: items.length } : out;
  };
  const given = sample;
  return {
    endpoint,
    run: async (input, ctx) => counted(await run(input, ctx)),
    sample: async (input) => counted(await given(input)),
  };
}
