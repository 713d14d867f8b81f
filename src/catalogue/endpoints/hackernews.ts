import { choice, cursor, endpoint, integer, limit, text, within } from '../fields.js';
import { bool, int, list, literal, oneOf, rec, str } from '../records.js';
import { COMMENT_FIELDS, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';
import { FORUM_MORE } from './reddit.js';

const KINDS = ['story', 'ask', 'show', 'job', 'poll'] as const;

/**
 * A Hacker News submission (story, Ask HN, Show HN, job or poll) in the shared post vocabulary, shaped like the forum
 * post: `url` is its discussion page, `link` the address it submits, `comments` the count HN keeps (descendants).
 * Every live submission has its id, kind, time and title.
 */
export const HN_POST = rec(
  { type: literal('post'), id: str, url: str, kind: oneOf(KINDS), title: str, createdAt: str },
  {
    text: POST_FIELDS.text,
    author: POST_FIELDS.author,
    link: POST_FIELDS.link,
    score: POST_FIELDS.score,
    comments: POST_FIELDS.comments,
    poll: POST_FIELDS.poll,
    /** Flagged or killed: HN shows it only to readers who turned on showdead. */
    isDead: bool,
  },
);

/**
 * A comment of a thread, in the shared comment vocabulary, answered flat in reading order like reddit.post's thread
 * (`parentId` and `depth`, 0 for a reply to the submission). HN publishes no comment scores. A deleted comment keeps
 * its place in the thread with `isDeleted` and nothing else; `replies` counts the direct replies HN lists.
 */
export const HN_COMMENT = rec(
  { type: literal('comment'), id: str, url: str, parentId: str, depth: int, createdAt: str },
  {
    text: COMMENT_FIELDS.text,
    author: COMMENT_FIELDS.author,
    replies: COMMENT_FIELDS.replies,
    isDeleted: bool,
    isDead: bool,
  },
);

/**
 * An account in the shared profile vocabulary, plus HN's karma, how many items it submitted (stories, comments and
 * polls alike, as HN counts them) and the ids of the newest 100.
 */
export const HN_USER = rec(
  { type: literal('profile'), id: str, username: str, url: str, createdAt: str, karma: int },
  { bio: PROFILE_FIELDS.bio, submissions: int, submissionIds: list(str) },
);

/**
 * A search hit from HN Search (Algolia): a submission (`post`) or a comment, told apart by `type`; a comment names
 * the submission it belongs to.
 */
export const HN_SEARCH_HIT = rec(
  { type: oneOf(['post', 'comment'] as const), id: str, url: str, createdAt: str },
  {
    kind: oneOf(KINDS),
    title: str,
    text: POST_FIELDS.text,
    author: POST_FIELDS.author,
    link: POST_FIELDS.link,
    score: POST_FIELDS.score,
    comments: POST_FIELDS.comments,
    parentId: str,
    storyId: str,
    storyTitle: str,
  },
);

// An item id, or its news.ycombinator.com address.
const item = () => text(1, 2048, 'item id or https://news.ycombinator.com/item?id= address');

export const HACKERNEWS = {
  stories: endpoint({
    id: 'hackernews.stories',
    title: 'Hacker News stories',
    summary: "Returns Hacker News's top, new, best, Ask HN, Show HN or job stories in the site's order, with score, comment count and link.",
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 300,
    fields: {
      list: choice(['top', 'new', 'best', 'ask', 'show', 'job'], 'top'),
      limit: limit(1, 100, 30),
      // The position in HN's list of up to 500 ids where the next page starts.
      cursor: cursor('^[1-9][0-9]{0,2}$', 'the position in the list where the next page starts (1-999)', 3),
    },
    itemsField: 'stories',
    example: { list: 'top', limit: 30 },
    output: rec({ stories: list(HN_POST) }, { cursor: str }),
  }),
  item: endpoint({
    id: 'hackernews.item',
    title: 'Hacker News item',
    summary: 'Reads one Hacker News story, poll, job or comment (by id or address) with its comment thread in reading order, cut to a depth and size.',
    credits: 1,
    perItems: 100,
    cacheTtlSeconds: 600,
    fields: {
      item: item(),
      depth: integer(1, 10),
      limit: limit(1, 500, 100),
    },
    required: ['item'],
    itemsField: 'comments',
    example: { item: '8863', limit: 100 },
    // `post` for a submission, `comment` when the item asked is itself a comment (its thread is then its replies).
    output: rec({}, { post: HN_POST, comment: HN_COMMENT, comments: list(HN_COMMENT), more: list(FORUM_MORE) }),
  }),
  user: endpoint({
    id: 'hackernews.user',
    title: 'Hacker News user',
    summary: "Returns a Hacker News user's profile: karma, creation date, about text and the ids of their newest submissions.",
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 3600,
    fields: { user: text(1, 2048, 'username or https://news.ycombinator.com/user?id= address') },
    required: ['user'],
    example: { user: 'pg' },
    output: rec({ user: HN_USER }),
  }),
  search: endpoint({
    id: 'hackernews.search',
    title: 'Hacker News search',
    summary: 'Searches Hacker News stories or comments (HN Search by Algolia) by relevance or date, within a time window and above a score.',
    credits: 1,
    keyless: true,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 400, 'search terms'),
      // `tags` stays the request-label field every endpoint has, hence `kind`.
      kind: choice(['story', 'comment', 'ask', 'show', 'job', 'poll', 'all'], 'story'),
      sort: choice(['relevance', 'newest'], 'relevance'),
      within: within(['day', 'week', 'month', 'year', 'all'], 'all'),
      minScore: integer(0, 100000),
      limit: limit(1, 100, 20),
      cursor: cursor('^[1-9][0-9]{0,2}$', 'the next page number (1-999)', 3),
    },
    required: ['query'],
    itemsField: 'results',
    example: { query: 'rust async', kind: 'story', sort: 'relevance', limit: 20 },
    output: rec({ results: list(HN_SEARCH_HIT) }, { total: int, cursor: str }),
  }),
  updates: endpoint({
    id: 'hackernews.updates',
    title: 'Hacker News updates',
    summary: 'Returns the ids of the Hacker News items and the usernames of the profiles that changed most recently, and the newest item id.',
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 60,
    fields: {},
    example: {},
    output: rec({ maxItemId: str }, { itemIds: list(str), usernames: list(str) }),
  }),
};
