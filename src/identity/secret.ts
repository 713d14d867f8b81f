/**
 * The server secret: keys are looked up by an HMAC under it and kept sealed (AES-256-GCM) under it. Taken from
 * QUARRY_SECRET, else generated once into the data directory (mode 0600) so `npm start` needs no set-up. On a shared
 * database (QUARRY_DATABASE_URL) QUARRY_SECRET is required: `serverSecret` refuses to start without it.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface KeyCrypto {
  hash(apiKey: string): Buffer;
  seal(apiKey: string): string;
  unseal(sealed: string): string;
}

function decodeSecret(raw: string): Buffer {
  const trimmed = raw.trim();
  const buf = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (buf.length < 32) throw new Error('QUARRY_SECRET must hold at least 32 bytes (64 hex digits or base64)');
  return buf;
}

/**
 * Why this configuration may not make or use a secret of its own, or undefined when it may. Instances sharing a
 * database must share the secret, and it must never be kept beside the keys it seals (CONTRACT.md "Running it"):
 * with QUARRY_DATABASE_URL set, a secret generated into one instance's data directory would make every key made by
 * the CLI or another instance a silent 401 there.
 */
export function sharedSecretProblem(config: { secret?: string; databaseUrl?: string }): string | undefined {
  if (!config.databaseUrl || config.secret) return undefined;
  return (
    'QUARRY_DATABASE_URL is set but QUARRY_SECRET is not. Instances sharing a database must share one secret (keys are ' +
    'looked up and sealed with it, and it is never stored in the database): make one with `openssl rand -hex 32` ' +
    '(or `node -e "console.log(crypto.randomBytes(32).toString(\'hex\'))"`), then set QUARRY_SECRET to it for every ' +
    'instance and for the CLI.'
  );
}

/** Thrown when the configuration needs QUARRY_SECRET (see `sharedSecretProblem`); its message says what to do. */
export class SecretMissingError extends Error {
  readonly code = 'QUARRY_SECRET_MISSING';
}

/** The server secret for this configuration: QUARRY_SECRET, else (embedded only) the data directory's generated one. */
export function serverSecret(config: { dataDir: string; secret?: string; databaseUrl?: string }): Buffer {
  const problem = sharedSecretProblem(config);
  if (problem) throw new SecretMissingError(problem);
  return loadSecret(config.dataDir, config.secret);
}

export function loadSecret(dataDir: string, explicit?: string): Buffer {
  if (explicit) return decodeSecret(explicit);
  const file = path.join(dataDir, 'secret.key');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return decodeSecret(fs.readFileSync(file, 'utf8'));
}

export function keyCrypto(secret: Buffer): KeyCrypto {
  // Separate sub-keys, so the lookup hash never reveals anything about the sealing key.
  const hashKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'quarry key lookup', 32));
  const sealKey = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'quarry key sealing', 32));
  return {
    hash: (apiKey) => createHmac('sha256', hashKey).update(apiKey).digest(),
    seal(apiKey) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv);
      const body = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
    },
    unseal(sealed) {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || !body) throw new Error('unknown sealed key format');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
