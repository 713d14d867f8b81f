/**
 * The account side's secrets and how each is kept: session tokens (random 32 bytes; stored as SHA-256), CSRF tokens
 * (an HMAC of the session token under a sub-key of the server secret, so nothing extra is stored), invite codes
 * (random 80 bits shown once; stored as the key-lookup HMAC) and the PKCE-style challenge of CLI logins.
 */
import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session token's storage form. SHA-256 is enough: the token has 256 bits of entropy, nothing to brute-force. */
export function sessionTokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function csrfKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'quarry csrf', 32));
}

export function csrfToken(key: Buffer, sessionToken: string): string {
  return createHmac('sha256', key).update(sessionToken).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Crockford's base32: no I, L, O, U, so a code read aloud or retyped survives. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function crockford(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** `XXXX-XXXX-XXXX-XXXX`: 16 characters, 80 random bits. */
export function newInviteCode(): string {
  return crockford(randomBytes(10)).match(/.{4}/g)!.join('-');
}

/**
 * The canonical form of a typed code: upper-cased, hyphens and spaces dropped, O read as 0 and I/L as 1. Null when
 * it cannot be a code at all.
 */
export function canonicalInviteCode(typed: string): string | null {
  const c = typed
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  return /^[0-9A-HJKMNP-TV-Z]{16}$/.test(c) ? c : null;
}

/** base64url(SHA-256(verifier)), RFC 7636's S256. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** RFC 7636: 43-128 characters of A-Z a-z 0-9 - . _ ~ */
export const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/;
export const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** CLI session ids: ours are `cli_` + 32 characters; a client may propose its own of the same alphabet. */
export const CLI_SESSION_ID_SHAPE = /^[A-Za-z0-9_-]{16,64}$/;

/**
 * The code a person compares between the terminal and the approval page (`XXXX-XXXX`), so a link sent by someone
 * else is not approved by mistake. Both sides derive it from the challenge; nothing more is stored.
 */
export function cliVerificationCode(challenge: string): string {
  const c = crockford(createHash('sha256').update(`quarry cli login ${challenge}`).digest().subarray(0, 5));
  return `${c.slice(0, 4)}-${c.slice(4, 8)}`;
}

export function newVerifier(): string {
  return randomBytes(48).toString('base64url');
}
