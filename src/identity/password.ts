/**
 * Password hashing with scrypt (memory-hard, OpenSSL's, through node:crypto: no new dependency). Each hash stores
 * its own parameters and a 16-byte random salt, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, so the cost can rise later
 * without breaking old hashes. crypto.scrypt runs in libuv's thread pool, off the event loop; at most two run at
 * once so sign-in bursts cannot occupy every pool thread (file and DNS work share them).
 *
 * Default cost: N = 2^15, r = 8, p = 1 (32 MiB and ~100-160 ms per hash on the 2-core development VM), libsodium's
 * "interactive" level. QUARRY_PASSWORD_SCRYPT_LOG2N (14-20) changes it for new hashes.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { passwordLog2N } from '../config.js';
import { QuarryError } from '../errors.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
const KEY_LENGTH = 32;
const MAX_CONCURRENT = 2;

let running = 0;
const waiting: (() => void)[] = [];

/** A flood of sign-ins (from many addresses, each under its own limit) waits in line only this deep. */
const MAX_WAITING = 64;

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) {
    if (waiting.length >= MAX_WAITING) {
      throw new QuarryError('rateLimited', 'Too many sign-ins at this moment; try again in a few seconds.', { retryAfterSeconds: 2 });
    }
    await new Promise<void>((resolve) => waiting.push(resolve)); // a finishing hash hands its slot over
  } else {
    running++;
  }
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, log2n: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2n;
  const options: ScryptOptions = { N, r, p, maxmem: 128 * N * r * p + 4 * 1024 * 1024 };
  return withSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(normalise(password), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key))),
      ),
  );
}

/** NFKC, so the same password typed on two keyboards (composed or not) is the same bytes. */
function normalise(password: string): string {
  return password.normalize('NFKC');
}

/** The rule a new password must meet, or null when it does. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') return 'password: must be a string';
  const length = [...normalise(password)].length;
  if (length < PASSWORD_MIN) return `password: must be at least ${PASSWORD_MIN} characters long`;
  if (length > PASSWORD_MAX) return `password: must be at most ${PASSWORD_MAX} characters long`;
  return null;
}

/** Today's cost of new hashes: QUARRY_PASSWORD_SCRYPT_LOG2N, read through the configuration (src/config.ts). */
export function defaultLog2N(): number {
  return passwordLog2N();
}

export async function hashPassword(password: string, log2n = defaultLog2N()): Promise<string> {
  const salt = randomBytes(16);
  const r = 8;
  const p = 1;
  const key = await derive(password, salt, log2n, r, p);
  return ['scrypt', log2n, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

const STORED = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,64})\$([A-Za-z0-9_-]{16,128})$/;

/** Constant-time comparison of the derived key; false for a malformed or out-of-bounds stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = STORED.exec(stored);
  if (!m) return false;
  const [log2n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Bounds, so a tampered row cannot make one sign-in allocate gigabytes.
  if (log2n < 10 || log2n > 20 || r < 1 || r > 16 || p < 1 || p > 4) return false;
  const expected = Buffer.from(m[5], 'base64url');
  const key = await derive(password, Buffer.from(m[4], 'base64url'), log2n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when a stored hash is cheaper than today's setting: it is replaced at the person's next sign-in. */
export function needsRehash(stored: string, log2n = defaultLog2N()): boolean {
  const m = STORED.exec(stored);
  return !m || Number(m[1]) < log2n;
}

/**
 * A hash of a random password, computed once: sign-in with an unknown e-mail verifies against it, so answering
 * "wrong e-mail or password" costs the same time whether the address exists or not.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('base64url'));
  return decoy;
}
