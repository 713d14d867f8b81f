/**
 * DexScreener's public API (https://api.dexscreener.com, keyless; 300 requests a minute for pairs, search and tokens,
 * 60 for profiles and boosts) and the four endpoints built on it.
 */
import type { CRYPTO } from '../../../catalogue/endpoints/crypto.js';
import type { InputOf, OutputOf } from '../../../catalogue/types.js';
import type { OperationResult, SourceContext } from '../../types.js';
import { getJson, invalid, notFound } from '../http.js';
import { listedTokens, pairList, pairsEnvelope, sameAddress, withPairs, type ListedToken, type Pair } from './normalise.js';

type In<K extends keyof typeof CRYPTO> = InputOf<(typeof CRYPTO)[K]>;
type Out<K extends keyof typeof CRYPTO> = Promise<OperationResult<OutputOf<(typeof CRYPTO)[K]>>>;

const BASE = 'https://api.dexscreener.com';
/** Addresses one /latest/dex/pairs or /tokens/v1 call takes. */
const BATCH = 30;
/** Pair look-ups by search, one per address, when no chain is given. */
const UNCHAINED_PAIRS = 5;
/** /tokens/v1 calls one dex.new answer may make to attach pairs. */
const PAIR_CALLS = 10;
/** Chain ids, pool and token addresses as DexScreener writes them (EVM hex, base58, TON, Sui/Aptos `::` paths). */
const ADDRESS = /^[A-Za-z0-9_:.-]{2,120}$/;

async function ask(ctx: SourceContext, path: string, query?: Record<string, string>): Promise<unknown> {
  const qs = query ? `?${new URLSearchParams(query)}` : '';
  const res = await getJson(ctx, { url: `${BASE}${path}${qs}`, pass: [400, 404] });
  if (res.status === 400) throw invalid('chain', 'DexScreener refused this chain or address (HTTP 400)');
  if (res.status === 404) return null;
  return res.body;
}

function addresses(field: string, raw: string, max: number): string[] {
  const list = [...new Set(raw.split(',').map((a) => a.trim()).filter(Boolean))];
  if (list.length === 0) throw invalid(field, 'needs an address');
  if (list.length > max) throw invalid(field, `at most ${max} addresses in one call`);
  for (const a of list) if (!ADDRESS.test(a)) throw invalid(field, `${JSON.stringify(a.slice(0, 40))} is not an address`);
  return list;
}

const path = (...parts: string[]) => parts.map(encodeURIComponent).join('/');

export async function search(ctx: SourceContext, input: In<'dexSearch'>): Out<'dexSearch'> {
  const pairs = pairsEnvelope(await ask(ctx, '/latest/dex/search', { q: input.query })).slice(0, input.limit);
  return pairs.length ? { data: { pairs } } : { data: { pairs }, free: true };
}

export async function pairs(ctx: SourceContext, input: In<'dexPairs'>): Out<'dexPairs'> {
  let found: Pair[];
  if (input.chain) {
    const list = addresses('pair', input.pair, BATCH);
    found = pairsEnvelope(await ask(ctx, `/latest/dex/pairs/${path(input.chain)}/${list.map(encodeURIComponent).join(',')}`) ?? { pairs: null });
  } else {
    // Without a chain the pairs endpoint cannot be asked: search each address and keep the pool itself.
    const list = addresses('pair', input.pair, UNCHAINED_PAIRS);
    const answers = await Promise.all(list.map((a) => ask(ctx, '/latest/dex/search', { q: a })));
    found = answers.flatMap((answer, i) => pairsEnvelope(answer).filter((p) => sameAddress(p.address, list[i])));
  }
  if (found.length === 0) throw notFound(`pair: DexScreener lists no such pair${input.chain ? ` on ${input.chain}` : ''}`);
  return { data: { pairs: found } };
}

export async function token(ctx: SourceContext, input: In<'dexToken'>): Out<'dexToken'> {
  const [address] = addresses('token', input.token, 1);
  const found = input.chain
    ? pairList((await ask(ctx, `/token-pairs/v1/${path(input.chain, address)}`)) ?? [])
    : pairsEnvelope((await ask(ctx, `/latest/dex/tokens/${path(address)}`)) ?? { pairs: null });
  if (found.length === 0) throw notFound(`token: DexScreener lists no pair trading ${address}${input.chain ? ` on ${input.chain}` : ''}`);
  return { data: { pairs: found.slice(0, input.limit) } };
}

const NEW_LISTS = {
  profiles: '/token-profiles/latest/v1',
  boosts: '/token-boosts/latest/v1',
  topBoosts: '/token-boosts/top/v1',
  takeovers: '/community-takeovers/latest/v1',
} as const;

export async function newTokens(ctx: SourceContext, input: In<'dexNew'>): Out<'dexNew'> {
  const seen = new Set<string>();
  const tokens = listedTokens(await ask(ctx, NEW_LISTS[input.type]))
    .filter((t) => !input.chain || t.chain === input.chain)
    // A token boosted twice is listed twice; the first (latest) entry stands for it.
    .filter((t) => !seen.has(`${t.chain}/${t.address}`) && Boolean(seen.add(`${t.chain}/${t.address}`)))
    .slice(0, input.limit);
  if (tokens.length === 0) return { data: { tokens }, free: true };
  if (!input.includePairs) return { data: { tokens } };
  return { data: { tokens: await attachPairs(ctx, tokens) } };
}

/** Pairs of many tokens, 30 addresses per /tokens/v1 call and chain; tokens past the call budget keep none. */
async function attachPairs(ctx: SourceContext, tokens: ListedToken[]): Promise<ListedToken[]> {
  const batches: Array<{ chain: string; addresses: string[] }> = [];
  for (const t of tokens) {
    let batch = batches.find((b) => b.chain === t.chain && b.addresses.length < BATCH);
    if (!batch) batches.push((batch = { chain: t.chain, addresses: [] }));
    batch.addresses.push(t.address);
  }
  const answers = await Promise.all(
    batches.slice(0, PAIR_CALLS).map(async (b) => {
      if (!ADDRESS.test(b.chain) || !b.addresses.every((a) => ADDRESS.test(a))) return [];
      const answer = await ask(ctx, `/tokens/v1/${path(b.chain)}/${b.addresses.map(encodeURIComponent).join(',')}`);
      return answer === null ? [] : pairList(answer);
    }),
  );
  const all = answers.flat();
  return tokens.map((t) => withPairs(t, all));
}
