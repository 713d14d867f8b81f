import { endpoint, limit, text } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { MEDIA_VIDEO, POST_FIELDS, PROFILE_FIELDS, VIDEO_FIELDS } from '../vocabulary.js';

/**
 * A Snapchat account in the shared profile vocabulary. Every account page names the username; a public profile (a
 * creator or business) adds its title, bio, subscribers, website and category, an ordinary account only a display
 * name and its Snapcode (`isPublic` false). A subscriber count the page hides (it says 0 and states no counter) is left
 * out rather than given as 0.
 */
export const SNAPCHAT_PROFILE = rec(
  { type: literal('profile'), username: str, url: str, isPublic: bool },
  {
    id: str,
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    followers: PROFILE_FIELDS.followers,
    website: PROFILE_FIELDS.website,
    location: PROFILE_FIELDS.location,
    createdAt: PROFILE_FIELDS.createdAt,
    category: str,
    snapcode: str,
  },
);

/** A Spotlight video in the shared video vocabulary, with its shares and hashtags (as a TikTok video has them). */
export const SPOTLIGHT_VIDEO = rec(
  { type: literal('video'), id: str, url: str },
  {
    title: VIDEO_FIELDS.title,
    description: VIDEO_FIELDS.description,
    publishedAt: VIDEO_FIELDS.publishedAt,
    durationSeconds: VIDEO_FIELDS.durationSeconds,
    views: VIDEO_FIELDS.views,
    comments: VIDEO_FIELDS.comments,
    shares: int,
    author: VIDEO_FIELDS.author,
    thumbnails: VIDEO_FIELDS.thumbnails,
    hashtags: POST_FIELDS.hashtags,
    video: MEDIA_VIDEO,
  },
);

const profile = () => text(1, 2048, 'username, @handle or profile address');

export const SNAPCHAT = {
  profile: endpoint({
    id: 'snapchat.profile',
    title: 'Snapchat profile',
    summary: "Returns a Snapchat account's public profile: name, bio, avatar, subscriber count, website and category.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { profile: profile() },
    required: ['profile'],
    example: { profile: 'spotlightcreator' },
    output: rec({ profile: SNAPCHAT_PROFILE }),
  }),
  spotlight: endpoint({
    id: 'snapchat.spotlight',
    title: 'Snapchat Spotlight videos of an account',
    summary: "Returns the Spotlight videos a Snapchat account's public profile shows, with views, shares and comments.",
    credits: 1,
    perItems: 25,
    cacheTtlSeconds: 3600,
    fields: { profile: profile(), limit: limit(1, 25, 25) },
    required: ['profile'],
    itemsField: 'videos',
    example: { profile: 'spotlightcreator', limit: 25 },
    output: rec({ videos: list(SPOTLIGHT_VIDEO) }),
  }),
};
