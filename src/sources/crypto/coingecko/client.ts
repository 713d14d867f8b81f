/**
 * CoinGecko API v3 (docs.coingecko.com): keyless on the public host, or with the operator's key. A demo key goes to
 * the public host in `x-cg-demo-api-key`; a paid ("pro") key goes to pro-api.coingecko.com in `x-cg-pro-api-key`.
 * QUARRY_CRYPTO_COINGECKO_PLAN says which, because the two hosts answer only their own kind of key.
 */
import { QuarryError } from '../../../errors.js';
import { arr, isObj, num, str } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { getJson, invalid, needsSetting, notFound } from '../http.js';

const PUBLIC_BASE = 'https://api.coingecko.com/api/v3';
const PRO_BASE = 'https://pro-api.coingecko.com/api/v3';

export type Plan = 'public' | 'demo' | 'pro';

export interface Access {
  base: string;
  plan: Plan;
  headers: Record<string, string>;
}

/** The host and key header the operator's settings call for. */
export function access(settings: SourceContext['settings']): Access {
  const key = settings.COINGECKO_KEY?.trim();
  const plan = settings.COINGECKO_PLAN?.trim().toLowerCase() || (key ? 'demo' : 'public');
  if (plan === 'pro') {
    if (!key) throw needsSetting('QUARRY_CRYPTO_COINGECKO_PLAN is pro but QUARRY_CRYPTO_COINGECKO_KEY is not set');
    return { base: PRO_BASE, plan, headers: { 'x-cg-pro-api-key': key } };
  }
  if (plan !== 'demo' && plan !== 'public') throw needsSetting('QUARRY_CRYPTO_COINGECKO_PLAN must be demo or pro');
  return key ? { base: PUBLIC_BASE, plan: 'demo', headers: { 'x-cg-demo-api-key': key } } : { base: PUBLIC_BASE, plan: 'public', headers: {} };
}

/** Keyless and demo plans read at most the last 365 days of history (CoinGecko's plan table). */
export const HISTORY_DAYS_WITHOUT_PRO = 365;

/**
 * GET one path. 404 is the caller's (`onMissing`); 401 means the key (or its absence) does not open this path, which
 * only the operator can fix.
 */
export async function cg(ctx: SourceContext, path: string, query: Record<string, string> = {}, onMissing?: () => QuarryError): Promise<unknown> {
  const a = access(ctx.settings);
  const qs = new URLSearchParams(query).toString();
  const res = await getJson(ctx, { url: `${a.base}${path}${qs ? `?${qs}` : ''}`, headers: a.headers, pass: [401, 404] });
  if (res.status === 404) throw onMissing ? onMissing() : new QuarryError('sourceChanged', `crypto: CoinGecko has no ${path} any more (HTTP 404)`);
  if (res.status === 401) {
    throw needsSetting(
      a.plan === 'public'
        ? `CoinGecko answers ${path} only with an API key: set QUARRY_CRYPTO_COINGECKO_KEY (and QUARRY_CRYPTO_COINGECKO_PLAN)`
        : `CoinGecko refused the configured key for ${path} (HTTP 401): check QUARRY_CRYPTO_COINGECKO_KEY and QUARRY_CRYPTO_COINGECKO_PLAN`,
    );
  }
  return res.body;
}

/** CoinGecko ids: lower-case letters, digits and dashes (bitcoin, usd-coin, the-open-network). */
const ID_LIKE = /^[a-z0-9][a-z0-9-]{0,99}$/;

const noCoin = (coin: string) => () => notFound(`coin: no coin ${JSON.stringify(coin)} on CoinGecko`);

/**
 * Runs `byId` with the CoinGecko id of `coin`, which may be an id, a symbol or a name: an id-like input is tried as
 * an id first; otherwise, or when that id does not exist, /search resolves it (an exact id, symbol or name match;
 * the best market-cap rank wins among several).
 */
export async function withCoinId<T>(ctx: SourceContext, coin: string, byId: (id: string, missing: () => QuarryError) => Promise<T>): Promise<T> {
  const input = coin.trim();
  if (!input) throw invalid('coin', 'must not be blank');
  const missing = noCoin(input);
  if (ID_LIKE.test(input)) {
    try {
      return await byId(input, missing);
    } catch (e) {
      if (!(e instanceof QuarryError) || e.code !== 'notFound') throw e;
    }
  }
  const found = pickSearchMatch(await cg(ctx, '/search', { query: input.slice(0, 100) }), input);
  if (!found || found === input) throw missing();
  return byId(found, missing);
}

/** The id /search answers for `input`, by exact id, then symbol, then name (case-insensitive); best rank first. */
export function pickSearchMatch(answer: unknown, input: string): string | undefined {
  if (!isObj(answer) || !Array.isArray(answer.coins)) throw new QuarryError('sourceChanged', 'crypto: CoinGecko search answer without coins');
  const wanted = input.toLowerCase();
  const coins = arr(answer.coins).filter(isObj);
  const rank = (c: Record<string, unknown>) => num(c.market_cap_rank) ?? Number.MAX_SAFE_INTEGER;
  for (const field of ['id', 'symbol', 'name'] as const) {
    const hits = coins.filter((c) => str(c[field])?.toLowerCase() === wanted && str(c.id));
    if (hits.length) return str(hits.sort((a, b) => rank(a) - rank(b))[0].id);
  }
  return undefined;
}
