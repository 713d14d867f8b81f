/**
 * Issue 38.5: test mode answers the sample recorded for the input where one exists (src/sources/kit/samples.ts):
 * the first page whose recorded request matches the input's identifying (required) fields; the first page otherwise.
 */
import { describe, expect, it } from 'vitest';
import { answerFromSamples, type SampleSet } from '../../src/sources/kit/samples.js';
import type { EndpointDef } from '../../src/catalogue/types.js';

const def = {
  id: 'demo.subforum',
  input: { type: 'object', required: ['subforum'], properties: { subforum: { type: 'string' }, cursor: { type: 'string' } } },
  pagingField: 'cursor',
  itemsField: 'posts',
} as unknown as EndpointDef<unknown, Record<string, unknown>>;

const set: SampleSet = {
  _provenance: { note: 'test', pages: [{ input: { subforum: 'popular' } }, {}, { input: { subforum: 'golang' } }] },
  pages: [
    { data: { name: 'popular', posts: [1, 2] } },
    { request: { cursor: 'c2' }, data: { name: 'popular page 2', posts: [3] } },
    { request: { subforum: 'Rust' }, data: { name: 'rust', posts: [4] } },
  ],
};
// Page 2's recorded input comes from its request; page 3's from the provenance note (index-aligned).
set.pages.push({ data: { name: 'golang', posts: [5] } });
(set._provenance.pages as unknown[]).push({ input: { subforum: 'golang' } });

describe('answerFromSamples picks the sample matching the input', () => {
  it('by the recorded request or the provenance note, case and r/ prefix aside', () => {
    expect(answerFromSamples(def, set, { subforum: 'rust' }).data.name).toBe('rust');
    expect(answerFromSamples(def, set, { subforum: 'r/GoLang' }).data.name).toBe('golang');
    expect(answerFromSamples(def, set, { subforum: 'popular' }).data.name).toBe('popular');
  });
  it('falls back to the first page when no recording matches, and pages by cursor as before', () => {
    expect(answerFromSamples(def, set, { subforum: 'haskell' }).data.name).toBe('popular');
    expect(answerFromSamples(def, set, { subforum: 'rust', cursor: 'c2' }).data.name).toBe('popular page 2');
  });
});
