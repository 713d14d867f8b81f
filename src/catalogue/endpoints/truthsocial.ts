import { boolean, choice, cursor, endpoint, limit, text } from '../fields.js';
import { int, list, literal, rec, str } from '../records.js';
import { PERSON, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

/**
 * A Truth Social post ("truth"), in the microblog post shape of X and Bluesky: likes (favourites), reposts (ReTruths)
 * and replies are always counted; Truth Social counts no quotes. A ReTruth in a timeline is the reposted post with
 * `repostedBy` and `repostedAt`, as on Bluesky.
 */
export const TRUTHSOCIAL_POST = rec(
  { type: literal('post'), id: str, url: str, createdAt: str, author: PERSON, likes: int, reposts: int, comments: int },
  {
    text: POST_FIELDS.text,
    language: POST_FIELDS.language,
    isNsfw: POST_FIELDS.isNsfw,
    isVideo: POST_FIELDS.isVideo,
    isPinned: POST_FIELDS.isPinned,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    link: POST_FIELDS.link,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    poll: POST_FIELDS.poll,
    editedAt: POST_FIELDS.editedAt,
    replyTo: POST_FIELDS.replyTo,
    /** A quote post: the post it quotes, with its text. */
    quoteOf: rec({ id: str }, { url: str, text: str, author: PERSON }),
    repostedBy: PERSON,
    repostedAt: str,
  },
);

/** A Truth Social account in the shared profile vocabulary; `id` is its numeric account id. */
export const TRUTHSOCIAL_PROFILE = rec(
  { type: literal('profile'), id: str, username: str, url: str, followers: int, following: int, posts: int },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    isVerified: PROFILE_FIELDS.isVerified,
    isPrivate: PROFILE_FIELDS.isPrivate,
    createdAt: PROFILE_FIELDS.createdAt,
    location: PROFILE_FIELDS.location,
    website: PROFILE_FIELDS.website,
    links: PROFILE_FIELDS.links,
    lastPostOn: str,
  },
);

/** An account as search lists it: counts when the answer gives them. */
export const TRUTHSOCIAL_ACCOUNT = rec(
  { type: literal('profile'), id: str, username: str, url: str },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    isVerified: PROFILE_FIELDS.isVerified,
    followers: PROFILE_FIELDS.followers,
    following: PROFILE_FIELDS.following,
    posts: PROFILE_FIELDS.posts,
  },
);

export const TRUTHSOCIAL_HASHTAG = rec({ type: literal('hashtag'), name: str, url: str }, { posts: int, accounts: int });

const profile = () => text(1, 2048, 'username, @handle or truthsocial.com profile address');

export const TRUTHSOCIAL = {
  profile: endpoint({
    id: 'truthsocial.profile',
    title: 'Truth Social profile',
    summary: "Returns a Truth Social account's profile: name, bio, avatar, verification, follower, following and post counts, and links.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { profile: profile() },
    required: ['profile'],
    example: { profile: 'realDonaldTrump' },
    output: rec({ profile: TRUTHSOCIAL_PROFILE }),
  }),
  posts: endpoint({
    id: 'truthsocial.posts',
    title: 'Truth Social posts',
    summary: "Returns a page of a Truth Social account's posts and ReTruths, newest first (replies if asked), with a cursor for older ones.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 600,
    fields: {
      profile: profile(),
      includeReplies: boolean(false),
      limit: limit(1, 40, 20),
      // The account id and the oldest post answered: the next page starts below it.
      cursor: cursor('^[0-9]{1,20}:[0-9]{1,20}$', 'the account id, a colon and the oldest post id answered', 41),
    },
    required: ['profile'],
    itemsField: 'posts',
    example: { profile: 'realDonaldTrump', limit: 20 },
    output: rec({ posts: list(TRUTHSOCIAL_POST) }, { cursor: str }),
  }),
  post: endpoint({
    id: 'truthsocial.post',
    title: 'Truth Social post',
    summary: 'Reads one Truth Social post (by address or id) with its text, media, quote and counts, and its first replies, oldest first.',
    credits: 1,
    cacheTtlSeconds: 600,
    fields: {
      post: text(1, 2048, 'truthsocial.com post address or post id'),
      includeReplies: boolean(true),
      limit: limit(1, 80, 40),
    },
    required: ['post'],
    example: { post: 'https://truthsocial.com/@realDonaldTrump/114578366045537612' },
    output: rec({ post: TRUTHSOCIAL_POST }, { replies: list(TRUTHSOCIAL_POST) }),
  }),
  search: endpoint({
    id: 'truthsocial.search',
    title: 'Truth Social search',
    summary: "Searches Truth Social for posts, accounts or hashtags (where Truth Social allows it: usually with the server's account token), with a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'search terms'),
      type: choice(['posts', 'users', 'hashtags'], 'posts'),
      limit: limit(1, 20, 20),
      cursor: cursor('^[1-9][0-9]{0,3}$', 'the number of results already answered (1-9999)', 4),
    },
    required: ['query'],
    itemsField: 'posts',
    example: { query: 'tariffs', type: 'posts', limit: 20 },
    // The asked type's list.
    output: rec({}, { posts: list(TRUTHSOCIAL_POST), users: list(TRUTHSOCIAL_ACCOUNT), hashtags: list(TRUTHSOCIAL_HASHTAG), cursor: str }),
  }),
};
