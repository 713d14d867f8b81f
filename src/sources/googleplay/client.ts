/**
 * Google Play's public web store, keyless: an app's details page and the search page carry their data in
 * `AF_initDataCallback({key: 'ds:N', data: […]})` script blocks; reviews come from the web app's batchexecute RPC
 * (`UsvDTd`, a form-encoded `f.req`), whose answer is `)]}'` and then a JSON list holding the RPC's JSON as a string.
 * The request shapes are those google-play-scraper (MIT) sends. Google's "unusual traffic" page and its consent
 * interstitial are walls (`sourceRefused`); an unknown package is its 404.
 */
import { QuarryError } from '../../errors.js';
import { balancedJson, scripts } from '../kit/embedded.js';
import { changed } from '../kit/read.js';
import type { SourceContext } from '../types.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { hlOf } from './refs.js';

const PLAY = 'https://play.google.com';
const PAGE_BYTES = 6 * 1024 * 1024;
const HTML = { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en-US,en;q=0.9' };

export type DataBlocks = Record<string, unknown>;

/** Every `ds:N` block of a page, parsed (a block that is not JSON is skipped). */
export function dataBlocks(html: string): DataBlocks {
  const out: DataBlocks = {};
  for (const s of scripts(html)) {
    if (!s.text.includes('AF_initDataCallback(')) continue;
    const key = /key:\s*'(ds:\d+)'/.exec(s.text)?.[1];
    const data = /\bdata:\s*(?=[[{])/.exec(s.text);
    if (!key || !data) continue;
    const value = balancedJson(s.text, data.index + data[0].length);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

function refuseWalls(res: UpstreamResponse, html: string): void {
  const host = URL.canParse(res.url) ? new URL(res.url).hostname : '';
  if (/^consent\./.test(host)) throw new QuarryError('sourceRefused', 'googleplay: Google answered its consent page instead of the store');
  if (/\/sorry\//.test(res.url) || /our systems have detected unusual traffic/i.test(html.slice(0, 100_000))) {
    throw new QuarryError('sourceRefused', 'googleplay: Google answered its unusual-traffic check instead of the store');
  }
}

async function page(url: string, ctx: SourceContext): Promise<{ status: number; blocks: DataBlocks }> {
  const res = await ctx.http.request({ url, headers: HTML, maxBytes: PAGE_BYTES, passStatuses: [404] }, ctx.signal);
  const html = res.text();
  refuseWalls(res, html);
  return { status: res.status, blocks: res.status === 404 ? {} : dataBlocks(html) };
}

/** The details page's data blocks; an unknown package is `notFound`. */
export async function detailsPage(pkg: string, country: string, language: string, ctx: SourceContext): Promise<DataBlocks> {
  const params = new URLSearchParams({ id: pkg, hl: hlOf(language), gl: country.toUpperCase() });
  const { status, blocks } = await page(`${PLAY}/store/apps/details?${params}`, ctx);
  if (status === 404) throw new QuarryError('notFound', `googleplay: no app ${pkg} on Google Play`);
  return blocks;
}

const PRICE = { all: '0', free: '1', paid: '2' } as const;

/** The search page's data blocks. */
export async function searchPage(
  q: { query: string; country: string; language: string; price: keyof typeof PRICE },
  ctx: SourceContext,
): Promise<DataBlocks> {
  const params = new URLSearchParams({ q: q.query, hl: hlOf(q.language), gl: q.country.toUpperCase(), price: PRICE[q.price] });
  const { status, blocks } = await page(`${PLAY}/work/search?${params}`, ctx);
  if (status === 404) throw changed('googleplay', 'the search page answered 404');
  return blocks;
}

export const SORT = { relevant: 1, newest: 2, rating: 3 } as const;

/** One page of reviews from the batchexecute RPC: the RPC's own JSON (`[reviews, [null, token]]`), or null when empty. */
export async function reviewsRpc(
  r: { pkg: string; country: string; language: string; sort: keyof typeof SORT; rating?: number; count: number; token?: string },
  ctx: SourceContext,
): Promise<unknown> {
  const inner = JSON.stringify([null, null, [2, SORT[r.sort], [r.count, null, r.token ?? null], null, [null, r.rating ?? null]], [r.pkg, 7]]);
  const body = `f.req=${encodeURIComponent(JSON.stringify([[['UsvDTd', inner, null, 'generic']]]))}`;
  const params = new URLSearchParams({ rpcids: 'UsvDTd', hl: hlOf(r.language), gl: r.country.toUpperCase() });
  const res = await ctx.http.request(
    {
      url: `${PLAY}/_/PlayStoreUi/data/batchexecute?${params}`,
      method: 'POST',
      idempotent: true,
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body,
      maxBytes: PAGE_BYTES,
    },
    ctx.signal,
  );
  return rpcPayload(res.text(), 'UsvDTd');
}

/** The RPC's JSON out of a batchexecute answer: `)]}'`, then `[["wrb.fr", rpc, "<json>", …], …]`. */
export function rpcPayload(text: string, rpc: string): unknown {
  const start = text.indexOf('[');
  if (!text.startsWith(")]}'") || start < 0) throw changed('googleplay', 'the batchexecute answer lacks its )]}\' preamble');
  const envelope = balancedJson(text, start);
  if (!Array.isArray(envelope)) throw changed('googleplay', 'the batchexecute answer is not a JSON list');
  const frame = envelope.find((f) => Array.isArray(f) && f[0] === 'wrb.fr' && f[1] === rpc) as unknown[] | undefined;
  if (!frame) throw changed('googleplay', `the batchexecute answer carries no ${rpc} frame`);
  if (frame[2] === null || frame[2] === undefined) return null;
  if (typeof frame[2] !== 'string') throw changed('googleplay', `the ${rpc} frame carries no JSON`);
  try {
    return JSON.parse(frame[2]);
  } catch {
    throw changed('googleplay', `the ${rpc} frame's JSON does not parse`);
  }
}
