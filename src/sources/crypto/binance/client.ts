/**
 * Binance announcements from the CMS article list its support pages read
 * (www.binance.com/bapi/composite/v1/public/cms/article/list/query; keyless, behind AWS WAF). Pages hold 20 articles;
 * SPEC's cursor carries the next page, or `skip~page` when the previous answer stopped inside a page.
 */
import type { CRYPTO } from '../../../catalogue/endpoints/crypto.js';
import type { InputOf, OutputOf } from '../../../catalogue/types.js';
import type { OperationResult, SourceContext } from '../../types.js';
import { badCursor, getJson, refused } from '../http.js';
import { articlePage, type Announcement } from './normalise.js';

type In = InputOf<typeof CRYPTO.binanceAnnouncements>;
type Out = Promise<OperationResult<OutputOf<typeof CRYPTO.binanceAnnouncements>>>;

const LIST = 'https://www.binance.com/bapi/composite/v1/public/cms/article/list/query';
const PAGE_SIZE = 20;
/** Binance's catalog ids for each category (its support site's announcement sections). */
export const CATALOGS = { listings: 48, delistings: 161, news: 49, activities: 93, airdrops: 128, maintenance: 157, api: 51 } as const;
/** Largest page number SPEC's cursor can carry (5 digits). */
const MAX_PAGE = 99_999;

/** Where a cursor starts: an upstream page, and articles of it already answered. */
export function cursorStart(cursor: string | undefined): { page: number; skip: number } {
  if (cursor === undefined) return { page: 1, skip: 0 };
  const m = /^(?:([0-9]{0,4})~([1-9][0-9]{0,4})?|([1-9][0-9]{0,4}))$/.exec(cursor);
  if (!m) throw badCursor();
  const skip = m[1] ? Number(m[1]) : 0;
  if (skip >= PAGE_SIZE) throw badCursor();
  return { page: Number(m[2] ?? m[3] ?? 1), skip };
}

/** The cursor that continues after `taken` articles of `page`. */
export function cursorAfter(page: number, taken: number): string | undefined {
  if (taken >= PAGE_SIZE) return page + 1 <= MAX_PAGE ? String(page + 1) : undefined;
  return `${taken}~${page}`;
}

export async function announcements(ctx: SourceContext, input: In): Out {
  const catalogId = CATALOGS[input.category];
  let { page, skip } = cursorStart(input.cursor);
  const found: Announcement[] = [];
  let cursor: string | undefined;
  for (;;) {
    const query = new URLSearchParams({ type: '1', catalogId: String(catalogId), pageNo: String(page), pageSize: String(PAGE_SIZE) });
    const res = await getJson(ctx, { url: `${LIST}?${query}`, headers: { lang: 'en', clienttype: 'web' }, pass: [202] });
    // AWS WAF's challenge is a 202 with an empty body (getJson already caught the ones carrying x-amzn-waf-action).
    if (res.status === 202) throw refused('Binance answered with its WAF challenge (HTTP 202)');
    const { articles, total } = articlePage(res.body, catalogId);
    const wanted = input.limit - found.length;
    const rest = articles.slice(skip, skip + wanted);
    found.push(...rest);
    const taken = skip + rest.length;
    const more = total === undefined ? articles.length === PAGE_SIZE || taken < articles.length : (page - 1) * PAGE_SIZE + taken < total;
    if (!more || articles.length === 0) {
      cursor = undefined;
      break;
    }
    if (found.length >= input.limit) {
      cursor = taken < articles.length ? cursorAfter(page, taken) : cursorAfter(page, PAGE_SIZE);
      break;
    }
    page += 1;
    skip = 0;
    if (page > MAX_PAGE) break;
  }
  const data = { announcements: found, ...(cursor ? { cursor } : {}) };
  return found.length ? { data } : { data, free: true };
}
