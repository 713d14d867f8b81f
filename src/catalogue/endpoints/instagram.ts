import { choice, cursor, endpoint, limit, text } from '../fields.js';
import { bool, int, list, literal, oneOf, rec, str } from '../records.js';
import { COMMENT_FIELDS, GEO, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

/**
 * An Instagram post (a photo, a carousel or a reel) in the shared post vocabulary. Every answer Instagram gives for a
 * media item (the web profile's GraphQL nodes, the app API's items) carries its id, its code (the address) and when
 * it was taken; the rest depends on the answer and the item.
 */
export const INSTAGRAM_POST = rec(
  { type: literal('post'), id: str, url: str, createdAt: str },
  {
    text: POST_FIELDS.text,
    author: POST_FIELDS.author,
    likes: POST_FIELDS.likes,
    comments: POST_FIELDS.comments,
    views: POST_FIELDS.views,
    isVideo: POST_FIELDS.isVideo,
    isPinned: POST_FIELDS.isPinned,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    thumbnail: POST_FIELDS.thumbnail,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
  },
);

/** An Instagram account in the shared profile vocabulary, plus the category and business flag the page shows. */
export const INSTAGRAM_PROFILE = rec(
  { type: literal('profile'), id: str, username: str, url: str, followers: int, following: int, posts: int },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    isVerified: PROFILE_FIELDS.isVerified,
    isPrivate: PROFILE_FIELDS.isPrivate,
    website: PROFILE_FIELDS.website,
    category: str,
    isBusiness: bool,
  },
);

export const INSTAGRAM_COMMENT = rec(
  { type: literal('comment'), id: str, text: str, createdAt: str },
  { author: COMMENT_FIELDS.author, likes: COMMENT_FIELDS.likes, replies: COMMENT_FIELDS.replies },
);

const HASHTAG = rec({ type: literal('hashtag'), id: str, name: str, url: str }, { posts: int, avatar: str });

/** A search suggestion: an account (`profile`), a hashtag or a place, each with its Instagram address. */
const SEARCH_RESULT = rec(
  { type: oneOf(['profile', 'hashtag', 'place'] as const), url: str },
  { id: str, username: str, name: str, avatar: str, isVerified: bool, isPrivate: bool, posts: int, address: str, location: GEO },
);

// Instagram's own cursors are base64 end cursors or numeric ids; a profile's lists carry the account id before a colon
// (so a next page needs no second look-up of the profile).
const igCursor = () =>
  cursor('^(?:[0-9]{1,20}:)?[A-Za-z0-9+/=_.-]{1,2048}$', "Instagram's page token, optionally after an account id and a colon", 2069);
const profile = () => text(1, 2048, 'username, @handle or profile address');
const post = () => text(1, 2048, 'post code (the part after /p/ or /reel/) or address');

export const INSTAGRAM = {
  profile: endpoint({
    id: 'instagram.profile',
    title: 'Instagram profile',
    summary: "Returns an Instagram account's profile: name, bio, avatar, follower, following and post counts, category and links.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { profile: profile() },
    required: ['profile'],
    example: { profile: 'robertdowneyjr' },
    output: rec({ profile: INSTAGRAM_PROFILE }),
  }),
  posts: endpoint({
    id: 'instagram.posts',
    title: 'Instagram posts',
    summary: "Returns a page of an Instagram account's posts, reels or the posts it is tagged in, newest first, with a cursor.",
    credits: 1,
    perItems: 12,
    cacheTtlSeconds: 1800,
    fields: {
      profile: profile(),
      type: choice(['posts', 'reels', 'tagged'], 'posts'),
      limit: limit(1, 50, 12),
      cursor: igCursor(),
    },
    required: ['profile'],
    itemsField: 'posts',
    example: { profile: 'robertdowneyjr', type: 'tagged', limit: 12 },
    output: rec({ posts: list(INSTAGRAM_POST) }, { cursor: str, total: int }),
  }),
  post: endpoint({
    id: 'instagram.post',
    title: 'Instagram post',
    summary: 'Returns one Instagram post or reel with its caption, author, media, likes, comment count and views.',
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { post: post() },
    required: ['post'],
    example: { post: 'https://www.instagram.com/p/CAnqPB-Jzcj/' },
    output: rec({ post: INSTAGRAM_POST }),
  }),
  comments: endpoint({
    id: 'instagram.comments',
    title: 'Instagram comments',
    summary: "Returns a page of an Instagram post's comments with author, text and date, with a cursor for the next page.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 600,
    fields: { post: post(), limit: limit(1, 50, 20), cursor: igCursor() },
    required: ['post'],
    itemsField: 'comments',
    example: { post: 'CIvZJcurJaW', limit: 20 },
    output: rec({ comments: list(INSTAGRAM_COMMENT) }, { cursor: str, total: int }),
  }),
  search: endpoint({
    id: 'instagram.search',
    title: 'Instagram search',
    summary: 'Searches Instagram for accounts, hashtags or places matching a query, as the search box suggests them.',
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 3600,
    fields: {
      query: text(1, 100, 'search terms'),
      type: choice(['users', 'hashtags', 'places'], 'users'),
      limit: limit(1, 50, 25),
    },
    required: ['query'],
    itemsField: 'results',
    example: { query: 'nasa', type: 'users', limit: 10 },
    output: rec({ results: list(SEARCH_RESULT) }),
  }),
  hashtag: endpoint({
    id: 'instagram.hashtag',
    title: 'Instagram hashtag',
    summary: "Returns an Instagram hashtag's post count and a page of its top or most recent posts, with a cursor.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 1800,
    fields: {
      hashtag: text(1, 150, 'hashtag, with or without #'),
      sort: choice(['recent', 'top'], 'recent'),
      limit: limit(1, 50, 25),
      cursor: igCursor(),
    },
    required: ['hashtag'],
    itemsField: 'posts',
    example: { hashtag: 'paris', sort: 'recent', limit: 25 },
    output: rec({ hashtag: HASHTAG, posts: list(INSTAGRAM_POST) }, { cursor: str }),
  }),
};
