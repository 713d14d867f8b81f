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
PRAGMA user_version = 1;
`;
