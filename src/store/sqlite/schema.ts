/**
 * The embedded schema. Invariant the crash test checks: for every account,
 * balance + (credits held by open reservations) = sum(ledger.delta), and the ledger's charges equal the
 * credits of the recorded live calls.
 */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  id TEXT PRIMARY KEY,
  email TEXT,
  balance INTEGER NOT NULL CHECK (balance >= 0),
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  name TEXT NOT NULL,
  hash BLOB NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  sealed TEXT NOT NULL,
  test INTEGER NOT NULL,
  revoked_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys(account_id);
CREATE TABLE IF NOT EXISTS reservations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  amount INTEGER NOT NULL,
  state TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reservations_open ON reservations(state, expires_at);
-- One entry per ref: a charge's ref is its call's request id, so no call can be charged twice.
CREATE TABLE IF NOT EXISTS ledger (
  ref TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  delta INTEGER NOT NULL,
  kind TEXT NOT NULL,
  note TEXT,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
-- Clustered by account, then by the time-ordered request id: one b-tree serves inserts and the logs listing.
-- Tags stay a JSON array in the row (read with json_each): a separate tag table cost a b-tree write per call.
CREATE TABLE IF NOT EXISTS calls (
  account_id TEXT NOT NULL,
  id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_name TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  credits INTEGER NOT NULL,
  cache TEXT NOT NULL,
  test INTEGER NOT NULL,
  tags TEXT NOT NULL,
  channel TEXT NOT NULL DEFAULT 'rest',
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, id)
) WITHOUT ROWID;
`;

/**
 * Changes after the first schema, applied once each in order (PRAGMA user_version counts them). Never edit one that
 * shipped: append.
 */
export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  { version: 1, sql: '' },
  {
    version: 2,
    sql: `
-- The result archive: a call's answer by the hash of its data; identical answers (cache hits) share one body per day.
ALTER TABLE calls ADD COLUMN result_hash TEXT;
CREATE TABLE result_bodies (
  day TEXT NOT NULL,
  hash TEXT NOT NULL,
  data TEXT NOT NULL,
  PRIMARY KEY (day, hash)
) WITHOUT ROWID;
-- Idempotency-Key entries: a running claim (with a lease) or the final response, per API key.
CREATE TABLE idempotency (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  state TEXT NOT NULL,
  response TEXT,
  lease_until INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_expiry ON idempotency(expires_at);
-- Spend limits per key or tag and period; usage counters per period. A hold names the budget rows it counts in.
CREATE TABLE budgets (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  scope TEXT NOT NULL,
  target TEXT NOT NULL,
  period TEXT NOT NULL,
  limit_credits INTEGER NOT NULL CHECK (limit_credits >= 0),
  created_at INTEGER NOT NULL,
  UNIQUE (account_id, scope, target, period)
);
CREATE TABLE budget_usage (
  budget_id TEXT NOT NULL,
  period TEXT NOT NULL,
  spent INTEGER NOT NULL DEFAULT 0,
  held INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (budget_id, period)
) WITHOUT ROWID;
ALTER TABLE reservations ADD COLUMN budgets TEXT;
`,
  },
  {
    version: 3,
    sql: `
-- Running Idempotency-Key claims, for releasing those a crashed process left without reading every kept answer.
CREATE INDEX idempotency_running ON idempotency(lease_until) WHERE state = 'running';
`,
  },
];
