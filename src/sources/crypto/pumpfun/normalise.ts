/**
 * pump.fun answers → TOKEN and TRADE. Pure functions. Coins come from its frontend API (frontend-api-v3.pump.fun:
 * timestamps in ms, `market_cap` in SOL, `usd_market_cap` in USD, supply in base units with `base_decimals`); trades
 * from its swap API (swap-api.pump.fun/v2: ISO timestamps, decimal strings already in whole units).
 */
import type { TOKEN, TRADE } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { arr, bool, compact, int, isObj, isoFromMillis, isoFromText, readsOf, num, obj, str } from '../../kit/read.js';
import { assetAmount, fromBaseUnits, linkList, usd, webUrl } from '../values.js';

export type Token = TypeOf<typeof TOKEN>;
export type Trade = TypeOf<typeof TRADE>;

export const { need, changed } = readsOf('crypto', 'pump.fun');

/** Tokens a pump.fun bonding curve sells before it completes (793,100,000 with 6 decimals), as its site computes progress. */
const CURVE_TOKENS = 793_100_000_000_000n;
/** Supply decimals of pump.fun mints when an answer does not say. */
const PUMP_DECIMALS = 6;

function curvePercent(c: Record<string, unknown>): number | undefined {
  if (c.complete === true) return 100;
  const left = str(c.real_token_reserves_str) ?? (Number.isSafeInteger(c.real_token_reserves) ? String(c.real_token_reserves) : undefined);
  if (!left || !/^\d{1,30}$/.test(left)) return undefined;
  const sold = CURVE_TOKENS - BigInt(left);
  const percent = Number((sold * 10_000n) / CURVE_TOKENS) / 100;
  return Math.min(100, Math.max(0, percent));
}

export function coin(v: unknown): Token {
  const c = obj(v);
  if (!c) throw changed('coin that is not an object');
  const mint = need(str(c.mint), 'coin without a mint');
  const decimals = int(c.base_decimals) ?? PUMP_DECIMALS;
  const totalSupply = fromBaseUnits(str(c.total_supply_str) ?? c.total_supply, decimals);
  const marketCapUsd = num(c.usd_market_cap) ?? num(c.market_cap_usd);
  return compact({
    type: 'token' as const,
    id: mint,
    chain: 'solana',
    address: mint,
    symbol: need(str(c.symbol), `coin ${mint} without a symbol`),
    name: need(str(c.name), `coin ${mint} without a name`),
    url: `https://pump.fun/coin/${mint}`,
    image: webUrl(c.image_uri),
    description: str(c.description),
    links: linkList([
      ['website', c.website],
      ['twitter', c.twitter],
      ['telegram', c.telegram],
    ]),
    decimals,
    totalSupply,
    price: marketCapUsd !== undefined && totalSupply ? usd(marketCapUsd / totalSupply) : undefined,
    marketCap: usd(marketCapUsd),
    marketCapInQuote: assetAmount(c.market_cap, 'SOL'),
    allTimeHighMarketCap: usd(c.ath_market_cap),
    creator: str(c.creator),
    createdAt: need(isoFromMillis(c.created_timestamp), `coin ${mint} without created_timestamp`),
    lastTradeAt: isoFromMillis(c.last_trade_timestamp),
    replies: int(c.reply_count),
    lastReplyAt: isoFromMillis(c.last_reply),
    isNsfw: bool(c.nsfw),
    isLive: bool(c.is_currently_live),
    isGraduated: bool(c.complete),
    bondingCurve: str(c.bonding_curve),
    bondingCurvePercent: curvePercent(c),
    pool: str(c.pool_address) ?? str(c.pump_swap_pool) ?? str(c.raydium_pool),
  });
}

export function coinList(answer: unknown): Token[] {
  if (!Array.isArray(answer)) throw changed('coins answer is not a list');
  return answer.map(coin);
}

export function trade(v: unknown, mint: string): Trade {
  const t = obj(v);
  if (!t) throw changed('trade that is not an object');
  const tx = need(str(t.tx), 'trade without a tx signature');
  const side = str(t.type);
  if (side !== 'buy' && side !== 'sell') throw changed(`trade ${tx} whose type is neither buy nor sell`);
  return compact({
    type: 'trade' as const,
    id: tx,
    chain: 'solana',
    side: side as 'buy' | 'sell',
    createdAt: need(isoFromText(t.timestamp), `trade ${tx} without a timestamp`),
    trader: need(str(t.userAddress), `trade ${tx} without a userAddress`),
    tokenAmount: need(num(t.baseAmount), `trade ${tx} without a baseAmount`),
    url: `https://solscan.io/tx/${tx}`,
    hash: tx,
    token: mint,
    quoteAmount: assetAmount(t.amountSol, 'SOL'),
    value: usd(t.amountUsd),
    price: usd(t.priceUsd),
    priceInQuote: assetAmount(t.priceSol, 'SOL'),
    venue: str(t.program),
  });
}

export interface TradePage {
  trades: Trade[];
  /** The swap API's seek key for the next (older) page, when it says there is one. */
  next?: string;
}

export function tradePage(answer: unknown, mint: string): TradePage {
  if (!isObj(answer) || !Array.isArray(answer.trades)) throw changed('trades answer without trades');
  const paging = obj(answer.pagination);
  const next = paging?.hasMore === true ? str(paging.nextCursor) : undefined;
  return { trades: arr(answer.trades).map((t) => trade(t, mint)), ...(next ? { next } : {}) };
}
