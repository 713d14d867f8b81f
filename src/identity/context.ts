/**
 * What the account side's routes and `requireSession` share, built once per gateway and hung on the Fastify
 * instance (`app.quarryAuth`), so any route (also those registered inside plugins) reaches it through
 * `request.server` without importing the composition root.
 */
import type { FastifyInstance } from 'fastify';
import { Accounts } from './accounts.js';
import { serverSecret } from './secret.js';
import type { Config } from '../config.js';
import type { RateLimiter } from '../limits/types.js';
import { accountSideFor, type AccountSideStore } from '../store/account-side.js';
import type { Store } from '../store/types.js';
import type { KeyCrypto } from './secret.js';
import { csrfKey } from './tokens.js';

export interface AuthSettings {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
  /** Sign-in attempts (and password re-entries) per e-mail, and per client address, per window. */
  attemptsPerEmail: number;
  attemptsPerAddress: number;
  attemptWindowSeconds: number;
  /** CLI login sessions live this long. */
  cliSessionMs: number;
  cliPollSeconds: number;
  /** Unauthenticated CLI login calls (create, poll) per client address per minute. */
  cliCallsPerMinute: number;
}

function int(env: Readonly<Record<string, string | undefined>>, name: string, def: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return n;
}

export function authSettings(env: Readonly<Record<string, string | undefined>>): AuthSettings {
  return {
    idleMs: int(env, 'QUARRY_SESSION_IDLE_MINUTES', 24 * 60) * 60_000,
    absoluteMs: int(env, 'QUARRY_SESSION_MAX_HOURS', 14 * 24) * 3_600_000,
    attemptsPerEmail: int(env, 'QUARRY_SIGNIN_ATTEMPTS_PER_EMAIL', 10),
    attemptsPerAddress: int(env, 'QUARRY_SIGNIN_ATTEMPTS_PER_ADDRESS', 50),
    attemptWindowSeconds: 15 * 60,
    cliSessionMs: 10 * 60_000,
    cliPollSeconds: 2,
    cliCallsPerMinute: int(env, 'QUARRY_CLI_LOGIN_CALLS_PER_MINUTE', 120),
  };
}

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
  settings: AuthSettings;
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
    settings: authSettings(deps.config.env),
    csrfKey: csrfKey(serverSecret(deps.config)),
  };
  app.decorate('quarryAuth', ctx);
  return ctx;
}
