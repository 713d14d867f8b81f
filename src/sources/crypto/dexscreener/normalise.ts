/**
 * DexScreener answers (docs.dexscreener.com/api/reference) → PAIR and LISTED_TOKEN. Pure functions. Prices come as
 * decimal strings (`priceUsd`, `priceNative`); windows are m5, h1, h6 and h24; `pairCreatedAt` is in milliseconds.
 */
import type { LISTED_TOKEN, PAIR, TOKEN } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { arr, compact, int, isObj, isoFromMillis, isoFromText, readsOf, obj, str, type Obj } from '../../kit/read.js';
import { assetAmount, changes, linkList, usd, usdByWindow, webUrl } from '../values.js';

export type Pair = TypeOf<typeof PAIR>;
export type Token = TypeOf<typeof TOKEN>;
export type ListedToken = TypeOf<typeof LISTED_TOKEN>;

const SITE = 'https://dexscreener.com';
export const { need, changed } = readsOf('crypto', 'DexScreener');

/** The same address, compared as the chain compares it: EVM hex ignores case, base58 does not. */
export const sameAddress = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);

function pairToken(v: unknown, chain: string, what: string): Token {
  const t = obj(v);
  const address = need(str(t?.address), `pair without a ${what} address`);
  return compact({ type: 'token' as const, id: address, chain, address, symbol: str(t?.symbol), name: str(t?.name) });
}

function windows(v: unknown): Record<'fiveMinutes' | 'hour' | 'sixHours' | 'day', unknown> {
  const o = obj(v) ?? {};
  return { fiveMinutes: o.m5, hour: o.h1, sixHours: o.h6, day: o.h24 };
}

function transactions(v: unknown): Pair['transactions'] {
  const out: NonNullable<Pair['transactions']> = {};
  for (const [k, w] of Object.entries(windows(v))) {
    const buys = int(obj(w)?.buys);
    const sells = int(obj(w)?.sells);
    if (buys !== undefined && sells !== undefined) out[k as 'day'] = { buys, sells };
  }
  return Object.keys(out).length ? out : undefined;
}

function infoLinks(info: Obj): Pair['links'] {
  return linkList([
    ...arr(info.websites).map((w) => ['website', obj(w)?.url, obj(w)?.label] as [string, unknown, unknown]),
    ...arr(info.socials).map((s) => [str(obj(s)?.type), obj(s)?.url] as [string | undefined, unknown]),
  ]);
}

export function pair(v: unknown): Pair {
  const p = obj(v);
  if (!p) throw changed('pair that is not an object');
  const chain = need(str(p.chainId), 'pair without a chainId').toLowerCase();
  const address = need(str(p.pairAddress), 'pair without a pairAddress');
  const baseToken = pairToken(p.baseToken, chain, 'base token');
  const quoteToken = pairToken(p.quoteToken, chain, 'quote token');
  const liquidity = obj(p.liquidity) ?? {};
  const info = obj(p.info) ?? {};
  const reserves = compact({ base: num0(liquidity.base), quote: num0(liquidity.quote) });
  return compact({
    type: 'pair' as const,
    id: address,
    chain,
    dex: need(str(p.dexId), `pair ${address} without a dexId`),
    address,
    url: webUrl(p.url) ?? `${SITE}/${chain}/${address}`,
    baseToken,
    quoteToken,
    priceInQuote: need(assetAmount(p.priceNative, quoteToken.symbol ?? quoteToken.address), `pair ${address} without priceNative`),
    price: usd(p.priceUsd),
    transactions: transactions(p.txns),
    volume: usdByWindow(windows(p.volume)),
    priceChangePercent: changes(windows(p.priceChange)),
    liquidity: usd(liquidity.usd),
    reserves: Object.keys(reserves).length ? reserves : undefined,
    fullyDilutedValuation: usd(p.fdv),
    marketCap: usd(p.marketCap),
    createdAt: isoFromMillis(p.pairCreatedAt),
    labels: arr(p.labels).flatMap((l) => (str(l) ? [str(l)!] : [])),
    image: webUrl(info.imageUrl),
    header: webUrl(info.header),
    links: infoLinks(info),
    boosts: int(obj(p.boosts)?.active),
  });
}

const num0 = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** `{schemaVersion, pairs}` (search, pairs, legacy tokens); `pairs` is null when nothing matched. */
export function pairsEnvelope(answer: unknown): Pair[] {
  if (!isObj(answer) || !('pairs' in answer)) throw changed('answer without pairs');
  if (answer.pairs === null) return [];
  if (!Array.isArray(answer.pairs)) throw changed('answer whose pairs is not a list');
  return answer.pairs.map(pair);
}

/** A bare list of pairs (token-pairs/v1, tokens/v1). */
export function pairList(answer: unknown): Pair[] {
  if (!Array.isArray(answer)) throw changed('pairs answer is not a list');
  return answer.map(pair);
}

/** A token profile, boost or community takeover. */
export function listedToken(v: unknown): ListedToken {
  const t = obj(v);
  if (!t) throw changed('token entry that is not an object');
  const chain = need(str(t.chainId), 'token entry without a chainId').toLowerCase();
  const address = need(str(t.tokenAddress), 'token entry without a tokenAddress');
  return compact({
    type: 'token' as const,
    id: address,
    chain,
    address,
    url: webUrl(t.url) ?? `${SITE}/${chain}/${address}`,
    image: webUrl(t.icon),
    header: webUrl(t.header),
    description: str(t.description),
    links: linkList(arr(t.links).map((l) => [str(obj(l)?.type) ?? (str(obj(l)?.label) ? 'website' : undefined), obj(l)?.url, obj(l)?.label])),
    boosts: int(t.amount),
    totalBoosts: int(t.totalAmount),
    claimedAt: isoFromText(t.claimDate),
  });
}

/** The profile/boost/takeover lists; DexScreener's reference types them as one object, the service answers a list. */
export function listedTokens(answer: unknown): ListedToken[] {
  if (Array.isArray(answer)) return answer.map(listedToken);
  if (isObj(answer) && 'tokenAddress' in answer) return [listedToken(answer)];
  throw changed('token list answer is not a list');
}

/** A listed token with the pairs whose base token it is; its symbol and name come from them. */
export function withPairs(token: ListedToken, pairs: Pair[]): ListedToken {
  const own = pairs.filter((p) => p.chain === token.chain && sameAddress(p.baseToken.address, token.address));
  const base = own[0]?.baseToken;
  return compact({ ...token, symbol: token.symbol ?? base?.symbol, name: token.name ?? base?.name, pairs: own });
}
