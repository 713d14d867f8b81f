import { boolean, choice, endpoint, integer, limit, pattern, plainCursor, cursor, text, within } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { POST_FIELDS } from '../vocabulary.js';

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

const WINDOWS = ['hour', 'day', 'week', 'month', 'year', 'all'] as const;
/** A subreddit name (3-21 characters of letters, digits and _), optionally prefixed with r/. */
const subforum = () =>
  pattern('^(?:r/)?[A-Za-z0-9][A-Za-z0-9_]{1,20}$', 'a subreddit name such as golang or r/golang', 23);

export const REDDIT = {
  search: endpoint({
    id: 'reddit.search',
    title: 'Reddit search',
    summary: 'Searches Reddit and returns matching posts, subreddits or users.',
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
  }),
  post: endpoint({
    id: 'reddit.post',
    title: 'Reddit post',
    summary: 'Reads a Reddit post and returns it with its comment thread.',
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
