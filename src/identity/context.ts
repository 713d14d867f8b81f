/**
 * What the account side's routes and `requireSession` share, built once per gateway and hung on the Fastify
 * instance (`app.quarryAuth`), so any route (also those registered inside plugins) reaches it through
 * `request.server` without importing the composition root.
 */
import type { FastifyInstance } from 'fastify';
import { Accounts } from './accounts.js';
import { serverSecret } from './secret.js';
import type { Config, IdentitySettings } from '../config.js';
import type { RateLimiter } from '../limits/types.js';
import { accountSideFor, type AccountSideStore } from '../store/account-side.js';
import type { Store } from '../store/types.js';
import type { KeyCrypto } from './secret.js';
import { csrfKey } from './tokens.js';

/** What identity takes from the gateway (its deps satisfy it): settings, clock, log, the rate limiter of attempts, keys. */
export interface IdentityDeps {
  config: Config;
  store: Store;
  crypto: KeyCrypto;
  rateLimiter: RateLimiter;
  log: { warn(obj: object, msg?: string): void };
  now(): number;
}

export interface AuthContext {
  deps: IdentityDeps;
  side: AccountSideStore;
  accounts: Accounts;
  /** The account side's settings, read with the rest of the configuration (src/config.ts). */
  settings: IdentitySettings;
  csrfKey: Buffer;
}

declare module 'fastify' {
  interface FastifyInstance {
    quarryAuth?: AuthContext;
  }
}

/** Builds the context once and decorates the root instance with it; later calls return the same one. */
export function authContext(app: FastifyInstance, deps: IdentityDeps): AuthContext {
  if (app.quarryAuth) return app.quarryAuth;
  let side: AccountSideStore | undefined;
  const ctx: AuthContext = {
    deps,
    // Opened on first use: a gateway built over a store this side does not know (a test double) still serves the rest.
    get side() {
      return (side ??= accountSideFor(deps.store));
    },
    accounts: new Accounts(deps.store, deps.crypto),
    settings: deps.config.identity,
    csrfKey: csrfKey(serverSecret(deps.config)),
  };
  app.decorate('quarryAuth', ctx);
  return ctx;
}
