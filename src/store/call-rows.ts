/** A `calls` row as both stores read it; only how `test` and `tags` are stored differs between them. */
import type { CacheOutcome, CallRecord } from './types.js';

export interface CallRowBase {
  id: string;
  account_id: string;
  key_id: string;
  key_name: string;
  endpoint: string;
  credits: number;
  cache: CacheOutcome;
  channel: 'rest' | 'mcp';
  created_at: number;
}

export function callFromRow(r: CallRowBase, test: boolean, tags: string[]): CallRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    keyId: r.key_id,
    keyName: r.key_name,
    endpoint: r.endpoint,
    credits: r.credits,
    cache: r.cache,
    test,
    tags,
    createdAt: r.created_at,
    channel: r.channel,
  };
}
