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
CREATE TABLE IF NOT EXISTS ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  account_id TEXT NOT NULL,
  delta INTEGER NOT NULL,
  kind TEXT NOT NULL,
  ref TEXT,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS ledger_charge_once ON ledger(ref) WHERE kind = 'charge';
CREATE TABLE IF NOT EXISTS calls (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_name TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  credits INTEGER NOT NULL,
  cache TEXT NOT NULL,
  test INTEGER NOT NULL,
  tags TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS calls_account_time ON calls(account_id, created_at DESC);
CREATE TABLE IF NOT EXISTS call_tags (
  call_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (call_id, tag)
);
CREATE INDEX IF NOT EXISTS call_tags_account ON call_tags(account_id, tag, created_at);
`;
