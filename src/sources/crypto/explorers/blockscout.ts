/**
 * EVM wallets and token holders from Blockscout's API v2 on each chain's public instance
 * (eth|base|arbitrum|optimism|polygon|gnosis.blockscout.com; keyless; an operator's own instance is a
 * QUARRY_UPSTREAM_OVERRIDES line). Lists page by keyset (`next_page_params`); Quarry's cursors carry the same keys,
 * taken from the last item it answered, so a page cut short by `limit` goes on exactly after it.
 */
import type { HOLDER, TOKEN, TRANSFER, WALLET } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { arr, bool, compact, int, isObj, isoFromText, readsOf, num, obj, str, type Obj } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { badCursor, getJson, invalid, notFound } from '../http.js';
import { assetAmount, fromBaseUnits, sharePercent, usd, webUrl } from '../values.js';

export type Transfer = TypeOf<typeof TRANSFER>;
export type Wallet = TypeOf<typeof WALLET>;
export type Holder = TypeOf<typeof HOLDER>;
export type Token = TypeOf<typeof TOKEN>;

export const EVM_CHAINS = {
  ethereum: { host: 'eth.blockscout.com', symbol: 'ETH' },
  base: { host: 'base.blockscout.com', symbol: 'ETH' },
  arbitrum: { host: 'arbitrum.blockscout.com', symbol: 'ETH' },
  optimism: { host: 'optimism.blockscout.com', symbol: 'ETH' },
  polygon: { host: 'polygon.blockscout.com', symbol: 'POL' },
  gnosis: { host: 'gnosis.blockscout.com', symbol: 'XDAI' },
} as const;
export type EvmChain = keyof typeof EVM_CHAINS;

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NATIVE_DECIMALS = 18;
/** Blockscout pages hold 50 items; one answer reads at most this many pages. */
const MAX_PAGES = 6;

const { need, changed } = readsOf('crypto', 'Blockscout');
const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

export function isEvmAddress(v: string): boolean {
  return EVM_ADDRESS.test(v);
}

async function ask(ctx: SourceContext, chain: EvmChain, path: string, query?: URLSearchParams): Promise<{ status: number; body: unknown }> {
  const qs = query && [...query.keys()].length ? `?${query}` : '';
  return getJson(ctx, { url: `https://${EVM_CHAINS[chain].host}/api/v2${path}${qs}`, pass: [404, 422] });
}

const hashOf = (v: unknown): string | undefined => str(obj(v)?.hash);

// ---- wallets --------------------------------------------------------------------------------------------------------

export function transfer(v: unknown, chain: EvmChain, wallet: string): Transfer {
  const t = obj(v);
  if (!t) throw changed('transaction that is not an object');
  const hash = need(str(t.hash), 'transaction without a hash');
  const symbol = EVM_CHAINS[chain].symbol;
  const from = hashOf(t.from);
  const to = hashOf(t.to) ?? hashOf(t.created_contract);
  const block = int(t.block_number) ?? int(t.block);
  const result = str(t.result);
  const status = block === undefined || result === 'pending' ? 'pending' : t.status === 'error' || (result && result !== 'success') ? 'failed' : 'success';
  const direction = same(from, wallet) && same(to, wallet) ? 'self' : same(from, wallet) ? 'out' : same(to, wallet) ? 'in' : undefined;
  return compact({
    type: 'transfer' as const,
    id: hash,
    chain,
    hash,
    url: `https://${EVM_CHAINS[chain].host}/tx/${hash}`,
    createdAt: isoFromText(t.timestamp),
    block,
    status: status as Transfer['status'],
    from,
    to,
    direction: direction as Transfer['direction'],
    amount: assetAmount(fromBaseUnits(t.value, NATIVE_DECIMALS), symbol),
    fee: assetAmount(fromBaseUnits(obj(t.fee)?.value, NATIVE_DECIMALS), symbol),
    method: str(t.method),
    kinds: arr(t.transaction_types).flatMap((k) => (str(k) ? [str(k)!] : [])),
  });
}

export function wallet(v: unknown, chain: EvmChain, address: string): Wallet {
  const a = obj(v) ?? {};
  const symbol = EVM_CHAINS[chain].symbol;
  const balance = a.coin_balance === null || a.coin_balance === undefined ? 0 : need(fromBaseUnits(a.coin_balance, NATIVE_DECIMALS), 'address with an unreadable coin_balance');
  const rate = num(a.exchange_rate);
  return compact({
    chain,
    address: str(a.hash) ?? address,
    url: `https://${EVM_CHAINS[chain].host}/address/${address}`,
    balance: { amount: balance, symbol },
    value: rate === undefined ? undefined : usd(balance * rate),
    isContract: bool(a.is_contract),
    name: str(a.name),
  });
}

/** `e~<block>~<index in block>~<items so far>`: Blockscout's keyset for an address's transactions. */
export function walletCursor(cursor: string | undefined): { block: string; index: string; count: number } | undefined {
  if (cursor === undefined) return undefined;
  const m = /^e~([0-9]{1,12})~([0-9]{1,6})~([0-9]{1,7})$/.exec(cursor);
  if (!m) throw badCursor();
  return { block: m[1], index: m[2], count: Number(m[3]) };
}

export async function walletPage(
  ctx: SourceContext,
  chain: EvmChain,
  address: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ wallet: Wallet; transactions: Transfer[]; cursor?: string }> {
  if (!isEvmAddress(address)) throw invalid('wallet', `must be 0x followed by 40 hex digits on ${chain}`);
  const start = walletCursor(cursor);
  const summary = await ask(ctx, chain, `/addresses/${address}`);
  if (summary.status === 422) throw invalid('wallet', `Blockscout refused this address on ${chain}`);
  // An address the chain has never seen is a wallet with nothing in it (Blockscout answers 404).
  if (summary.status === 404) return { wallet: wallet({}, chain, address), transactions: [] };
  const found: Array<{ t: Transfer; position?: number }> = [];
  let keys = start ? new URLSearchParams({ block_number: start.block, index: start.index, items_count: String(start.count) }) : undefined;
  let more = false;
  for (let page = 0; page < MAX_PAGES && found.length < limit; page++) {
    const res = await ask(ctx, chain, `/addresses/${address}/transactions`, keys);
    if (res.status === 422) throw keys ? badCursor('Blockscout refused this cursor') : invalid('wallet', `Blockscout refused this address on ${chain}`);
    if (res.status === 404) break;
    if (!isObj(res.body) || !Array.isArray(res.body.items)) throw changed('transactions answer without items');
    for (const item of res.body.items) found.push({ t: transfer(item, chain, address), position: int(obj(item)?.position) });
    const next = obj(res.body.next_page_params);
    more = Boolean(next);
    if (!next) break;
    keys = new URLSearchParams(Object.entries(next).flatMap(([k, v]) => (typeof v === 'number' || typeof v === 'string' ? [[k, String(v)]] : [])));
  }
  const answered = found.slice(0, limit);
  const last = answered[answered.length - 1];
  const cutShort = found.length > limit || more;
  const count = (start?.count ?? 0) + answered.length;
  const next = cutShort && last?.t.block !== undefined && last.position !== undefined ? `e~${last.t.block}~${last.position}~${Math.min(count, 9_999_999)}` : undefined;
  return { wallet: wallet(summary.body, chain, address), transactions: answered.map((f) => f.t), ...(next ? { cursor: next } : {}) };
}

// ---- token holders --------------------------------------------------------------------------------------------------

export function token(v: unknown, chain: EvmChain): Token {
  const t = obj(v);
  if (!t) throw changed('token answer is not an object');
  const address = need(str(t.address_hash) ?? str(t.address) ?? hashOf(t.address), 'token without an address');
  const decimals = int(t.decimals);
  return compact({
    type: 'token' as const,
    id: address,
    chain,
    address,
    symbol: str(t.symbol),
    name: str(t.name),
    url: `https://${EVM_CHAINS[chain].host}/token/${address}`,
    image: webUrl(t.icon_url),
    decimals,
    totalSupply: decimals === undefined ? undefined : fromBaseUnits(t.total_supply, decimals),
    holders: int(t.holders_count) ?? int(t.holders),
    price: usd(t.exchange_rate),
    marketCap: usd(t.circulating_market_cap),
  });
}

export function holder(v: unknown, chain: EvmChain, rank: number, decimals: number, totalSupply: unknown): Holder & { raw: string } {
  const h = obj(v) ?? {};
  const who: Obj = obj(h.address) ?? obj(h.address_hash) ?? {};
  const address = need(str(who.hash), 'holder without an address hash');
  const raw = need(typeof h.value === 'string' && /^[0-9]{1,80}$/.test(h.value) ? h.value : undefined, `holder ${address} without an integer value`);
  return {
    ...compact({
      type: 'holder' as const,
      rank,
      address,
      balance: need(fromBaseUnits(raw, decimals), `holder ${address} with an unreadable value`),
      sharePercent: sharePercent(raw, totalSupply),
      isContract: bool(who.is_contract),
      name: str(who.name),
      url: `https://${EVM_CHAINS[chain].host}/address/${address}`,
    }),
    raw,
  };
}

/** SPEC's holders cursor `<items so far>:<balance in base units>:<address>` is Blockscout's holders keyset. */
export function holdersCursor(cursor: string | undefined): { count: number; value: string; address: string } | undefined {
  if (cursor === undefined) return undefined;
  const m = /^([0-9]{1,7}):([0-9]{1,80}):(0x[0-9a-fA-F]{40})$/.exec(cursor);
  if (!m) throw badCursor();
  return { count: Number(m[1]), value: m[2], address: m[3] };
}

export async function holders(
  ctx: SourceContext,
  chain: EvmChain,
  tokenAddress: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ token: Token; holders: Holder[]; cursor?: string }> {
  const start = holdersCursor(cursor);
  const info = await ask(ctx, chain, `/tokens/${tokenAddress}`);
  if (info.status === 404) throw notFound(`token: no token at ${tokenAddress} on ${chain}`);
  if (info.status === 422) throw invalid('token', `Blockscout refused this address on ${chain}`);
  const record = token(info.body, chain);
  const decimals = record.decimals ?? 0;
  const totalSupply = obj(info.body)?.total_supply;
  const found: Array<Holder & { raw: string }> = [];
  let keys = start ? new URLSearchParams({ address_hash: start.address, items_count: String(start.count), value: start.value }) : undefined;
  let more = false;
  for (let page = 0; page < MAX_PAGES && found.length < limit; page++) {
    const res = await ask(ctx, chain, `/tokens/${tokenAddress}/holders`, keys);
    if (res.status === 422) throw keys ? badCursor('Blockscout refused this cursor') : invalid('token', `Blockscout refused this token on ${chain}`);
    if (res.status === 404) throw notFound(`token: no token at ${tokenAddress} on ${chain}`);
    if (!isObj(res.body) || !Array.isArray(res.body.items)) throw changed('holders answer without items');
    const first = (start?.count ?? 0) + found.length;
    res.body.items.forEach((item, i) => found.push(holder(item, chain, first + i + 1, decimals, totalSupply)));
    more = isObj(res.body.next_page_params);
    if (!more || res.body.items.length === 0) break;
    // The next page's keys from the last holder read (Blockscout's own next_page_params carries `value` as a JSON
    // number, which loses digits past 2^53; the item's string keeps them).
    const last = found[found.length - 1];
    keys = new URLSearchParams({ address_hash: last.address, items_count: String(first + res.body.items.length), value: last.raw });
  }
  const answered = found.slice(0, limit);
  const last = answered[answered.length - 1];
  const count = (start?.count ?? 0) + answered.length;
  const next = (found.length > limit || more) && last && count <= 9_999_999 ? `${count}:${last.raw}:${last.address}` : undefined;
  return { token: record, holders: answered.map(({ raw: _raw, ...h }) => h), ...(next ? { cursor: next } : {}) };
}
