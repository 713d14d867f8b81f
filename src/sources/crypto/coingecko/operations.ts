/** The CoinGecko-backed endpoints: requests (./client.ts) joined to normalisers (./normalise.ts). */
import type { CRYPTO } from '../../../catalogue/endpoints/crypto.js';
import type { InputOf, OutputOf } from '../../../catalogue/types.js';
import type { OperationResult, SourceContext } from '../../types.js';
import { invalid, needsSetting, notFound } from '../http.js';
import { access, cg, HISTORY_DAYS_WITHOUT_PRO, withCoinId } from './client.js';
import * as N from './normalise.js';

type In<K extends keyof typeof CRYPTO> = InputOf<(typeof CRYPTO)[K]>;
type Out<K extends keyof typeof CRYPTO> = Promise<OperationResult<OutputOf<(typeof CRYPTO)[K]>>>;

const DAY_MS = 86_400_000;

export async function trending(ctx: SourceContext): Out<'trending'> {
  const [answer, global] = await Promise.all([cg(ctx, '/search/trending'), cg(ctx, '/global')]);
  return { data: { ...N.trending(answer), market: N.market(global) } };
}

const CATEGORY_ORDER = { marketCap: 'market_cap', change: 'market_cap_change_24h', name: 'name' } as const;

export async function categories(ctx: SourceContext, input: In<'categories'>): Out<'categories'> {
  const order = input.order ?? (input.sort === 'name' ? 'asc' : 'desc');
  const answer = await cg(ctx, '/coins/categories', { order: `${CATEGORY_ORDER[input.sort]}_${order}` });
  return { data: { categories: N.categories(answer).slice(0, input.limit) } };
}

const MOVER_WINDOW = { hour: 'hour', day: 'day', week: 'week', month: 'month' } as const;
const MARKETS_PAGE = 250;

export async function movers(ctx: SourceContext, input: In<'movers'>): Out<'movers'> {
  const rankUpTo = input.rankUpTo ?? 100;
  const perPage = Math.min(rankUpTo, MARKETS_PAGE);
  const pages = Math.ceil(rankUpTo / perPage);
  const answers = await Promise.all(
    Array.from({ length: pages }, (_, i) =>
      cg(ctx, '/coins/markets', {
        vs_currency: 'usd',
        order: 'market_cap_desc',
        per_page: String(perPage),
        page: String(i + 1),
        price_change_percentage: '1h,24h,7d,30d',
      }),
    ),
  );
  const coins = answers.flatMap(N.marketCoins);
  if (coins.length === 0) throw N.changedAnswer('markets answer with no coins');
  const window = MOVER_WINDOW[input.within];
  const ranked = coins
    .filter((c, i) => (c.rank ?? i + 1) <= rankUpTo)
    .flatMap((c) => {
      const change = c.priceChangePercent?.[window];
      return change === undefined ? [] : [{ c, change }];
    });
  const gainers = ranked.filter((r) => r.change > 0).sort((a, b) => b.change - a.change);
  const losers = ranked.filter((r) => r.change < 0).sort((a, b) => a.change - b.change);
  return {
    data: {
      within: input.within,
      rankUpTo,
      gainers: gainers.slice(0, input.limit).map((r) => r.c),
      losers: losers.slice(0, input.limit).map((r) => r.c),
    },
  };
}

export async function newCoins(ctx: SourceContext, input: In<'new'>): Out<'new'> {
  if (access(ctx.settings).plan !== 'pro') {
    throw needsSetting(
      "crypto.new reads CoinGecko's recently added coins, which only its paid plans serve: set QUARRY_CRYPTO_COINGECKO_KEY and QUARRY_CRYPTO_COINGECKO_PLAN=pro",
    );
  }
  const list = await cg(ctx, '/coins/list/new');
  if (!Array.isArray(list)) throw N.changedAnswer('new coins answer is not a list');
  const coins = list
    .map(N.newCoin)
    .sort((a, b) => (b.listedAt ?? '').localeCompare(a.listedAt ?? ''))
    .slice(0, input.limit);
  if (coins.length === 0) return { data: { coins }, free: true };
  // Prices of the new coins in one /coins/markets call (at most 250 ids; limit is at most 200).
  const priced = new Map(
    N.marketCoins(await cg(ctx, '/coins/markets', { vs_currency: 'usd', ids: coins.map((c) => c.id).join(','), per_page: '250' })).map((c) => [c.id, c]),
  );
  return { data: { coins: coins.map((c) => ({ ...priced.get(c.id), ...c })) } };
}

/** dd-mm-yyyy, as /coins/{id}/history takes its day. */
const dmy = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

export async function coin(ctx: SourceContext, input: In<'coin'>): Out<'coin'> {
  const day = input.date;
  if (day) {
    const at = Date.parse(`${day}T00:00:00Z`);
    if (at > Date.now()) throw invalid('date', 'must not be in the future');
    if (access(ctx.settings).plan !== 'pro' && at < Date.now() - HISTORY_DAYS_WITHOUT_PRO * DAY_MS) {
      throw invalid('date', `must be within the last ${HISTORY_DAYS_WITHOUT_PRO} days (CoinGecko's keyless and demo plans serve no older prices)`);
    }
    return withCoinId(ctx, input.coin, async (id, missing) => {
      const record = N.coinOnDay(await cg(ctx, `/coins/${encodeURIComponent(id)}/history`, { date: dmy(day), localization: 'false' }, missing), day);
      if (!record) throw notFound(`date: CoinGecko has no price of ${id} on ${day}`);
      return { data: { coin: record } };
    });
  }
  return withCoinId(ctx, input.coin, async (id, missing) => {
    const answer = await cg(
      ctx,
      `/coins/${encodeURIComponent(id)}`,
      { localization: 'false', tickers: 'false', market_data: 'true', community_data: 'false', developer_data: 'false', sparkline: 'false' },
      missing,
    );
    return { data: { coin: N.coinDetail(answer) } };
  });
}

const WINDOW_DAYS = { day: 1, week: 7, twoWeeks: 14, month: 30, threeMonths: 90, sixMonths: 180, year: 365 } as const;
/** The `days` values /ohlc accepts. */
const OHLC_DAYS = [1, 7, 14, 30, 90, 180, 365];

/** A `from` or `to` input as an instant: a calendar day starts at 00:00 UTC (`to` runs to the end of its day). */
function instant(v: string, endOfDay: boolean): number {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00Z`) + (endOfDay ? DAY_MS - 1 : 0) : Date.parse(v);
}

/** The window asked for, in ms: `within` back from now (a month when nothing is sent), or from/to. */
export function historyRange(input: In<'coinHistory'>, now: number, plan: string): { from: number; to: number } {
  if (input.within && (input.from || input.to)) throw invalid('within', 'send within, or from and to, not both');
  if (!input.from && !input.to) return { from: now - WINDOW_DAYS[input.within ?? 'month'] * DAY_MS, to: now };
  const to = Math.min(input.to ? instant(input.to, true) : now, now);
  const from = input.from ? instant(input.from, false) : to - 30 * DAY_MS;
  if (from > now) throw invalid('from', 'must not be in the future');
  if (from >= to) throw invalid('from', 'must be before to');
  if (plan !== 'pro' && from < now - HISTORY_DAYS_WITHOUT_PRO * DAY_MS) {
    throw invalid('from', `must be within the last ${HISTORY_DAYS_WITHOUT_PRO} days (CoinGecko's keyless and demo plans serve no older history)`);
  }
  return { from, to };
}

export async function history(ctx: SourceContext, input: In<'coinHistory'>): Out<'coinHistory'> {
  const now = Date.now();
  const { from, to } = historyRange(input, now, access(ctx.settings).plan);
  return withCoinId(ctx, input.coin, async (id, missing) => {
    const path = `/coins/${encodeURIComponent(id)}`;
    const seconds = (ms: number) => String(Math.floor(ms / 1000));
    const days = OHLC_DAYS.find((d) => d * DAY_MS >= now - from) ?? 'max';
    const [chart, ohlc] = await Promise.all([
      cg(ctx, `${path}/market_chart/range`, { vs_currency: 'usd', from: seconds(from), to: seconds(to) }, missing),
      input.includeCandles ? cg(ctx, `${path}/ohlc`, { vs_currency: 'usd', days: String(days) }, missing) : undefined,
    ]);
    const inRange = <T extends { at: string }>(rows: T[]) => rows.filter((r) => Date.parse(r.at) >= from && Date.parse(r.at) <= to);
    const points = N.chart(chart);
    const candles = ohlc === undefined ? undefined : inRange(N.candles(ohlc));
    const data = {
      coin: id,
      currency: 'USD',
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      points,
      ...(candles ? { candles } : {}),
    };
    return points.length ? { data } : { data, free: true };
  });
}
