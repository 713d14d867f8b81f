/**
 * Versioned migrations of the PostgreSQL store. Each entry runs once, in order, in its own transaction, under a
 * session advisory lock, so instances starting at the same moment apply it exactly once. Never edit an entry that
 * shipped: append a new one.
 *
 * Same invariants as the embedded schema: balance + held = sum(ledger.delta) per account; one ledger row per ref
 * (a call's charge uses its request id); calls clustered by account (primary key (account_id, id)).
 */
import type { Migration } from './migrate.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts, keys, reservations, ledger, calls',
    sql: `
CREATE TABLE accounts (
  id text PRIMARY KEY,
  email text,
  balance bigint NOT NULL CHECK (balance >= 0),
  created_at bigint NOT NULL
);
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  name text NOT NULL,
  hash bytea NOT NULL UNIQUE,
  prefix text NOT NULL,
  sealed text NOT NULL,
  test boolean NOT NULL,
  revoked_at bigint,
  created_at bigint NOT NULL
);
CREATE INDEX api_keys_account ON api_keys(account_id);
-- Bumped in the same statement as every key write; instances poll it to drop cached key lookups.
CREATE TABLE key_epoch (one boolean PRIMARY KEY DEFAULT true CHECK (one), v bigint NOT NULL);
INSERT INTO key_epoch (one, v) VALUES (true, 0);
CREATE TABLE reservations (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  key_id text NOT NULL,
  amount bigint NOT NULL,
  state text NOT NULL,
  expires_at bigint NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX reservations_held ON reservations(expires_at) WHERE state = 'held';
CREATE TABLE ledger (
  ref text PRIMARY KEY,
  account_id text NOT NULL,
  delta bigint NOT NULL,
  kind text NOT NULL,
  note text,
  created_at bigint NOT NULL
);
CREATE INDEX ledger_account ON ledger(account_id);
CREATE TABLE calls (
  account_id text NOT NULL,
  id text NOT NULL,
  key_id text NOT NULL,
  key_name text NOT NULL,
  endpoint text NOT NULL,
  credits bigint NOT NULL,
  cache text NOT NULL,
  test boolean NOT NULL,
  tags text[] NOT NULL,
  channel text NOT NULL DEFAULT 'rest',
  created_at bigint NOT NULL,
  PRIMARY KEY (account_id, id)
);
CREATE INDEX calls_account_time ON calls(account_id, created_at DESC, id DESC);
CREATE INDEX calls_tags ON calls USING gin (tags);
`,
  },
  {
    version: 2,
    name: 'result archive, idempotency keys, budgets',
    sql: `
ALTER TABLE calls ADD COLUMN result_hash text;
CREATE TABLE result_bodies (
  day date NOT NULL,
  hash text NOT NULL,
  data text NOT NULL,
  PRIMARY KEY (day, hash)
);
CREATE TABLE idempotency (
  scope text NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL,
  response text,
  lease_until bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_expiry ON idempotency(expires_at);
CREATE TABLE budgets (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  scope text NOT NULL,
  target text NOT NULL,
  period text NOT NULL,
  limit_credits bigint NOT NULL CHECK (limit_credits >= 0),
  created_at bigint NOT NULL,
  UNIQUE (account_id, scope, target, period)
);
CREATE TABLE budget_usage (
  budget_id text NOT NULL,
  period text NOT NULL,
  spent bigint NOT NULL DEFAULT 0,
  held bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (budget_id, period)
);
ALTER TABLE reservations ADD COLUMN budgets jsonb;
`,
  },
  {
    version: 3,
    name: 'running idempotency claims',
    sql: `
CREATE INDEX idempotency_running ON idempotency(lease_until) WHERE state = 'running';
`,
  },
  {
    version: 4,
    name: 'holds by instance',
    sql: `
-- The instance holding a hold: released once that instance's lease (a running claim of scope 'instance') runs out.
ALTER TABLE reservations ADD COLUMN instance_id text;
`,
  },
];
