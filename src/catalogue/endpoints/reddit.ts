import { boolean, choice, endpoint, integer, limit, pattern, plainCursor, cursor, text, within } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { COMMENT_FIELDS, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

/**
 * SPEC "Forum post record", in the shared post vocabulary. Required: what every healthy listing child carries, so
 * an answer that lost or renamed one of them is drift (sourceChanged), not a thinner success.
 */
export const FORUM_POST = rec(
  {
    type: literal('post'),
    id: str,
    url: str,
    title: str,
    subforum: str,
    createdAt: str,
    score: int,
    comments: int,
    isNsfw: bool,
    isVideo: bool,
    isPinned: bool,
  },
  {
    text: POST_FIELDS.text,
    author: POST_FIELDS.author,
    upvotePercent: int,
    flair: str,
    link: POST_FIELDS.link,
    thumbnail: POST_FIELDS.thumbnail,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    poll: POST_FIELDS.poll,
    repostOf: rec({}, { id: str, url: str, subforum: str, title: str }),
  },
);

/** SPEC "Subforum record". */
export const SUBFORUM = rec(
  { type: literal('subforum'), id: str, url: str, name: str, isNsfw: bool, members: int, createdAt: str },
  { title: str, description: str, avatar: str, rules: list(rec({ title: str }, { description: str })) },
);

/**
 * A comment of a post's thread (`t1`), in the shared comment vocabulary. Threads are answered flat, in reading order
 * (each reply right after its parent), with `parentId` and `depth` to rebuild the tree.
 */
export const FORUM_COMMENT = rec(
  { type: literal('comment'), id: str, url: str, parentId: str, depth: int, score: int, createdAt: str },
  {
    text: COMMENT_FIELDS.text,
    author: COMMENT_FIELDS.author,
    /** Replies answered under this comment (a "more" stub may hold others). */
    replies: COMMENT_FIELDS.replies,
    isPinned: COMMENT_FIELDS.isPinned,
    isEdited: COMMENT_FIELDS.isEdited,
    editedAt: str,
    /** Written by the post's own author. */
    isByPostAuthor: bool,
  },
);

/**
 * Comments Reddit left out of the thread (its `more` stub): `count` more replies under `parentId`, with their ids;
 * a stub with count 0 and no ids is "continue this thread" (the thread goes on deeper than `depth`).
 */
export const FORUM_MORE = rec(
  { type: literal('more'), parentId: str, depth: int, count: int },
  { ids: list(str) },
);

/** A user found by reddit.search (`t2`), in the shared profile vocabulary plus Reddit's karma. */
export const FORUM_USER = rec(
  { type: literal('user'), id: str, url: str, username: str, createdAt: str },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    isNsfw: bool,
    karma: int,
    postKarma: int,
    commentKarma: int,
  },
);

const WINDOWS = ['hour', 'day', 'week', 'month', 'year', 'all'] as const;
/** A subreddit name (3-21 characters of letters, digits and _), optionally prefixed with r/. */
const subforum = () =>
  pattern('^(?:r/)?[A-Za-z0-9][A-Za-z0-9_]{1,20}$', 'a subreddit name such as golang or r/golang', 23);

export const REDDIT = {
  search: endpoint({
    id: 'reddit.search',
    title: 'Reddit search',
    summary:
      'Searches Reddit for posts (optionally within one subreddit, by sort and time window), subreddits or users, with a cursor for more.',
    credits: 2,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 512, 'search terms'),
      type: choice(['posts', 'subforums', 'users'], 'posts'),
      // SPEC: "subforum string", bounds not stated; chosen the subreddit-name rule of reddit.subforum.
      subforum: subforum(),
      sort: choice(['relevance', 'hot', 'top', 'newest', 'mostComments'], 'relevance'),
      within: within(WINDOWS, 'all'),
      includeNsfw: boolean(false),
      limit: limit(1, 100, 25),
      cursor: plainCursor(1, 8192),
    },
    required: ['query'],
    example: { query: 'mechanical keyboard', type: 'posts', sort: 'top', within: 'month', limit: 25 },
    // One list per result type, the one asked for (posts are the subforum endpoint's records, subreddits its SUBFORUM).
    output: rec({}, { posts: list(FORUM_POST), subforums: list(SUBFORUM), users: list(FORUM_USER), cursor: str }),
  }),
  post: endpoint({
    id: 'reddit.post',
    title: 'Reddit post',
    summary: 'Reads one Reddit post (by id or address) and returns it with its comment thread, sorted and cut to a depth and size.',
    credits: 2,
    cacheTtlSeconds: 600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a post id or a full address).
      post: text(1, 2048, 'post id or address'),
      sort: choice(['best', 'top', 'newest', 'controversial', 'oldest', 'qa'], 'best'),
      depth: integer(1, 10),
      limit: limit(1, 500, 200),
    },
    required: ['post'],
    example: { post: 'https://www.reddit.com/r/golang/comments/1abcde/some_title/', sort: 'top', depth: 3 },
    itemsField: 'comments',
    output: rec({ post: FORUM_POST }, { comments: list(FORUM_COMMENT), more: list(FORUM_MORE) }),
  }),
  subforum: endpoint({
    id: 'reddit.subforum',
    title: 'Subreddit posts',
    summary: "Returns a subreddit's details and a page of its posts, with a cursor for the next page.",
    credits: 2,
    // SPEC: price columns not stated beyond "2 credits; paging yes"; chosen fixed price, keyed, 10-minute cache.
    perItems: null,
    cacheTtlSeconds: 600,
    fields: {
      subforum: subforum(),
      // SPEC: fields other than `subforum` not shown; chosen Reddit's listing options.
      sort: choice(['hot', 'newest', 'top', 'rising', 'controversial'], 'hot'),
      within: { ...within(WINDOWS, 'day'), description: 'relative time window; used by the top and controversial sorts' },
      limit: limit(1, 100, 25),
      cursor: cursor('^t3_[a-z0-9]{1,16}$', 't3_ followed by 1-16 lower-case letters or digits (the last post of the page)', 19),
    },
    required: ['subforum'],
    itemsField: 'posts',
    example: { subforum: 'golang', sort: 'hot', limit: 10 },
    output: rec({ posts: list(FORUM_POST), subforum: SUBFORUM }, { cursor: str }),
  }),
};
