/** The QuarryError a promise (or a function, sync or async) fails with; the test fails when it succeeds. */
import { expect } from 'vitest';
import { QuarryError } from '../../src/errors.js';

export async function failure(p: Promise<unknown> | (() => unknown)): Promise<QuarryError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    expect(e).toBeInstanceOf(QuarryError);
    return e as QuarryError;
  }
  throw new Error('expected a failure');
}
