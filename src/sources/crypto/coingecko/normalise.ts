/**
 * CoinGecko answers → the crypto records (COIN, COIN_CATEGORY, NFT_COLLECTION, MARKET, price points). Pure
 * functions. Symbols are upper-cased (CoinGecko lower-cases them in most answers and upper-cases them in others);
 * what an answer does not carry is left out.
 */
import type { CANDLE, COIN, COIN_CATEGORY, MARKET, NFT_COLLECTION, PRICE_POINT } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { arr, compact, int, isObj, isoFromMillis, isoFromSeconds, isoFromText, readsOf, num, obj, str, type Obj } from '../../kit/read.js';
import { assetAmount, changes, linkList, usd, usdByWindow, webUrl } from '../values.js';

export type Coin = TypeOf<typeof COIN>;
export type CoinCategory = TypeOf<typeof COIN_CATEGORY>;
export type NftCollection = TypeOf<typeof NFT_COLLECTION>;
export type Market = TypeOf<typeof MARKET>;
export type PricePoint = TypeOf<typeof PRICE_POINT>;
export type Candle = TypeOf<typeof CANDLE>;

const SITE = 'https://www.coingecko.com/en';
const { need, changed } = readsOf('crypto', 'CoinGecko');
const upper = (v: unknown) => str(v)?.toUpperCase();
/** A value of CoinGecko's per-currency maps ({usd: …, eur: …}). */
const inUsd = (v: unknown) => obj(v)?.usd;

/** "$104,127,324" (trending's preformatted amounts) → 104127324. */
export function dollars(v: unknown): number | undefined {
  if (typeof v === 'number') return num(v);
  const s = str(v);
  return s && /^\$?[\d,]+(?:\.\d+)?$/.test(s) ? num(s.replace(/[$,]/g, '')) : undefined;
}

/** "0.24 BTC" → {amount: 0.24, symbol: BTC}. */
function amountText(v: unknown): ReturnType<typeof assetAmount> {
  const m = /^(-?\d+(?:\.\d+)?)\s+([A-Za-z0-9.]{1,15})$/.exec(str(v) ?? '');
  return m ? assetAmount(m[1], m[2].toUpperCase()) : undefined;
}

function coinBase(c: Obj, what: string): Pick<Coin, 'type' | 'id' | 'symbol' | 'name' | 'url'> {
  const id = need(str(c.id), `${what} without an id`);
  return {
    type: 'coin',
    id,
    symbol: need(upper(c.symbol), `${what} ${id} without a symbol`),
    name: need(str(c.name), `${what} ${id} without a name`),
    url: `${SITE}/coins/${encodeURIComponent(str(c.web_slug) ?? str(c.slug) ?? id)}`,
  };
}

const extreme = (price: unknown, at: unknown, change: unknown) => {
  const p = usd(price);
  return p ? compact({ price: p, at: isoFromText(at), changePercent: num(change) }) : undefined;
};

// ---- /search/trending and /global ---------------------------------------------------------------------------------

export function trendingCoin(entry: unknown): Coin {
  const c = obj(obj(entry)?.item);
  if (!c) throw changed('trending coin without an item');
  const data = obj(c.data) ?? {};
  return compact({
    ...coinBase(c, 'trending coin'),
    image: webUrl(c.large) ?? webUrl(c.small) ?? webUrl(c.thumb),
    rank: int(c.market_cap_rank),
    price: usd(data.price),
    priceBtc: num(c.price_btc),
    marketCap: usd(dollars(data.market_cap)),
    volume: usdByWindow({ day: dollars(data.total_volume) }),
    priceChangePercent: changes({ day: inUsd(data.price_change_percentage_24h) }),
    sparkline: webUrl(data.sparkline),
  });
}

export function trendingCategory(v: unknown): CoinCategory {
  const c = obj(v) ?? {};
  const id = need(str(c.slug) ?? (c.id === undefined ? undefined : String(c.id)), 'trending category without a slug');
  const data = obj(c.data) ?? {};
  return compact({
    type: 'category' as const,
    id,
    name: need(str(c.name), `trending category ${id} without a name`),
    url: `${SITE}/categories/${encodeURIComponent(id)}`,
    coins: int(c.coins_count),
    marketCap: usd(data.market_cap),
    marketCapChangePercent: changes({ hour: c.market_cap_1h_change, day: inUsd(data.market_cap_change_percentage_24h) }),
    volume: usdByWindow({ day: data.total_volume }),
    sparkline: webUrl(data.sparkline),
  });
}

export function trendingNft(v: unknown): NftCollection {
  const n = obj(v) ?? {};
  const id = need(str(n.id), 'trending NFT without an id');
  const data = obj(n.data) ?? {};
  return compact({
    type: 'nft' as const,
    id,
    name: need(str(n.name), `trending NFT ${id} without a name`),
    url: `${SITE}/nft/${encodeURIComponent(id)}`,
    symbol: upper(n.symbol),
    image: webUrl(n.thumb),
    floorPrice: assetAmount(n.floor_price_in_native_currency, upper(n.native_currency_symbol)),
    floorPriceChangePercent: changes({ day: n.floor_price_24h_percentage_change }),
    volume24h: amountText(data.h24_volume),
    sparkline: webUrl(data.sparkline),
  });
}

export function trending(answer: unknown): { coins: Coin[]; categories: CoinCategory[]; nfts: NftCollection[] } {
  if (!isObj(answer) || !Array.isArray(answer.coins)) throw changed('trending answer without coins');
  if (!Array.isArray(answer.categories) || !Array.isArray(answer.nfts)) throw changed('trending answer without categories or nfts');
  return {
    coins: answer.coins.map(trendingCoin),
    categories: answer.categories.map(trendingCategory),
    nfts: answer.nfts.map(trendingNft),
  };
}

/** /global → the whole market. */
export function market(answer: unknown): Market {
  const d = obj(obj(answer)?.data);
  if (!d) throw changed('global answer without data');
  const shares = Object.entries(obj(d.market_cap_percentage) ?? {})
    .flatMap(([symbol, p]) => (num(p) === undefined ? [] : [{ symbol: symbol.toUpperCase(), percent: num(p)! }]))
    .sort((a, b) => b.percent - a.percent);
  return compact({
    marketCap: need(usd(inUsd(d.total_market_cap)), 'global answer without total_market_cap.usd'),
    volume: need(usdByWindow({ day: inUsd(d.total_volume) }), 'global answer without total_volume.usd'),
    marketCapChangePercent: changes({ day: d.market_cap_change_percentage_24h_usd }),
    dominancePercent: shares,
    coins: int(d.active_cryptocurrencies),
    markets: int(d.markets),
    updatedAt: isoFromSeconds(d.updated_at),
  });
}

// ---- /coins/categories ----------------------------------------------------------------------------------------------

export function category(v: unknown): CoinCategory {
  const c = obj(v) ?? {};
  const id = need(str(c.id), 'category without an id');
  return compact({
    type: 'category' as const,
    id,
    name: need(str(c.name), `category ${id} without a name`),
    url: `${SITE}/categories/${encodeURIComponent(id)}`,
    marketCap: usd(c.market_cap),
    marketCapChangePercent: changes({ day: c.market_cap_change_24h }),
    volume: usdByWindow({ day: c.volume_24h }),
    topCoins: arr(c.top_3_coins_id).flatMap((x) => (str(x) ? [str(x)!] : [])),
    description: str(c.content),
    updatedAt: isoFromText(c.updated_at),
  });
}

export function categories(answer: unknown): CoinCategory[] {
  if (!Array.isArray(answer)) throw changed('categories answer is not a list');
  return answer.map(category);
}

// ---- /coins/markets -------------------------------------------------------------------------------------------------

/** One row of /coins/markets (asked with price_change_percentage=1h,24h,7d,30d). */
export function marketCoin(v: unknown): Coin {
  const c = obj(v) ?? {};
  return compact({
    ...coinBase(c, 'market coin'),
    image: webUrl(c.image),
    rank: int(c.market_cap_rank),
    price: usd(c.current_price),
    marketCap: usd(c.market_cap),
    fullyDilutedValuation: usd(c.fully_diluted_valuation),
    volume: usdByWindow({ day: c.total_volume }),
    high24h: usd(c.high_24h),
    low24h: usd(c.low_24h),
    priceChangePercent: changes({
      hour: c.price_change_percentage_1h_in_currency,
      day: c.price_change_percentage_24h_in_currency ?? c.price_change_percentage_24h,
      week: c.price_change_percentage_7d_in_currency,
      month: c.price_change_percentage_30d_in_currency,
    }),
    marketCapChangePercent: changes({ day: c.market_cap_change_percentage_24h }),
    circulatingSupply: num(c.circulating_supply),
    totalSupply: num(c.total_supply),
    maxSupply: num(c.max_supply),
    allTimeHigh: extreme(c.ath, c.ath_date, c.ath_change_percentage),
    allTimeLow: extreme(c.atl, c.atl_date, c.atl_change_percentage),
    updatedAt: isoFromText(c.last_updated),
  });
}

export function marketCoins(answer: unknown): Coin[] {
  if (!Array.isArray(answer)) throw changed('markets answer is not a list');
  return answer.map(marketCoin);
}

// ---- /coins/list/new ------------------------------------------------------------------------------------------------

export function newCoin(v: unknown): Coin {
  const c = obj(v) ?? {};
  const base = coinBase(c, 'new coin');
  return { ...base, listedAt: need(isoFromSeconds(c.activated_at), `new coin ${base.id} without activated_at`) };
}

// ---- /coins/{id} ----------------------------------------------------------------------------------------------------

const HANDLE = /^[A-Za-z0-9_.-]{1,100}$/;
const handleUrl = (prefix: string, v: unknown) => {
  const h = str(v);
  return h && HANDLE.test(h) ? `${prefix}${h}` : undefined;
};

/** CoinGecko descriptions carry HTML links; the record holds text. */
export function plainText(v: unknown): string | undefined {
  const s = str(v);
  if (!s) return undefined;
  const text = s
    .slice(0, 20_000)
    .replace(/<[^<>]{0,2000}>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e]!)
    .replace(/\r\n/g, '\n')
    .trim();
  return text || undefined;
}

function coinLinks(l: Obj): Coin['links'] {
  const many = (type: string, v: unknown) => arr(v).map((u) => [type, u] as [string, unknown]);
  const repos = obj(l.repos_url) ?? {};
  return linkList([
    ...many('website', l.homepage),
    ['whitepaper', l.whitepaper],
    ...many('explorer', l.blockchain_site),
    ...many('forum', l.official_forum_url),
    ...many('chat', l.chat_url),
    ...many('announcement', l.announcement_url),
    ['twitter', handleUrl('https://x.com/', l.twitter_screen_name)],
    ['facebook', handleUrl('https://www.facebook.com/', l.facebook_username)],
    ['telegram', handleUrl('https://t.me/', l.telegram_channel_identifier)],
    ['reddit', l.subreddit_url],
    ...many('github', repos.github),
    ...many('bitbucket', repos.bitbucket),
  ]);
}

function platforms(v: unknown): Coin['platforms'] {
  const out = Object.entries(obj(v) ?? {}).flatMap(([chain, p]) => {
    const address = str(obj(p)?.contract_address);
    return chain && address ? [compact({ chain, address, decimals: int(obj(p)?.decimal_place) })] : [];
  });
  return out.length ? out : undefined;
}

/** /coins/{id} (asked without localization, tickers, community and developer data). */
export function coinDetail(answer: unknown): Coin {
  const c = obj(answer);
  if (!c) throw changed('coin answer is not an object');
  const m = obj(c.market_data) ?? {};
  const image = obj(c.image) ?? {};
  return compact({
    ...coinBase(c, 'coin'),
    image: webUrl(image.large) ?? webUrl(image.small) ?? webUrl(image.thumb),
    rank: int(c.market_cap_rank) ?? int(m.market_cap_rank),
    price: usd(inUsd(m.current_price)),
    marketCap: usd(inUsd(m.market_cap)),
    fullyDilutedValuation: usd(inUsd(m.fully_diluted_valuation)),
    volume: usdByWindow({ day: inUsd(m.total_volume) }),
    high24h: usd(inUsd(m.high_24h)),
    low24h: usd(inUsd(m.low_24h)),
    priceChangePercent: changes({
      hour: inUsd(m.price_change_percentage_1h_in_currency),
      day: inUsd(m.price_change_percentage_24h_in_currency) ?? m.price_change_percentage_24h,
      week: inUsd(m.price_change_percentage_7d_in_currency) ?? m.price_change_percentage_7d,
      twoWeeks: inUsd(m.price_change_percentage_14d_in_currency) ?? m.price_change_percentage_14d,
      month: inUsd(m.price_change_percentage_30d_in_currency) ?? m.price_change_percentage_30d,
      twoMonths: inUsd(m.price_change_percentage_60d_in_currency) ?? m.price_change_percentage_60d,
      year: inUsd(m.price_change_percentage_1y_in_currency) ?? m.price_change_percentage_1y,
    }),
    marketCapChangePercent: changes({ day: inUsd(m.market_cap_change_percentage_24h_in_currency) ?? m.market_cap_change_percentage_24h }),
    circulatingSupply: num(m.circulating_supply),
    totalSupply: num(m.total_supply),
    maxSupply: num(m.max_supply),
    allTimeHigh: extreme(inUsd(m.ath), inUsd(m.ath_date), inUsd(m.ath_change_percentage)),
    allTimeLow: extreme(inUsd(m.atl), inUsd(m.atl_date), inUsd(m.atl_change_percentage)),
    description: plainText(obj(c.description)?.en),
    categories: arr(c.categories).flatMap((x) => (str(x) ? [str(x)!] : [])),
    links: coinLinks(obj(c.links) ?? {}),
    platforms: platforms(c.detail_platforms),
    genesisDate: /^\d{4}-\d{2}-\d{2}$/.test(str(c.genesis_date) ?? '') ? str(c.genesis_date) : undefined,
    hashingAlgorithm: str(c.hashing_algorithm),
    sentimentUpPercent: num(c.sentiment_votes_up_percentage),
    watchlists: int(c.watchlist_portfolio_users),
    updatedAt: isoFromText(m.last_updated) ?? isoFromText(c.last_updated),
  });
}

/**
 * /coins/{id}/history?date=dd-mm-yyyy: the coin at 00:00 UTC of `day`. A coin that had no market that day answers
 * without market_data: undefined here (the caller's notFound).
 */
export function coinOnDay(answer: unknown, day: string): Coin | undefined {
  const c = obj(answer);
  if (!c) throw changed('coin history answer is not an object');
  const m = obj(c.market_data);
  const price = usd(inUsd(m?.current_price));
  if (!price) return undefined;
  const image = obj(c.image) ?? {};
  return compact({
    ...coinBase(c, 'coin history'),
    image: webUrl(image.small) ?? webUrl(image.thumb),
    price,
    marketCap: usd(inUsd(m?.market_cap)),
    volume: usdByWindow({ day: inUsd(m?.total_volume) }),
    updatedAt: `${day}T00:00:00.000Z`,
  });
}

// ---- /coins/{id}/market_chart/range and /ohlc -----------------------------------------------------------------------

const MAX_POINTS = 20_000;

function pairs(v: unknown): Array<[number, number]> {
  return arr(v).flatMap((p) => {
    const [t, x] = arr(p);
    return typeof t === 'number' && Number.isFinite(t) && num(x) !== undefined ? [[t, num(x)!] as [number, number]] : [];
  });
}

/** prices, market_caps and total_volumes joined by time. */
export function chart(answer: unknown): PricePoint[] {
  const c = obj(answer);
  if (!c || !Array.isArray(c.prices)) throw changed('market chart answer without prices');
  const caps = new Map(pairs(c.market_caps));
  const volumes = new Map(pairs(c.total_volumes));
  return pairs(c.prices)
    .slice(0, MAX_POINTS)
    .flatMap(([t, price]) => {
      const at = isoFromMillis(t);
      return at ? [compact({ at, price, marketCap: caps.get(t), volume24h: volumes.get(t) })] : [];
    });
}

/** [[ms, open, high, low, close]] rows. */
export function candles(answer: unknown): Candle[] {
  if (!Array.isArray(answer)) throw changed('ohlc answer is not a list');
  return answer.slice(0, MAX_POINTS).flatMap((row) => {
    const [t, open, high, low, close] = arr(row).map((x) => num(x));
    const at = t === undefined ? undefined : isoFromMillis(t);
    return at && open !== undefined && high !== undefined && low !== undefined && close !== undefined ? [{ at, open, high, low, close }] : [];
  });
}

/** For callers that judge a whole answer (an empty market list): the same drift error. */
export const changedAnswer = changed;
