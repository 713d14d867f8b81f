/**
 * pump.fun's own web APIs (unofficial, Cloudflare-fronted, no key): the coin lists and coin pages of
 * frontend-api-v3.pump.fun, and the trade tape of swap-api.pump.fun/v2, whose seek cursor
 * (`<slotIndexId>-<epoch ms>`) is the one SPEC's trades cursor describes.
 */
import type { CRYPTO } from '../../../catalogue/endpoints/crypto.js';
import type { InputOf, OutputOf } from '../../../catalogue/types.js';
import type { OperationResult, SourceContext } from '../../types.js';
import { badCursor, getJson, invalid, notFound } from '../http.js';
import { changed, coin as normaliseCoin, coinList, tradePage, type Trade } from './normalise.js';

type In<K extends keyof typeof CRYPTO> = InputOf<(typeof CRYPTO)[K]>;
type Out<K extends keyof typeof CRYPTO> = Promise<OperationResult<OutputOf<(typeof CRYPTO)[K]>>>;

const FRONTEND = 'https://frontend-api-v3.pump.fun';
const SWAP = 'https://swap-api.pump.fun/v2';
/** Largest page either API serves in one call. */
const COINS_PAGE = 50;
const TRADES_PAGE = 100;
/** The offset SPEC's coins cursor can carry (7 digits). */
const MAX_OFFSET = 9_999_999;
const MINT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const TRADES_CURSOR = /^[0-9]{1,40}-[0-9]{1,15}$/;
/** pump.fun's own pages send these; without them its API may answer a bot wall. */
const HEADERS = { origin: 'https://pump.fun', referer: 'https://pump.fun/' };

/** A mint address, or a pump.fun page address that names one (pump.fun/coin/<mint>, pump.fun/<mint>). */
export function mintOf(input: string): string {
  const s = input.trim();
  const fromUrl = /^(?:https?:\/\/)?(?:www\.)?pump\.fun\/(?:coin\/)?([1-9A-HJ-NP-Za-km-z]{32,44})(?:[/?#].*)?$/.exec(s)?.[1];
  const mint = fromUrl ?? s;
  if (!MINT.test(mint)) throw invalid('coin', 'must be a Solana mint address (32-44 base58 characters) or a pump.fun coin address');
  return mint;
}

async function ask(ctx: SourceContext, url: string, pass: number[] = []): Promise<{ status: number; body: unknown }> {
  return getJson(ctx, { url, headers: HEADERS, pass });
}

const SORTS = {
  newest: 'created_timestamp',
  lastTrade: 'last_trade_timestamp',
  marketCap: 'market_cap',
  lastReply: 'last_reply',
} as const;

/** The coins cursor is the offset of the next page (SPEC's digits form); its `~` form is never answered here. */
export function coinsOffset(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^[0-9]{1,7}$/.test(cursor)) throw badCursor();
  return Number(cursor);
}

export async function coins(ctx: SourceContext, input: In<'pumpfunCoins'>): Out<'pumpfunCoins'> {
  const start = coinsOffset(input.cursor);
  const found = [];
  let offset = start;
  let exhausted = false;
  while (found.length < input.limit && !exhausted) {
    const limit = Math.min(COINS_PAGE, input.limit - found.length);
    const query = new URLSearchParams({ offset: String(offset), limit: String(limit), includeNsfw: String(input.includeNsfw) });
    if (input.sort !== 'live') {
      query.set('sort', SORTS[input.sort]);
      query.set('order', 'DESC');
    }
    const path = input.sort === 'live' ? '/coins/currently-live' : '/coins';
    const page = coinList((await ask(ctx, `${FRONTEND}${path}?${query}`)).body);
    found.push(...page.slice(0, limit));
    offset += Math.min(page.length, limit);
    exhausted = page.length < limit;
  }
  const next = !exhausted && offset <= MAX_OFFSET ? String(offset) : undefined;
  const data = { coins: found, ...(next ? { cursor: next } : {}) };
  return found.length ? { data } : { data, free: true };
}

export async function coin(ctx: SourceContext, input: In<'pumpfunCoin'>): Out<'pumpfunCoin'> {
  const mint = mintOf(input.coin);
  const res = await ask(ctx, `${FRONTEND}/coins/${mint}`, [404]);
  if (res.status === 404 || res.body === null || res.body === '') throw notFound(`coin: pump.fun has no coin ${mint}`);
  return { data: { coin: normaliseCoin(res.body) } };
}

export async function trades(ctx: SourceContext, input: In<'pumpfunTrades'>): Out<'pumpfunTrades'> {
  const mint = mintOf(input.coin);
  const found: Trade[] = [];
  let cursor = input.cursor;
  let more = true;
  while (found.length < input.limit && more) {
    const query = new URLSearchParams({ limit: String(Math.min(TRADES_PAGE, input.limit - found.length)) });
    if (cursor) query.set('cursor', cursor);
    const res = await ask(ctx, `${SWAP}/coins/${mint}/trades?${query}`, [400, 404]);
    if (res.status === 400) throw input.cursor && cursor === input.cursor ? badCursor('pump.fun refused this cursor') : invalid('coin', 'pump.fun refused this coin');
    if (res.status === 404) throw notFound(`coin: pump.fun has no trades of ${mint}`);
    const page = tradePage(res.body, mint);
    found.push(...page.trades);
    if (page.next !== undefined && !TRADES_CURSOR.test(page.next)) throw changed('trades cursor in an unknown form');
    more = page.next !== undefined && page.trades.length > 0;
    cursor = page.next;
  }
  const data = { trades: found.slice(0, input.limit), ...(more && cursor ? { cursor } : {}) };
  return found.length ? { data } : { data, free: true };
}
