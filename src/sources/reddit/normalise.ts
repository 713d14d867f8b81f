/**
 * Reddit answers → SPEC records (mapping: shared/notes/upstream-platforms.md 3.4 and 3.5). Pure functions; a field
 * upstream does not carry is left out rather than guessed.
 */
import type { FORUM_COMMENT, FORUM_MORE, FORUM_POST, FORUM_USER, SUBFORUM } from '../../catalogue/endpoints/reddit.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, bool, compact, int, isObj, isoFromSeconds, readsOf, obj, type Obj } from '../kit/read.js';

/** Public links always point at the web host, whatever base URL the requests went to. */
const WEB = 'https://www.reddit.com';

export type ForumPost = TypeOf<typeof FORUM_POST>;
export type SubforumRecord = TypeOf<typeof SUBFORUM>;
export type ForumComment = TypeOf<typeof FORUM_COMMENT>;
export type ForumMore = TypeOf<typeof FORUM_MORE>;
export type ForumUser = TypeOf<typeof FORUM_USER>;

export interface ListingPage {
  posts: ForumPost[];
  cursor?: string;
}

const { need, changed } = readsOf('reddit');
/** Reddit's own text, kept as written (no trimming): a post's leading spaces can be markdown. */
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function webUrl(path: unknown): string | undefined {
  const p = str(path);
  return p ? (p.startsWith('http') ? p : WEB + p) : undefined;
}

/** Without raw_json=1 (old recordings) Reddit HTML-escapes URLs. */
const unescapeAmp = (s: string | undefined): string | undefined => s?.replaceAll('&amp;', '&');

function flair(d: Obj): string | undefined {
  const text = str(d.link_flair_text);
  if (text) return text;
  const joined = arr(d.link_flair_richtext)
    .map((part) => (isObj(part) && typeof part.t === 'string' ? part.t : ''))
    .join('')
    .trim();
  return joined || undefined;
}

function link(d: Obj): ForumPost['link'] {
  if (d.is_self === true) return undefined;
  const url = str(d.url_overridden_by_dest) ?? str(d.url);
  if (!url) return undefined;
  const oembed = obj(obj(d.media)?.oembed) ?? obj(obj(d.secure_media)?.oembed);
  const preview = obj(arr(obj(d.preview)?.images)[0]);
  return compact({
    url,
    title: str(oembed?.title),
    description: str(oembed?.description),
    image: str(obj(preview?.source)?.url),
  });
}

function images(d: Obj): ForumPost['images'] {
  const items = arr(obj(d.gallery_data)?.items);
  if (items.length > 0) {
    const meta = obj(d.media_metadata) ?? {};
    const out = items.flatMap((item) => {
      if (!isObj(item)) return [];
      const source = obj(obj(meta[String(item.media_id)])?.s);
      // Media still processing (status "unprocessed") has no URL yet: skip rather than build one.
      const url = str(source?.u) ?? str(source?.gif);
      return url ? [compact({ url, caption: str(item.caption) })] : [];
    });
    return out.length > 0 ? out : undefined;
  }
  if (d.post_hint === 'image') {
    const url = str(d.url_overridden_by_dest) ?? str(d.url);
    return url ? [{ url }] : undefined;
  }
  return undefined;
}

function video(d: Obj): ForumPost['video'] {
  const parent = obj(arr(d.crosspost_parent_list)[0]);
  const rv =
    obj(obj(d.media)?.reddit_video) ??
    obj(obj(d.secure_media)?.reddit_video) ??
    obj(obj(parent?.media)?.reddit_video) ??
    obj(obj(parent?.secure_media)?.reddit_video);
  if (!rv) return undefined;
  const out = compact({ url: str(rv.fallback_url), hls: str(rv.hls_url), durationSeconds: int(rv.duration) });
  return Object.keys(out).length > 0 ? out : undefined;
}

function poll(d: Obj): ForumPost['poll'] {
  const p = obj(d.poll_data);
  if (!p) return undefined;
  const options = arr(p.options).flatMap((o) =>
    isObj(o) && typeof o.text === 'string' ? [compact({ text: o.text, votes: int(o.vote_count) })] : [],
  );
  const end = p.voting_end_timestamp;
  return compact({
    options,
    totalVotes: int(p.total_vote_count),
    endsAt: typeof end === 'number' ? new Date(end).toISOString() : undefined,
  });
}

function repostOf(d: Obj): ForumPost['repostOf'] {
  const parent = obj(arr(d.crosspost_parent_list)[0]);
  if (!parent) return undefined;
  return compact({
    id: str(parent.id),
    url: webUrl(parent.permalink),
    subforum: str(parent.subreddit),
    title: str(parent.title),
  });
}

function author(d: Obj): ForumPost['author'] {
  const username = str(d.author);
  // Deleted accounts have no profile to point at.
  if (!username || username === '[deleted]') return undefined;
  return compact({
    id: str(d.author_fullname),
    username,
    name: username,
    url: `${WEB}/user/${username}`,
  });
}

/** One `t3` child's `data`. */
export function normalisePost(t3: unknown): ForumPost {
  if (!isObj(t3) || typeof t3.id !== 'string') throw changed('post without an id');
  const d = t3;
  const ratio = d.upvote_ratio;
  const thumb = str(d.thumbnail);
  const post = (what: string) => `post ${d.id as string} without ${what}`;
  return compact({
    type: 'post' as const,
    id: d.id as string,
    url: need(webUrl(d.permalink), post('a permalink')),
    title: need(str(d.title), post('a title')),
    text: str(d.selftext),
    score: need(int(d.score), post('a score')),
    comments: need(int(d.num_comments), post('num_comments')),
    isNsfw: need(bool(d.over_18), post('over_18')),
    isVideo: d.is_video === true || d.post_hint === 'hosted:video' || d.post_hint === 'rich:video',
    isPinned: d.stickied === true || d.pinned === true,
    author: author(d),
    subforum: need(str(d.subreddit), post('a subreddit')),
    upvotePercent: typeof ratio === 'number' ? Math.round(ratio * 100) : undefined,
    createdAt: need(isoFromSeconds(d.created_utc), post('created_utc')),
    flair: flair(d),
    link: link(d),
    thumbnail: thumb?.startsWith('http') ? thumb : undefined,
    images: images(d),
    video: video(d),
    poll: poll(d),
    repostOf: repostOf(d),
  });
}

/** A `Listing` of `t3` children: the posts and the next-page cursor (`data.after`). */
export function normaliseListing(listing: unknown): ListingPage {
  const data = isObj(listing) && listing.kind === 'Listing' ? obj(listing.data) : undefined;
  if (!data || !Array.isArray(data.children)) throw changed('listing without data.children');
  const posts = data.children.map((child) => {
    if (!isObj(child) || child.kind !== 't3') throw changed('listing child that is not a post');
    return normalisePost(child.data);
  });
  const cursor = str(data.after);
  return cursor ? { posts, cursor } : { posts };
}

/** `about` (`t5` data) plus the `about/rules` answer. */
export function normaliseSubforum(about: unknown, rulesJson: unknown): SubforumRecord {
  const record = normaliseAbout(about);
  if (!isObj(rulesJson) || !Array.isArray(rulesJson.rules)) throw changed('rules answer without a rules array');
  const rules = rulesJson.rules.flatMap((r) =>
    isObj(r) && typeof r.short_name === 'string'
      ? [compact({ title: r.short_name, description: str(r.description) })]
      : [],
  );
  return compact({ ...record, rules: rules.length > 0 ? rules : undefined });
}

/** One subreddit's `t5` data (an `about` answer, or a child of a subreddit search): the record without rules. */
export function normaliseAbout(about: unknown): SubforumRecord {
  if (!isObj(about) || typeof about.id !== 'string') throw changed('subreddit about without an id');
  const about_ = (what: string) => `subreddit about without ${what}`;
  return compact({
    type: 'subforum' as const,
    id: about.id,
    url: need(webUrl(about.url), about_('a url')),
    name: need(str(about.display_name), about_('display_name')),
    title: str(about.title),
    description: str(about.public_description) ?? str(about.description),
    avatar: unescapeAmp(str(about.community_icon)) ?? str(about.icon_img),
    isNsfw: need(bool(about.over18), about_('over18')),
    members: need(int(about.subscribers), about_('subscribers')),
    createdAt: need(isoFromSeconds(about.created_utc), about_('created_utc')),
  });
}

/** A user search child's `t2` data; a suspended account (Reddit gives only its name) is left out. */
export function normaliseUser(t2: unknown): ForumUser | undefined {
  if (!isObj(t2)) throw changed('user search child without data');
  if (t2.is_suspended === true) return undefined;
  const username = need(str(t2.name), 'user without a name');
  const profile = obj(t2.subreddit);
  const postKarma = int(t2.link_karma);
  const commentKarma = int(t2.comment_karma);
  return compact({
    type: 'user' as const,
    id: need(str(t2.id), `user ${username} without an id`),
    url: `${WEB}/user/${username}`,
    username,
    name: str(profile?.title),
    bio: str(profile?.public_description),
    avatar: unescapeAmp(str(t2.icon_img)),
    banner: unescapeAmp(str(profile?.banner_img)),
    isNsfw: bool(profile?.over_18),
    karma: postKarma !== undefined && commentKarma !== undefined ? postKarma + commentKarma : undefined,
    postKarma,
    commentKarma,
    createdAt: need(isoFromSeconds(t2.created_utc), `user ${username} without created_utc`),
  });
}

export interface SearchPage {
  posts?: ForumPost[];
  subforums?: SubforumRecord[];
  users?: ForumUser[];
  cursor?: string;
}

/**
 * A search answer's Listing, read as the asked type (t3 posts, t5 subreddits, t2 users). Without `includeNsfw`,
 * adult results Reddit still sent are dropped. The cursor is Reddit's `after` (the last result's fullname).
 */
export function normaliseSearch(listing: unknown, type: 'posts' | 'subforums' | 'users', includeNsfw: boolean): SearchPage {
  const data = isObj(listing) && listing.kind === 'Listing' ? obj(listing.data) : undefined;
  if (!data || !Array.isArray(data.children)) throw changed('search answer without data.children');
  const kind = { posts: 't3', subforums: 't5', users: 't2' }[type];
  const children = data.children.map((child) => {
    if (!isObj(child) || child.kind !== kind) throw changed(`search child that is not a ${kind}`);
    return child.data;
  });
  const cursor = str(data.after);
  const page: SearchPage = cursor ? { cursor } : {};
  if (type === 'posts') page.posts = children.map(normalisePost).filter((p) => includeNsfw || !p.isNsfw);
  else if (type === 'subforums') page.subforums = children.map(normaliseAbout).filter((s) => includeNsfw || !s.isNsfw);
  else page.users = children.flatMap((c) => normaliseUser(c) ?? []).filter((u) => includeNsfw || u.isNsfw !== true);
  return page;
}

export interface Thread {
  post: ForumPost;
  comments: ForumComment[];
  more: ForumMore[];
}

/** Most tree nodes read from one answer, whatever it holds (a hostile or runaway thread). */
const MAX_THREAD_NODES = 20_000;

/** `t1_abc` or `t3_abc` → `abc`. */
const bareId = (fullname: unknown): string | undefined => str(fullname)?.replace(/^t\d_/, '');

function comment(d: Obj, depth: number, replies: number, postUrl: string): ForumComment {
  const id = need(str(d.id), 'comment without an id');
  const what = (w: string) => `comment ${id} without ${w}`;
  const edited = d.edited;
  return compact({
    type: 'comment' as const,
    id,
    // Comments recorded before 2017 carry no permalink: theirs is the post's address plus the comment id.
    url: webUrl(d.permalink) ?? `${postUrl}${id}/`,
    parentId: need(bareId(d.parent_id), what('parent_id')),
    depth: int(d.depth) ?? depth,
    score: need(int(d.score), what('a score')),
    createdAt: need(isoFromSeconds(d.created_utc), what('created_utc')),
    text: str(d.body),
    author: author(d),
    replies: replies > 0 ? replies : undefined,
    isPinned: d.stickied === true ? true : undefined,
    isEdited: edited === false ? false : typeof edited === 'number' || edited === true ? true : undefined,
    editedAt: typeof edited === 'number' ? isoFromSeconds(edited) : undefined,
    isByPostAuthor: bool(d.is_submitter),
  });
}

const childrenOf = (listing: unknown): unknown[] => {
  const data = isObj(listing) && listing.kind === 'Listing' ? obj(listing.data) : undefined;
  return Array.isArray(data?.children) ? data.children : [];
};

/**
 * A `/comments/{id}` answer: the post (first Listing's t3) and its thread (second Listing) read depth-first into
 * reading order, at most `limit` comments; Reddit's `more` stubs are kept as such.
 */
export function normaliseThread(answer: unknown, limit: number): Thread {
  if (!Array.isArray(answer) || answer.length < 2) throw changed('post answer is not [post listing, comment listing]');
  const first = childrenOf(answer[0])[0];
  if (!isObj(first) || first.kind !== 't3') throw changed('post answer without its t3');
  const post = normalisePost(first.data);
  if (!isObj(answer[1]) || answer[1].kind !== 'Listing') throw changed('post answer without a comment listing');

  const comments: ForumComment[] = [];
  const more: ForumMore[] = [];
  // Depth-first with an explicit stack (no recursion on upstream data); children pushed in reverse to keep order.
  const stack: Array<{ node: unknown; depth: number }> = childrenOf(answer[1]).map((node) => ({ node, depth: 0 })).reverse();
  let seen = 0;
  while (stack.length > 0 && comments.length < limit && seen++ < MAX_THREAD_NODES) {
    const { node, depth } = stack.pop()!;
    if (!isObj(node) || !isObj(node.data)) throw changed('comment listing child without data');
    const d = node.data;
    if (node.kind === 'more') {
      more.push(compact({
        type: 'more' as const,
        parentId: need(bareId(d.parent_id), 'more stub without parent_id'),
        depth: int(d.depth) ?? depth,
        count: int(d.count) ?? 0,
        ids: arr(d.children).flatMap((c) => (typeof c === 'string' && c !== '_' ? [c] : [])),
      }));
      continue;
    }
    if (node.kind !== 't1') throw changed(`comment listing child of kind ${String(node.kind)}`);
    const replies = childrenOf(d.replies);
    comments.push(comment(d, depth, replies.filter((r) => isObj(r) && r.kind === 't1').length, post.url));
    for (let i = replies.length - 1; i >= 0; i--) stack.push({ node: replies[i], depth: depth + 1 });
  }
  return { post, comments, more };
}
