/**
 * Accounts and keys, used by the operator CLI and the dashboard. The keys' format is ./key-format.ts.
 */
import { newId } from '../lib/ids.js';
import type { Store } from '../store/types.js';
import { generateApiKey, KEY_PREFIX, TEST_KEY_PREFIX } from './key-format.js';
import type { KeyCrypto } from './secret.js';

const DISPLAY_CHARS = 12;

export class Accounts {
  constructor(
    private readonly store: Store,
    private readonly crypto: KeyCrypto,
  ) {}

  /** A new account with its default key. */
  async createAccount(opts: { credits: number; email?: string | null }) {
    const accountId = newId('acct');
    await this.store.createAccount({ id: accountId, email: opts.email ?? null, credits: opts.credits });
    const key = await this.createKey({ accountId, name: 'default', test: false });
    return { accountId, credits: opts.credits, keyId: key.keyId, apiKey: key.apiKey };
  }

  async createKey(opts: { accountId: string; name?: string; test?: boolean }) {
    if (!(await this.store.getAccount(opts.accountId))) throw new Error(`no account with id ${opts.accountId}`);
    const test = opts.test ?? false;
    const apiKey = generateApiKey(test);
    const keyId = newId('key');
    await this.store.createKey({
      id: keyId,
      accountId: opts.accountId,
      name: opts.name ?? (test ? 'test' : 'default'),
      hash: this.crypto.hash(apiKey),
      prefix: apiKey.slice(0, DISPLAY_CHARS + (test ? TEST_KEY_PREFIX.length - KEY_PREFIX.length : 0)),
      sealed: this.crypto.seal(apiKey),
      test,
    });
    return { keyId, apiKey, name: opts.name ?? (test ? 'test' : 'default'), test };
  }

  /** The whole key, for the dashboard's reveal; only for the account that owns it. */
  async revealKey(accountId: string, keyId: string): Promise<string | null> {
    const row = await this.store.sealedKey(keyId);
    if (!row || row.accountId !== accountId) return null;
    return this.crypto.unseal(row.sealed);
  }
}
