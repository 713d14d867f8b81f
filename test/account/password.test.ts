/** src/identity/password.ts: scrypt hashes with their parameters, constant-time verification, bounded waiting. */
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, passwordProblem, verifyPassword } from '../../src/identity/password.js';

describe('passwords', () => {
  it('hash → verify; another password or a tampered hash → false; each hash has its own salt', async () => {
    const a = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    const b = await hashPassword('correct horse battery');
    expect(b).not.toBe(a);
    const parts = a.split('$');
    expect(await verifyPassword('correct horse battery', [...parts.slice(0, 5), parts[5].replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))].join('$'))).toBe(false);
    // Parameters out of bounds (a tampered row asking for gigabytes) are refused without hashing.
    expect(await verifyPassword('correct horse battery', ['scrypt', '30', ...parts.slice(2)].join('$'))).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plaintext')).toBe(false);
  });

  it('composed and decomposed forms of the same password are the same password (NFKC)', async () => {
    const h = await hashPassword('caf\u00e9 au lait!!', 14);
    expect(await verifyPassword('cafe\u0301 au lait!!', h)).toBe(true);
  });

  it('rules: 10-200 characters after normalisation', () => {
    expect(passwordProblem('123456789')).toBe('password: must be at least 10 characters long');
    expect(passwordProblem('1234567890')).toBeNull();
    expect(passwordProblem('x'.repeat(201))).toBe('password: must be at most 200 characters long');
    expect(passwordProblem(42)).toBe('password: must be a string');
  });

  it('a cheaper stored hash needs rehashing', async () => {
    expect(needsRehash(await hashPassword('0123456789', 14), 15)).toBe(true);
    expect(needsRehash(await hashPassword('0123456789', 15), 15)).toBe(false);
  });

  it('two hashes run at once, 64 more wait; beyond that → rateLimited, and every waiter finishes', async () => {
    const cheap = await hashPassword('0123456789', 10);
    const results = await Promise.allSettled(Array.from({ length: 70 }, () => verifyPassword('0123456789', cheap)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(66);
    expect(ok.every((r) => (r as PromiseFulfilledResult<boolean>).value)).toBe(true);
    expect(refused).toHaveLength(4);
    expect(refused[0].reason.code).toBe('rateLimited');
    // The line drained: a new hash runs at once.
    expect(await verifyPassword('0123456789', cheap)).toBe(true);
  });
});
