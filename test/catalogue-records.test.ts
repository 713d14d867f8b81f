/**
 * Record schemas (issue 8, format drift): every served endpoint declares the shape of its `data`, and every committed
 * test-mode sample, produced from real recordings through the same normalisers, fits it. A live answer that stops
 * fitting is drift (see test/gateway/source-health.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/catalogue/endpoints/index.js';
import { compileInput } from '../src/catalogue/validator.js';
import { compileRecordCheck } from '../src/catalogue/records.js';
import { findOperation } from '../src/sources/registry.js';

const built = ENDPOINTS.filter((d) => findOperation(d.id));

describe('record schemas', () => {
  it('every built endpoint declares the record it answers', () => {
    expect(built.filter((d) => !d.output).map((d) => d.id)).toEqual([]);
  });

  it.each(built.filter((d) => d.output && d.example && d.id !== 'web.parse').map((d) => [d.id, d] as const))(
    '%s: the test-mode sample fits the record',
    async (_id, def) => {
      const input = compileInput(def.input)(structuredClone(def.example!));
      const out = await findOperation(def.id)!.operation.sample(input);
      expect(compileRecordCheck(def.output!)(out.data)).toBeNull();
    },
  );

  it('a record missing a normally present field is named by its path', () => {
    const def = ENDPOINTS.find((d) => d.id === 'domain.whois')!;
    expect(compileRecordCheck(def.output!)({ domain: 'example.com', registered: true, via: 'rdap' })).toBe('data.server: missing');
    expect(compileRecordCheck(def.output!)({ domain: 'example.com', registered: 'yes', via: 'rdap', server: 'x' })).toBe(
      'data.registered: must be boolean',
    );
  });
});
