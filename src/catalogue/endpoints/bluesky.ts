import { boolean, choice, cursor, date, endpoint, integer, language, limit, text } from '../fields.js';
import { int, list, literal, rec, str } from '../records.js';
import { PERSON, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

/**
 * A Bluesky post, shaped like X's microblog post (the same required counts: likes, reposts, quotes, replies as
 * `comments`). Its `id` is its AT URI (`at://did/app.bsky.feed.post/rkey`), which every Bluesky endpoint takes back;
 * `url` is its bsky.app page. A feed's repost answers the reposted post with who reposted it and when: Bluesky's
 * repost is not a post of its own.
 */
export const BLUESKY_POST = rec(
  {
    type: literal('post'),
    id: str,
    url: str,
    createdAt: str,
    author: PERSON,
    likes: int,
    reposts: int,
    quotes: int,
    comments: int,
  },
  {
    text: POST_FIELDS.text,
    language: POST_FIELDS.language,
    bookmarks: POST_FIELDS.bookmarks,
    isNsfw: POST_FIELDS.isNsfw,
    isVideo: POST_FIELDS.isVideo,
    isPinned: POST_FIELDS.isPinned,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    link: POST_FIELDS.link,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    replyTo: POST_FIELDS.replyTo,
    /** A quote post: the post it quotes, with its text. */
    quoteOf: rec({ id: str }, { url: str, text: str, author: PERSON }),
    /** The thread the post belongs to: the id of its first post. */
    conversationId: str,
    /** In a feed, the account that reposted this post, and when. */
    repostedBy: PERSON,
    repostedAt: str,
  },
);

/** An account as lists show it (followers, search results): who it is, without counts. */
export const BLUESKY_ACCOUNT = rec(
  { type: literal('profile'), id: str, username: str, url: str },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    isVerified: PROFILE_FIELDS.isVerified,
    createdAt: PROFILE_FIELDS.createdAt,
  },
);

/**
 * A Bluesky account in the shared profile vocabulary: `id` is its DID, `username` its handle. The counts of lists,
 * feeds and starter packs it made, and its pinned post, are Bluesky's own.
 */
export const BLUESKY_PROFILE = rec(
  { type: literal('profile'), id: str, username: str, url: str, followers: int, following: int, posts: int },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    isVerified: PROFILE_FIELDS.isVerified,
    createdAt: PROFILE_FIELDS.createdAt,
    lists: int,
    feeds: int,
    starterPacks: int,
    pinnedPostId: str,
  },
);

const profile = () => text(1, 2048, 'handle (alice.bsky.social), DID or bsky.app profile address');
// The AppView's cursors (timestamps, offsets, record keys), optionally after `N~` when limit cut a page.
const bskyCursor = () =>
  cursor('^(?:[0-9]{1,4}~)?[A-Za-z0-9:._+/=|-]{0,512}$', "Bluesky's own page token, optionally after N~ (a cut page)", 517);

export const BLUESKY = {
  profile: endpoint({
    id: 'bluesky.profile',
    title: 'Bluesky profile',
    summary: "Returns a Bluesky account's profile: handle, display name, bio, avatar, verification and follower, following and post counts.",
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 3600,
    fields: { profile: profile() },
    required: ['profile'],
    example: { profile: 'bsky.app' },
    output: rec({ profile: BLUESKY_PROFILE }),
  }),
  posts: endpoint({
    id: 'bluesky.posts',
    title: 'Bluesky posts',
    summary: "Returns a page of a Bluesky account's posts, newest first (with or without replies, media only, or its threads), with a cursor.",
    credits: 1,
    keyless: true,
    perItems: 30,
    cacheTtlSeconds: 600,
    fields: {
      profile: profile(),
      filter: choice(['posts', 'replies', 'media', 'videos', 'threads'], 'posts'),
      limit: limit(1, 100, 30),
      cursor: bskyCursor(),
    },
    required: ['profile'],
    itemsField: 'posts',
    example: { profile: 'bsky.app', filter: 'posts', limit: 30 },
    output: rec({ posts: list(BLUESKY_POST) }, { cursor: str }),
  }),
  post: endpoint({
    id: 'bluesky.post',
    title: 'Bluesky post',
    summary: 'Reads one Bluesky post (by address or AT URI) with its text, media, quote and counts, and its replies in reading order.',
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 600,
    fields: {
      post: text(1, 2048, 'bsky.app post address or at:// URI'),
      includeReplies: boolean(true),
      depth: integer(1, 10, 6),
      limit: limit(1, 500, 200),
    },
    required: ['post'],
    example: { post: 'https://bsky.app/profile/bsky.app/post/3l6oveex3ii2l' },
    output: rec({ post: BLUESKY_POST }, { replies: list(BLUESKY_POST) }),
  }),
  search: endpoint({
    id: 'bluesky.search',
    title: 'Bluesky search',
    summary: "Searches Bluesky posts (top or latest, by author, language and dates; needs the server's Bluesky account) or accounts, with a cursor.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 400, 'search terms; Bluesky search syntax allowed'),
      type: choice(['posts', 'users'], 'posts'),
      sort: choice(['top', 'latest'], 'latest'),
      author: text(1, 2048, 'only posts by this handle or DID'),
      language: language(),
      from: date(),
      to: date(),
      limit: limit(1, 100, 25),
      cursor: bskyCursor(),
    },
    required: ['query'],
    itemsField: 'posts',
    example: { query: 'redistricting', type: 'posts', sort: 'latest', limit: 25 },
    // The asked type's list: posts, or accounts as `users`.
    output: rec({}, { posts: list(BLUESKY_POST), users: list(BLUESKY_ACCOUNT), cursor: str }),
  }),
  followers: endpoint({
    id: 'bluesky.followers',
    title: 'Bluesky followers',
    summary: 'Returns a page of the accounts that follow a Bluesky account, or that it follows, with a cursor.',
    credits: 1,
    keyless: true,
    perItems: 50,
    cacheTtlSeconds: 3600,
    fields: {
      profile: profile(),
      type: choice(['followers', 'following'], 'followers'),
      limit: limit(1, 100, 50),
      cursor: bskyCursor(),
    },
    required: ['profile'],
    itemsField: 'users',
    example: { profile: 'bsky.app', type: 'followers', limit: 50 },
    output: rec({ users: list(BLUESKY_ACCOUNT) }, { cursor: str }),
  }),
  feed: endpoint({
    id: 'bluesky.feed',
    title: 'Bluesky custom feed',
    summary: 'Returns a page of the posts a Bluesky custom feed (by address or AT URI) serves now, with a cursor.',
    credits: 1,
    keyless: true,
    perItems: 30,
    cacheTtlSeconds: 600,
    fields: {
      feed: text(1, 2048, 'bsky.app feed address or at:// URI of a feed generator'),
      limit: limit(1, 100, 30),
      cursor: bskyCursor(),
    },
    required: ['feed'],
    itemsField: 'posts',
    example: { feed: 'https://bsky.app/profile/bsky.app/feed/whats-hot', limit: 30 },
    output: rec({ posts: list(BLUESKY_POST) }, { cursor: str }),
  }),
};
