import { choice, cursor, date, endpoint, limit, text } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

/**
 * A Threads account as the official Threads API's profile discovery gives it. Its engagement counts cover only the
 * past seven days (the API says so), so they sit in `lastWeek`, not in the vocabulary's all-time `likes`.
 */
export const THREADS_PROFILE = rec(
  { type: literal('profile'), username: str, url: str, followers: int },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    isVerified: PROFILE_FIELDS.isVerified,
    lastWeek: rec({}, { likes: int, quotes: int, replies: int, reposts: int, views: int }),
  },
);

/**
 * A Threads post in the shared post vocabulary. The API always gives a post's id and time; its address is omitted
 * for media flagged for copyright, and its counts are not public. A topic tag is the post's one hashtag.
 */
export const THREADS_POST = rec(
  { type: literal('post'), id: str, createdAt: str },
  {
    url: POST_FIELDS.url,
    text: POST_FIELDS.text,
    author: POST_FIELDS.author,
    isVideo: POST_FIELDS.isVideo,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    link: POST_FIELDS.link,
    repostOf: POST_FIELDS.repostOf,
    replyTo: POST_FIELDS.replyTo,
    quoteOf: rec({}, { id: str }),
    hasReplies: bool,
    mediaType: str,
  },
);

const profile = () => text(1, 2048, 'username, @handle or profile address');

export const THREADS = {
  profile: endpoint({
    id: 'threads.profile',
    title: 'Threads profile',
    summary: "Returns a public Threads account's profile: name, bio, avatar, follower count and last week's engagement.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { profile: profile() },
    required: ['profile'],
    example: { profile: 'meta' },
    output: rec({ profile: THREADS_PROFILE }),
  }),
  posts: endpoint({
    id: 'threads.posts',
    title: 'Threads posts of an account',
    summary: "Returns a page of a public Threads account's posts, newest first, with text, media and a cursor.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: {
      profile: profile(),
      from: date(),
      to: date(),
      limit: limit(1, 100, 25),
      cursor: cursor('^[A-Za-z0-9_=-]{1,1024}$', "the Threads API's after cursor", 1024),
    },
    required: ['profile'],
    itemsField: 'posts',
    example: { profile: 'meta', limit: 25 },
    output: rec({ posts: list(THREADS_POST) }, { cursor: str }),
  }),
  post: endpoint({
    id: 'threads.post',
    title: 'Threads post',
    summary: 'Returns one Threads post with its author, text, media, link and what it replies to, quotes or reposts.',
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { post: text(1, 2048, 'post id, or the address of one of its author\'s recent posts') },
    required: ['post'],
    example: { post: '1234567' },
    output: rec({ post: THREADS_POST }),
  }),
  search: endpoint({
    id: 'threads.search',
    title: 'Threads search',
    summary: 'Searches public Threads posts by keyword or topic tag, top or most recent, within dates.',
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'keywords, or a topic tag with mode tag'),
      mode: choice(['keyword', 'tag'], 'keyword'),
      sort: choice(['top', 'recent'], 'top'),
      mediaType: choice(['all', 'text', 'image', 'video'], 'all'),
      from: date(),
      to: date(),
      limit: limit(1, 100, 25),
    },
    required: ['query'],
    itemsField: 'posts',
    example: { query: 'climate', sort: 'recent', limit: 25 },
    output: rec({ posts: list(THREADS_POST) }),
  }),
};
