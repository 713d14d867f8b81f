/** What the operator commands share: the store of the configured data for one command, and how they answer. */
import { InvalidArgumentError } from 'commander';
import { Accounts } from '../identity/accounts.js';
import { keyCrypto, serverSecret, sharedSecretProblem, type KeyCrypto } from '../identity/secret.js';
import { loadConfig, type Config } from '../config.js';
import { chooseDataDir } from '../lib/data-dir.js';
import { accountSideFor, type AccountSideStore } from '../store/account-side.js';
import { openStore } from '../store/open.js';
import type { Store } from '../store/types.js';

/**
 * The configuration the operator commands work with: the server's, with the data directory the server uses
 * (src/lib/data-dir.ts), said on stderr when it is not the obvious one.
 */
export function cliConfig(): Config {
  const choice = chooseDataDir();
  if (choice.note) process.stderr.write(`quarry: ${choice.note}\n`);
  const config = loadConfig({ ...process.env, QUARRY_DATA_DIR: choice.dir });
  // On a shared database the CLI seals and looks up keys as the instances do: it refuses to run without their secret.
  const problem = sharedSecretProblem(config);
  if (problem) fail(problem, false);
  return config;
}

/** Opens the configured store for `fn` and closes it afterwards. */
export async function withStore<T>(fn: (store: Store, config: Config) => Promise<T>): Promise<T> {
  const config = cliConfig();
  const store = openStore(config);
  try {
    return await fn(store, config);
  } finally {
    await store.close();
  }
}

export interface Tools {
  store: Store;
  /** Opened when first read (on SQLite that creates the account side's tables). */
  readonly side: AccountSideStore;
  accounts: Accounts;
  crypto: KeyCrypto;
}

/** withStore, plus the key sealing of the server's secret (created when missing) and what needs it. */
export function withData<T>(fn: (t: Tools) => Promise<T>): Promise<T> {
  return withStore((store, config) => {
    const crypto = keyCrypto(serverSecret(config));
    return fn({
      store,
      get side() {
        return accountSideFor(store);
      },
      accounts: new Accounts(store, crypto),
      crypto,
    });
  });
}

/** One JSON object on stdout with --json, else the human line. */
export function print(json: boolean, value: unknown, human: string): void {
  process.stdout.write(json ? JSON.stringify(value) + '\n' : human + '\n');
}

export function fail(message: string, json: boolean): never {
  if (json) process.stdout.write(JSON.stringify({ error: message }) + '\n');
  process.stderr.write(`quarry: ${message}\n`);
  process.exit(1);
}

/** A commander option parser: a whole number of at least `min`, else the option's name in the refusal. */
export function wholeNumber(name: string, min: number) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be a whole number of at least ${min}`);
    return n;
  };
}
