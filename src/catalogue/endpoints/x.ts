import { cursor, endpoint, limit, text } from '../fields.js';
import { int, list, literal, rec, str } from '../records.js';
import { PERSON, POST_FIELDS } from '../vocabulary.js';

/**
 * A post on X in the shared post vocabulary (shaped like the forum post where the data allows). Required: what every
 * healthy tweet result carries (its id, author, creation time and the four public counts), so an answer that lost
 * or renamed one is drift (sourceChanged).
 */
export const MICROBLOG_POST = rec(
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
    views: POST_FIELDS.views,
    bookmarks: POST_FIELDS.bookmarks,
    isNsfw: POST_FIELDS.isNsfw,
    isVideo: POST_FIELDS.isVideo,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    link: POST_FIELDS.link,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    poll: POST_FIELDS.poll,
    editedAt: POST_FIELDS.editedAt,
    /** The post this one replies to. */
    replyTo: POST_FIELDS.replyTo,
    /** A repost (retweet): the original post. */
    repostOf: POST_FIELDS.repostOf,
    /** A quote post: the post it quotes, with its text (X-only: a post embedding another with words of its own). */
    quoteOf: rec({ id: str }, { url: str, text: str, author: PERSON }),
    /** The conversation (thread) the post belongs to: the id of its first post. */
    conversationId: str,
  },
);

export const X = {
  post: endpoint({
    id: 'x.post',
    title: 'X post',
    summary:
      'Reads one post on X (by id or address): its author, text, media, poll and engagement counts, plus a page of replies with a cursor when the server has an X session configured.',
    credits: 1,
    cacheTtlSeconds: 600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a post id or a full address).
      post: text(1, 2048, 'post id or address'),
      // SPEC: "optional digits followed by `~`, then 16-16000 characters from letters, digits, + / _ = -". Read
      // as an optional `<digits>~` prefix (the digits themselves may be empty), then the opaque part.
      cursor: cursor(
        '^(?:[0-9]*~)?[A-Za-z0-9+/_=-]{16,16000}$',
        'optional digits and ~, then 16-16000 letters, digits or + / _ = -',
        16064,
      ),
    },
    required: ['post'],
    example: { post: 'https://x.com/nasa/status/1790000000000000000' },
    // `post` is absent only on a later page of replies, which X answers without the post itself.
    output: rec({}, { post: MICROBLOG_POST, replies: list(MICROBLOG_POST), cursor: str }),
  }),
  search: endpoint({
    id: 'x.search',
    title: 'X search',
    summary:
      "Searches X for the most recent posts matching a query (X's search operators allowed) and returns them with author, text and engagement counts; needs the server's X session.",
    credits: 1,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'search terms; X search operators allowed'),
      limit: limit(1, 20, 20),
    },
    required: ['query'],
    example: { query: 'from:nasa artemis', limit: 20 },
    itemsField: 'posts',
    output: rec({}, { posts: list(MICROBLOG_POST) }),
  }),
};
