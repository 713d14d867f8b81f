/**
 * Binance's CMS article list (the JSON its announcement pages read) → ANNOUNCEMENT. Pure functions. The answer is
 * `{code: "000000", data: {catalogs: [{catalogId, catalogName, total, articles: [{id, code, title, releaseDate}]}]}}`;
 * an article's page is /en/support/announcement/<code>.
 */
import type { ANNOUNCEMENT } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { arr, compact, int, isObj, isoFromMillis, readsOf, obj, str } from '../../kit/read.js';

export type Announcement = TypeOf<typeof ANNOUNCEMENT>;

const SITE = 'https://www.binance.com/en/support/announcement';
export const { need, changed } = readsOf('crypto', 'Binance');

export function announcement(v: unknown, category: string | undefined): Announcement {
  const a = obj(v) ?? {};
  const id = need(a.id === undefined || a.id === null ? undefined : String(a.id), 'article without an id');
  const code = need(str(a.code), `article ${id} without a code`);
  return compact({
    type: 'announcement' as const,
    id,
    title: need(str(a.title), `article ${id} without a title`),
    url: `${SITE}/${encodeURIComponent(code)}`,
    publishedAt: need(isoFromMillis(a.releaseDate), `article ${id} without a releaseDate`),
    category,
  });
}

export interface ArticlePage {
  articles: Announcement[];
  /** Articles in the whole category. */
  total?: number;
}

/** One page of one catalog. */
export function articlePage(answer: unknown, catalogId: number): ArticlePage {
  if (!isObj(answer)) throw changed('answer is not an object');
  if (answer.code !== '000000') throw changed(`answer with code ${JSON.stringify(answer.code)}`);
  const catalogs = arr(obj(answer.data)?.catalogs).filter(isObj);
  if (!Array.isArray(obj(answer.data)?.catalogs)) throw changed('answer without data.catalogs');
  const catalog = catalogs.find((c) => int(c.catalogId) === catalogId) ?? catalogs[0];
  if (!catalog) return { articles: [] };
  const name = str(catalog.catalogName);
  if (!Array.isArray(catalog.articles)) throw changed('catalog without articles');
  return compact({ articles: catalog.articles.map((a) => announcement(a, name)), total: int(catalog.total) });
}
