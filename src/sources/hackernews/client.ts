/**
 * Hacker News's two official keyless APIs: the Firebase API (lists, items, users, updates) and HN Search by Algolia
 * (full-text search). Firebase answers `null` for an id it does not know; neither asks for a key or sets a rate limit.
 */
import { QuarryError } from '../../errors.js';
import { isObj, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const FIREBASE = 'https://hacker-news.firebaseio.com/v0';
const ALGOLIA = 'https://hn.algolia.com/api/v1';
/** Requests of a thread or a list in flight at once (the upstream client also caps the source at its own limit). */
const PARALLEL = 16;

const bad = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`, { retryable: false });

/** An item id from `8863`, `item?id=8863` or a news.ycombinator.com address. */
export function itemId(input: string): string {
  const t = input.trim();
  if (/^[1-9][0-9]{0,11}$/.test(t)) return t;
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  if (URL.canParse(withScheme)) {
    const u = new URL(withScheme);
    const id = u.searchParams.get('id') ?? '';
    if (/(^|\.)ycombinator\.com$/i.test(u.hostname) && /^\/item\/?$/.test(u.pathname) && /^[1-9][0-9]{0,11}$/.test(id)) return id;
  }
  throw bad('item', 'not a Hacker News item id or https://news.ycombinator.com/item?id= address');
}

/** HN usernames: 2-15 letters, digits, - and _. */
const USERNAME = /^[A-Za-z0-9_-]{2,15}$/;

export function username(input: string): string {
  const t = input.trim().replace(/^@/, '');
  if (USERNAME.test(t)) return t;
  const withScheme = /^[a-z]+:\/\//i.test(t) ? t : `https://${t}`;
  if (URL.canParse(withScheme)) {
    const u = new URL(withScheme);
    const id = u.searchParams.get('id') ?? '';
    if (/(^|\.)ycombinator\.com$/i.test(u.hostname) && /^\/(user|submitted|threads)\/?$/.test(u.pathname) && USERNAME.test(id)) return id;
  }
  throw bad('user', 'not a Hacker News username or https://news.ycombinator.com/user?id= address');
}

async function getJson(ctx: SourceContext, url: string): Promise<unknown> {
  const res = await ctx.http.request({ url, headers: { accept: 'application/json' } }, ctx.signal);
  return res.json();
}

/** One item, or undefined when Firebase does not know the id (`null`). */
export async function fetchItem(ctx: SourceContext, id: string): Promise<Obj | undefined> {
  const body = await getJson(ctx, `${FIREBASE}/item/${id}.json`);
  if (body === null) return undefined;
  if (!isObj(body)) throw new QuarryError('sourceChanged', `hackernews: item ${id} is not an object`);
  return body;
}

/** Many items, at most PARALLEL at a time, in the order asked (undefined for ids Firebase does not know). */
export async function fetchItems(ctx: SourceContext, ids: readonly string[]): Promise<(Obj | undefined)[]> {
  const out: (Obj | undefined)[] = [];
  for (let at = 0; at < ids.length; at += PARALLEL) {
    out.push(...(await Promise.all(ids.slice(at, at + PARALLEL).map((id) => fetchItem(ctx, id)))));
  }
  return out;
}

const LISTS = { top: 'topstories', new: 'newstories', best: 'beststories', ask: 'askstories', show: 'showstories', job: 'jobstories' } as const;

/** A list's item ids, in HN's order. */
export async function fetchList(ctx: SourceContext, list: keyof typeof LISTS): Promise<unknown> {
  return getJson(ctx, `${FIREBASE}/${LISTS[list]}.json`);
}

export async function fetchUser(ctx: SourceContext, name: string): Promise<Obj> {
  const body = await getJson(ctx, `${FIREBASE}/user/${name}.json`);
  if (body === null) throw new QuarryError('notFound', `user: no Hacker News user ${name}`);
  if (!isObj(body)) throw new QuarryError('sourceChanged', 'hackernews: user answer is not an object');
  return body;
}

export async function fetchUpdates(ctx: SourceContext): Promise<{ updates: unknown; maxItem: unknown }> {
  const [updates, maxItem] = await Promise.all([getJson(ctx, `${FIREBASE}/updates.json`), getJson(ctx, `${FIREBASE}/maxitem.json`)]);
  return { updates, maxItem };
}

export interface SearchQuery {
  query: string;
  kind: 'story' | 'comment' | 'ask' | 'show' | 'job' | 'poll' | 'all';
  sort: 'relevance' | 'newest';
  within: 'day' | 'week' | 'month' | 'year' | 'all';
  minScore?: number;
  limit: number;
  page: number;
}

const KIND_TAGS = { story: 'story', comment: 'comment', ask: 'ask_hn', show: 'show_hn', job: 'job', poll: 'poll', all: '(story,comment,poll,job)' } as const;
const WINDOW_SECONDS = { day: 86_400, week: 604_800, month: 2_592_000, year: 31_536_000 } as const;

/** GET /search (relevance) or /search_by_date (newest first): tags by kind, numeric filters for window and score. */
export async function fetchSearch(ctx: SourceContext, q: SearchQuery, now = Date.now()): Promise<unknown> {
  const params = new URLSearchParams({ query: q.query, tags: KIND_TAGS[q.kind], hitsPerPage: String(q.limit), page: String(q.page) });
  const numeric: string[] = [];
  if (q.within !== 'all') numeric.push(`created_at_i>${Math.floor(now / 1000) - WINDOW_SECONDS[q.within]}`);
  if (q.minScore !== undefined) numeric.push(`points>=${q.minScore}`);
  if (numeric.length) params.set('numericFilters', numeric.join(','));
  return getJson(ctx, `${ALGOLIA}/${q.sort === 'newest' ? 'search_by_date' : 'search'}?${params}`);
}
