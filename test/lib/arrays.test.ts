/** Array helpers hold at lengths where spreading into arguments overflows the call stack. */
import { describe, expect, it } from 'vitest';
import { append, maxOf, minOf } from '../../src/lib/arrays.js';

describe('arrays', () => {
  it('append, minOf and maxOf take a million elements', () => {
    const big = Array.from({ length: 1_000_000 }, (_, i) => i - 500_000);
    expect(() => [].push(...(big as never[]))).toThrow(RangeError);
    expect(append([1], big).length).toBe(1_000_001);
    expect(minOf(big)).toBe(-500_000);
    expect(maxOf(big)).toBe(499_999);
    expect(minOf([])).toBe(Infinity);
    expect(maxOf([])).toBe(-Infinity);
  });
});
