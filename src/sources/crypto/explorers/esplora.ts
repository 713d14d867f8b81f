/**
 * Bitcoin wallets from an Esplora API (mempool.space's, keyless and self-hostable: an operator's own instance is a
 * QUARRY_UPSTREAM_OVERRIDES line). API: github.com/Blockstream/esplora/blob/master/API.md. `/address/:a/txs` answers
 * the unconfirmed transactions and the newest 25 confirmed ones; `/txs/chain/:last_seen_txid` the 25 before a txid.
 */
import type { TRANSFER, WALLET } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { arr, compact, int, isoFromSeconds, readsOf, num, obj, str } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { badCursor, getJson, invalid } from '../http.js';
import { fromBaseUnits } from '../values.js';

export type Transfer = TypeOf<typeof TRANSFER>;
export type Wallet = TypeOf<typeof WALLET>;

const BASE = 'https://mempool.space/api';
const SITE = 'https://mempool.space';
const SATS = 8;
/** Legacy/P2SH base58, or bech32/bech32m (lower-case after normalising). */
const ADDRESS = /^(?:bc1[ac-hj-np-z02-9]{8,87}|[13][1-9A-HJ-NP-Za-km-z]{25,34})$/;
const TXID = /^[0-9a-f]{64}$/;
const MAX_CALLS = 6;
const CHAIN_PAGE = 25;

const { need, changed } = readsOf('crypto', 'Esplora');
const btc = (sats: number | undefined) => (sats === undefined ? undefined : fromBaseUnits(String(Math.round(sats)), SATS));

/** bech32 addresses are case-insensitive and written in lower case. */
export function bitcoinAddress(v: string): string {
  const a = /^bc1/i.test(v) ? v.toLowerCase() : v;
  if (!ADDRESS.test(a)) throw invalid('wallet', 'must be a Bitcoin address (1…, 3… or bc1…)');
  return a;
}

export function transfer(v: unknown, wallet: string): Transfer {
  const t = obj(v);
  if (!t) throw changed('transaction that is not an object');
  const txid = need(str(t.txid), 'transaction without a txid');
  const status = obj(t.status) ?? {};
  const confirmed = status.confirmed === true;
  const ins = arr(t.vin).map((i) => obj(obj(i)?.prevout) ?? {});
  const outs = arr(t.vout).map((o) => obj(o) ?? {});
  const mine = (o: Record<string, unknown>) => str(o.scriptpubkey_address) === wallet;
  const sum = (xs: Array<Record<string, unknown>>) => xs.reduce((s, o) => s + (num(o.value) ?? 0), 0);
  const net = sum(outs.filter(mine)) - sum(ins.filter(mine));
  const direction = net > 0 ? 'in' : net < 0 ? 'out' : 'self';
  const other = (xs: Array<Record<string, unknown>>) => xs.map((o) => str(o.scriptpubkey_address)).find((a) => a && a !== wallet);
  return compact({
    type: 'transfer' as const,
    id: txid,
    chain: 'bitcoin',
    hash: txid,
    url: `${SITE}/tx/${txid}`,
    createdAt: isoFromSeconds(status.block_time),
    block: int(status.block_height),
    status: confirmed ? ('success' as const) : ('pending' as const),
    from: direction === 'in' ? other(ins) : direction === 'out' ? wallet : undefined,
    to: direction === 'out' ? other(outs) : direction === 'in' ? wallet : undefined,
    direction: direction as Transfer['direction'],
    amount: { amount: btc(Math.abs(net))!, symbol: 'BTC' },
    fee: num(t.fee) === undefined ? undefined : { amount: btc(num(t.fee))!, symbol: 'BTC' },
  });
}

export function wallet(v: unknown, address: string): Wallet {
  const a = obj(v);
  if (!a) throw changed('address answer is not an object');
  const chain = need(obj(a.chain_stats), 'address without chain_stats');
  const pool = obj(a.mempool_stats) ?? {};
  const held = (s: Record<string, unknown>) => (num(s.funded_txo_sum) ?? 0) - (num(s.spent_txo_sum) ?? 0);
  return compact({
    chain: 'bitcoin',
    address,
    url: `${SITE}/address/${address}`,
    balance: { amount: btc(held(chain) + held(pool)) ?? 0, symbol: 'BTC' },
    transactions: (int(chain.tx_count) ?? 0) + (int(pool.tx_count) ?? 0),
  });
}

/** `b~<txid>` continues after a confirmed transaction; `b~s<n>` skips n entries of the first answer. */
export function walletCursor(cursor: string | undefined): { after?: string; skip: number } {
  if (cursor === undefined) return { skip: 0 };
  const m = /^b~(?:([0-9a-f]{64})|s([0-9]{1,3}))$/.exec(cursor);
  if (!m) throw badCursor();
  return m[1] ? { after: m[1], skip: 0 } : { skip: Number(m[2]) };
}

export async function walletPage(
  ctx: SourceContext,
  raw: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ wallet: Wallet; transactions: Transfer[]; cursor?: string }> {
  const address = bitcoinAddress(raw);
  const start = walletCursor(cursor);
  const get = async (path: string) => {
    const res = await getJson(ctx, { url: `${BASE}${path}`, pass: [400] });
    if (res.status === 400) throw path.includes('/txs/chain/') ? badCursor('Esplora refused this cursor') : invalid('wallet', 'Esplora refused this Bitcoin address');
    return res.body;
  };
  const summary = wallet(await get(`/address/${address}`), address);
  const found: Transfer[] = [];
  let after = start.after;
  let skip = start.skip;
  let next: string | undefined;
  for (let call = 0; call < MAX_CALLS; call++) {
    const answer = await get(after ? `/address/${address}/txs/chain/${after}` : `/address/${address}/txs`);
    if (!Array.isArray(answer)) throw changed('transactions answer is not a list');
    const page = answer.map((t) => transfer(t, address));
    const rest = page.slice(skip);
    const taken = rest.slice(0, limit - found.length);
    found.push(...taken);
    const confirmed = page.filter((t) => t.status === 'success');
    // Esplora answers 25 confirmed transactions a call; fewer means the list ends here.
    const pageIsFull = confirmed.length >= CHAIN_PAGE;
    const last = found[found.length - 1];
    if (taken.length < rest.length) {
      // Stopped inside this answer: after the last confirmed one, or by position in the first answer.
      next = last?.status === 'success' ? `b~${last.hash}` : !after ? `b~s${skip + taken.length}` : undefined;
      break;
    }
    if (!pageIsFull) break;
    after = confirmed[confirmed.length - 1].hash;
    skip = 0;
    if (found.length === limit) {
      next = TXID.test(after) ? `b~${after}` : undefined;
      break;
    }
  }
  return { wallet: summary, transactions: found, ...(next ? { cursor: next } : {}) };
}
