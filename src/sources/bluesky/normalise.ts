/** Pure functions from Bluesky's AppView views (app.bsky.*#…View) to the shared records. */
import type { BLUESKY_ACCOUNT, BLUESKY_POST, BLUESKY_PROFILE } from '../../catalogue/endpoints/bluesky.js';
import type { TypeOf } from '../../catalogue/types.js';
import type { PERSON } from '../../catalogue/vocabulary.js';
import { arr, compact, int, isoFromText, readsOf, obj, objs, str, type Obj } from '../kit/read.js';

export type BlueskyPost = TypeOf<typeof BLUESKY_POST>;
export type BlueskyProfile = TypeOf<typeof BLUESKY_PROFILE>;
export type BlueskyAccount = TypeOf<typeof BLUESKY_ACCOUNT>;
type Person = TypeOf<typeof PERSON>;

const WEB = 'https://bsky.app';
export const { need, changed } = readsOf('bluesky');
/** Labels Bluesky's moderation puts on adult or graphic content. */
const ADULT = new Set(['porn', 'sexual', 'nudity', 'graphic-media', 'gore']);

const profileUrl = (actor: string) => `${WEB}/profile/${actor}`;

/** `at://did/app.bsky.feed.post/rkey` → its bsky.app address (under the handle when known, else the DID). */
export function postUrl(uri: string, handle?: string): string | undefined {
  const m = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/.exec(uri);
  return m ? `${profileUrl(handle ?? m[1])}/post/${m[2]}` : undefined;
}

const verified = (v: Obj): true | undefined => (obj(v.verification)?.verifiedStatus === 'valid' ? true : undefined);
/** Handles Bluesky could not verify read `handle.invalid`: not a name to show. */
const handleOf = (v: Obj): string | undefined => {
  const h = str(v.handle);
  return h && h !== 'handle.invalid' ? h : undefined;
};

/** A post's or a list's author (profileViewBasic) → the shared person. */
export function personOf(v: unknown): Person | undefined {
  const a = obj(v);
  const did = str(a?.did);
  if (!a || !did) return undefined;
  const handle = handleOf(a);
  return compact({ id: did, username: handle, name: str(a.displayName), url: profileUrl(handle ?? did), avatar: str(a.avatar), isVerified: verified(a) });
}

/** Mentions (as handles, from the text the facet covers) and hashtags, from a post record's facets. */
function facetsOf(record: Obj): { mentions: string[]; hashtags: string[] } {
  const bytes = Buffer.from(str(record.text) ?? '', 'utf8');
  const mentions: string[] = [];
  const hashtags: string[] = [];
  for (const facet of objs(record.facets)) {
    const index = obj(facet.index);
    for (const feature of objs(facet.features)) {
      if (feature.$type === 'app.bsky.richtext.facet#tag') {
        const tag = str(feature.tag);
        if (tag) hashtags.push(tag);
      } else if (feature.$type === 'app.bsky.richtext.facet#mention') {
        const start = int(index?.byteStart);
        const end = int(index?.byteEnd);
        const shown = start !== undefined && end !== undefined && start >= 0 && end <= bytes.length && start < end ? bytes.subarray(start, end).toString('utf8') : '';
        const handle = shown.replace(/^@/, '').trim();
        if (handle) mentions.push(handle);
      }
    }
  }
  return { mentions: [...new Set(mentions)], hashtags: [...new Set(hashtags)] };
}

type Media = Pick<BlueskyPost, 'images' | 'video' | 'link' | 'isVideo' | 'quoteOf'>;

/** An embedded post (`app.bsky.embed.record#viewRecord`, or its not-found and blocked stand-ins). */
function quoteOf(view: unknown): BlueskyPost['quoteOf'] {
  const r = obj(view);
  const uri = str(r?.uri);
  if (!r || !uri || !/\/app\.bsky\.feed\.post\//.test(uri)) return undefined;
  const author = personOf(r.author);
  return compact({ id: uri, url: postUrl(uri, author?.username), text: str(obj(r.value)?.text), author });
}

/** The media and quote of a post view's `embed` (images, video, external link, record, record with media). */
function mediaOf(embed: unknown): Media {
  const e = obj(embed);
  switch (e?.$type) {
    case 'app.bsky.embed.images#view':
      return {
        images: objs(e.images).flatMap((i) => {
          const url = str(i.fullsize) ?? str(i.thumb);
          const ratio = obj(i.aspectRatio);
          return url ? [compact({ url, alt: str(i.alt), width: int(ratio?.width), height: int(ratio?.height) })] : [];
        }),
      };
    case 'app.bsky.embed.video#view': {
      const ratio = obj(e.aspectRatio);
      const video = compact({ hls: str(e.playlist), thumbnail: str(e.thumbnail), width: int(ratio?.width), height: int(ratio?.height) });
      return { video, isVideo: true };
    }
    case 'app.bsky.embed.external#view': {
      const x = obj(e.external);
      const url = str(x?.uri);
      return url ? { link: compact({ url, title: str(x?.title), description: str(x?.description), image: str(x?.thumb) }) } : {};
    }
    case 'app.bsky.embed.record#view':
      return { quoteOf: quoteOf(e.record) };
    case 'app.bsky.embed.recordWithMedia#view':
      return { ...mediaOf(e.media), quoteOf: quoteOf(obj(e.record)?.record) };
    default:
      return {};
  }
}

export interface PostContext {
  /** The post this one answers, as far as the answer shows it. */
  parent?: unknown;
  /** A feed item's reason: a repost (who, when) or a pin. */
  reason?: unknown;
}

/** A post view (`app.bsky.feed.defs#postView`) → the post record. */
export function postOf(view: unknown, context: PostContext = {}): BlueskyPost {
  const p = obj(view);
  if (!p) throw changed('a post view that is not an object');
  const uri = need(str(p.uri), 'post view without uri');
  const what = (w: string) => `post ${uri} without ${w}`;
  const record = obj(p.record) ?? {};
  const author = need(personOf(p.author), what('its author'));
  const reply = obj(record.reply);
  const parentUri = str(obj(reply?.parent)?.uri);
  const parent = obj(context.parent);
  const parentAuthor = parent && str(parent.uri) === parentUri ? personOf(parent.author) : undefined;
  const reason = obj(context.reason);
  const reposter = reason?.$type === 'app.bsky.feed.defs#reasonRepost' ? personOf(reason.by) : undefined;
  const { mentions, hashtags } = facetsOf(record);
  const labels = objs(p.labels).flatMap((l) => str(l.val) ?? []);
  return compact({
    type: 'post' as const,
    id: uri,
    url: need(postUrl(uri, author.username), what('a post address')),
    createdAt: need(isoFromText(record.createdAt) ?? isoFromText(p.indexedAt), what('createdAt')),
    author,
    text: str(record.text),
    language: str(arr(record.langs)[0]),
    likes: need(int(p.likeCount), what('likeCount')),
    reposts: need(int(p.repostCount), what('repostCount')),
    quotes: need(int(p.quoteCount), what('quoteCount')),
    comments: need(int(p.replyCount), what('replyCount')),
    bookmarks: int(p.bookmarkCount),
    isNsfw: labels.some((l) => ADULT.has(l)) || undefined,
    isPinned: reason?.$type === 'app.bsky.feed.defs#reasonPin' || undefined,
    hashtags,
    mentions,
    ...mediaOf(p.embed),
    replyTo: parentUri ? compact({ id: parentUri, url: postUrl(parentUri, parentAuthor?.username), author: parentAuthor }) : undefined,
    conversationId: str(obj(reply?.root)?.uri),
    repostedBy: reposter,
    repostedAt: reposter ? isoFromText(reason?.indexedAt) : undefined,
  });
}

/** A feed item (`feedViewPost`: the post, the post it answers, why it is in the feed). */
export const feedItemOf = (item: Obj): BlueskyPost => postOf(item.post, { parent: obj(item.reply)?.parent, reason: item.reason });

/** A feed answer (getAuthorFeed, getFeed): its posts and the AppView's cursor. */
export function feedOf(answer: Obj): { posts: BlueskyPost[]; cursor?: string } {
  if (!Array.isArray(answer.feed)) throw changed('feed answer without feed');
  return { posts: objs(answer.feed).map(feedItemOf), ...(str(answer.cursor) ? { cursor: str(answer.cursor) } : {}) };
}

/** A detailed profile view (getProfile, getProfiles) → the profile record. */
export function profileOf(view: unknown): BlueskyProfile {
  const v = obj(view);
  if (!v) throw changed('a profile view that is not an object');
  const did = need(str(v.did), 'profile without did');
  const handle = need(handleOf(v) ?? did, `profile ${did} without handle`);
  const associated = obj(v.associated);
  const what = (w: string) => `profile ${did} without ${w}`;
  return compact({
    type: 'profile' as const,
    id: did,
    username: handle,
    url: profileUrl(handle),
    followers: need(int(v.followersCount), what('followersCount')),
    following: need(int(v.followsCount), what('followsCount')),
    posts: need(int(v.postsCount), what('postsCount')),
    name: str(v.displayName),
    bio: str(v.description),
    avatar: str(v.avatar),
    banner: str(v.banner),
    isVerified: verified(v),
    createdAt: isoFromText(v.createdAt),
    lists: int(associated?.lists),
    feeds: int(associated?.feedgens),
    starterPacks: int(associated?.starterPacks),
    pinnedPostId: str(obj(v.pinnedPost)?.uri),
  });
}

/** A profile view of a list (followers, search results, starter pack members) → the account record. */
export function accountOf(view: unknown): BlueskyAccount {
  const v = obj(view);
  const did = need(str(v?.did), 'account without did');
  const handle = handleOf(v!) ?? did;
  return compact({
    type: 'profile' as const,
    id: did,
    username: handle,
    url: profileUrl(handle),
    name: str(v!.displayName),
    bio: str(v!.description),
    avatar: str(v!.avatar),
    isVerified: verified(v!),
    createdAt: isoFromText(v!.createdAt),
  });
}

export interface Thread {
  post: BlueskyPost;
  replies: BlueskyPost[];
}

/**
 * A getPostThread answer → the post and its replies, flat in reading order (each reply right after the post it
 * answers, the AppView's order among siblings), at most `limit` of them. A post the AppView cannot show is notFound.
 */
export function threadOf(answer: Obj, limit: number): Thread {
  const root = obj(answer.thread);
  if (!root) throw changed('thread answer without thread');
  if (root.$type !== 'app.bsky.feed.defs#threadViewPost') throw changed(`thread of ${String(root.$type)}`);
  const post = postOf(root.post, { parent: obj(root.parent)?.post });
  const replies: BlueskyPost[] = [];
  const todo: { node: Obj; parent: unknown }[] = objs(root.replies).map((node) => ({ node, parent: root.post })).reverse();
  while (todo.length && replies.length < limit) {
    const { node, parent } = todo.pop()!;
    if (node.$type !== 'app.bsky.feed.defs#threadViewPost') continue;
    replies.push(postOf(node.post, { parent }));
    for (const child of objs(node.replies).reverse()) todo.push({ node: child, parent: node.post });
  }
  return { post, replies };
}

/** The kind of thread node the AppView answered instead of a post (notFoundPost, blockedPost). */
export const threadMissing = (answer: Obj): string | undefined => {
  const t = obj(answer.thread);
  return t && t.$type !== 'app.bsky.feed.defs#threadViewPost' ? str(t.$type) ?? 'unknown' : undefined;
};
