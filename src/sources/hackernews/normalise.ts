/** Pure functions from Hacker News's Firebase and Algolia answers to the shared records. */
import type { HN_COMMENT, HN_POST, HN_SEARCH_HIT, HN_USER } from '../../catalogue/endpoints/hackernews.js';
import type { FORUM_MORE } from '../../catalogue/endpoints/reddit.js';
import type { TypeOf } from '../../catalogue/types.js';
import { htmlText } from '../kit/html-text.js';
import { arr, compact, int, isoFromSeconds, isoFromText, readsOf, obj, objs, str, type Obj } from '../kit/read.js';

export type HnPost = TypeOf<typeof HN_POST>;
export type HnComment = TypeOf<typeof HN_COMMENT>;
export type HnUser = TypeOf<typeof HN_USER>;
export type HnSearchHit = TypeOf<typeof HN_SEARCH_HIT>;
export type HnMore = TypeOf<typeof FORUM_MORE>;

const WEB = 'https://news.ycombinator.com';
export const { need, changed } = readsOf('hackernews');

export const itemUrl = (id: string) => `${WEB}/item?id=${id}`;
/** HN writes `<p>` between paragraphs, not around them: the text before the first one is a paragraph too. */
const hnText = (html: string | undefined): string | undefined => (html ? htmlText(`<p>${html}`) : undefined);
const person = (by: unknown) => {
  const username = str(by);
  return username ? { username, url: `${WEB}/user?id=${encodeURIComponent(username)}` } : undefined;
};
/** Ids as strings: Firebase sends numbers, Algolia strings. */
const idOf = (v: unknown): string | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? String(v) : str(v));
/** An item's child ids (`kids`), in HN's order. */
export const kidsOf = (item: Obj): string[] => arr(item.kids).flatMap((k) => idOf(k) ?? []);

/** The kind of a submission: Ask and Show HN are stories whose title says so. */
function kindOf(type: unknown, title: string | undefined): HnPost['kind'] | undefined {
  if (type === 'job' || type === 'poll') return type;
  if (type !== 'story') return undefined;
  if (title && /^ask hn\b/i.test(title)) return 'ask';
  if (title && /^show hn\b/i.test(title)) return 'show';
  return 'story';
}

export const isSubmission = (item: Obj): boolean => item.type === 'story' || item.type === 'job' || item.type === 'poll';

/** A story, job or poll item → the post record; `pollOptions` are its `parts`, fetched beside it. */
export function postOf(item: Obj, pollOptions: (Obj | undefined)[] = []): HnPost {
  const id = need(idOf(item.id), 'item without id');
  const title = str(item.title);
  const what = (w: string) => `item ${id} without ${w}`;
  const options = pollOptions.flatMap((o) => {
    const text = o && !o.deleted ? hnText(str(o.text)) : undefined;
    return text ? [compact({ text, votes: int(o!.score) })] : [];
  });
  const link = str(item.url);
  return compact({
    type: 'post' as const,
    id,
    url: itemUrl(id),
    kind: need(kindOf(item.type, title), what('a submission type')),
    title: need(title, what('title')),
    createdAt: need(isoFromSeconds(item.time), what('time')),
    text: hnText(str(item.text)),
    author: person(item.by),
    link: link ? { url: link } : undefined,
    score: int(item.score),
    comments: int(item.descendants),
    poll: options.length ? { options, totalVotes: options.reduce((n, o) => n + (o.votes ?? 0), 0) } : undefined,
    isDead: item.dead === true ? true : undefined,
  });
}

/** A comment item at `depth` (0 answers the submission) → the comment record; a deleted one keeps only its place. */
export function commentOf(item: Obj, depth: number): HnComment {
  const id = need(idOf(item.id), 'comment without id');
  const deleted = item.deleted === true;
  return compact({
    type: 'comment' as const,
    id,
    url: itemUrl(id),
    parentId: need(idOf(item.parent), `comment ${id} without parent`),
    depth,
    createdAt: need(isoFromSeconds(item.time), `comment ${id} without time`),
    text: deleted ? undefined : hnText(str(item.text)),
    author: deleted ? undefined : person(item.by),
    replies: kidsOf(item).length || undefined,
    isDeleted: deleted || undefined,
    isDead: item.dead === true ? true : undefined,
  });
}

export interface Thread {
  comments: HnComment[];
  more: HnMore[];
}

/**
 * The thread under `root` in reading order (each reply right after its parent, HN's order among siblings), from the
 * items fetched: replies not fetched (past `limit` or `depth`) are a `more` stub per parent, with their ids. Replies
 * to a submission are at depth 0; under a comment asked for itself (depth 0), its replies start at 1.
 */
export function threadOf(root: Obj, fetched: ReadonlyMap<string, Obj>, startDepth = 0): Thread {
  const comments: HnComment[] = [];
  const more: HnMore[] = [];
  const rootId = need(idOf(root.id), 'item without id');
  type Step = { id: string; depth: number } | HnMore;
  const stubOf = (parentId: string, kids: string[], depth: number): Step[] => {
    const missing = kids.filter((k) => !fetched.has(k));
    const steps: Step[] = kids.filter((k) => fetched.has(k)).map((id) => ({ id, depth }));
    if (missing.length) steps.push({ type: 'more', parentId, depth, count: missing.length, ids: missing });
    return steps;
  };
  const todo: Step[] = stubOf(rootId, kidsOf(root), startDepth).reverse();
  const seen = new Set<string>([rootId]);
  while (todo.length) {
    const step = todo.pop()!;
    if ('type' in step) {
      more.push(step);
      continue;
    }
    // An item listed twice would be read twice (or loop): once is enough.
    if (seen.has(step.id)) continue;
    seen.add(step.id);
    const item = fetched.get(step.id)!;
    if (item.type !== 'comment') continue;
    comments.push(commentOf(item, step.depth));
    todo.push(...stubOf(step.id, kidsOf(item), step.depth + 1).reverse());
  }
  return { comments, more };
}

/** A list answer (an array of ids) → the ids as strings. */
export function listIds(answer: unknown): string[] {
  if (!Array.isArray(answer)) throw changed('story list is not an array');
  return answer.flatMap((v) => idOf(v) ?? []);
}

export function userOf(u: Obj): HnUser {
  const id = need(str(u.id), 'user without id');
  const submitted = arr(u.submitted).flatMap((v) => idOf(v) ?? []);
  return compact({
    type: 'profile' as const,
    id,
    username: id,
    url: `${WEB}/user?id=${encodeURIComponent(id)}`,
    createdAt: need(isoFromSeconds(u.created), `user ${id} without created`),
    karma: need(int(u.karma), `user ${id} without karma`),
    bio: hnText(str(u.about)),
    submissions: submitted.length || undefined,
    submissionIds: submitted.slice(0, 100),
  });
}

/** The updates answer and the newest item id. */
export function updatesOf(updates: unknown, maxItem: unknown): { maxItemId: string; itemIds?: string[]; usernames?: string[] } {
  const u = obj(updates);
  if (!u) throw changed('updates answer is not an object');
  return compact({
    maxItemId: need(idOf(maxItem), 'maxitem is not an id'),
    itemIds: arr(u.items).flatMap((v) => idOf(v) ?? []),
    usernames: arr(u.profiles).flatMap((v) => str(v) ?? []),
  });
}

function hitKind(tags: string[]): HnPost['kind'] | undefined {
  if (tags.includes('ask_hn')) return 'ask';
  if (tags.includes('show_hn')) return 'show';
  if (tags.includes('job')) return 'job';
  if (tags.includes('poll')) return 'poll';
  if (tags.includes('story')) return 'story';
  return undefined;
}

/** One Algolia hit → a post or a comment; poll options and anything else are not results. */
function hitOf(h: Obj): HnSearchHit | undefined {
  const id = need(idOf(h.objectID), 'search hit without objectID');
  const tags = arr(h._tags).flatMap((t) => str(t) ?? []);
  const isComment = tags.includes('comment');
  const kind = isComment ? undefined : hitKind(tags);
  if (!isComment && !kind) return undefined;
  const link = str(h.url);
  return compact({
    type: isComment ? ('comment' as const) : ('post' as const),
    id,
    url: itemUrl(id),
    createdAt: need(isoFromSeconds(h.created_at_i) ?? isoFromText(h.created_at), `search hit ${id} without created_at`),
    kind,
    title: str(h.title),
    text: hnText(str(isComment ? h.comment_text : h.story_text)),
    author: person(h.author),
    link: link ? { url: link } : undefined,
    score: int(h.points),
    comments: int(h.num_comments),
    parentId: isComment ? idOf(h.parent_id) : undefined,
    storyId: isComment ? idOf(h.story_id) : undefined,
    storyTitle: isComment ? str(h.story_title) : undefined,
  });
}

export interface SearchPage {
  results: HnSearchHit[];
  total?: number;
  /** The next page number, when there is one. */
  next?: number;
}

export function searchOf(answer: unknown): SearchPage {
  const a = obj(answer);
  if (!a || !Array.isArray(a.hits)) throw changed('search answer without hits');
  const page = int(a.page) ?? 0;
  const pages = int(a.nbPages) ?? 0;
  const total = int(a.nbHits);
  return {
    results: objs(a.hits).flatMap((h) => hitOf(h) ?? []),
    ...(total !== undefined ? { total } : {}),
    ...(page + 1 < pages ? { next: page + 1 } : {}),
  };
}
