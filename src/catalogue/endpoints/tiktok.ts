import { countryAmong, country, cursor, date, endpoint, limit, text } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { AD_FIELDS, COMMENT_FIELDS, MEDIA_VIDEO, POST_FIELDS, PROFILE_FIELDS, VIDEO_FIELDS } from '../vocabulary.js';

/**
 * A TikTok video in the shared video vocabulary, with the post fields a short video also has (shares, bookmarks,
 * hashtags, mentions) and its sound. Every answer names the video's id and its author; the page and the APIs also give
 * its time and counts, the oEmbed fallback does not.
 */
export const TIKTOK_VIDEO = rec(
  { type: literal('video'), id: str, url: str },
  {
    description: VIDEO_FIELDS.description,
    publishedAt: VIDEO_FIELDS.publishedAt,
    durationSeconds: VIDEO_FIELDS.durationSeconds,
    views: VIDEO_FIELDS.views,
    likes: VIDEO_FIELDS.likes,
    comments: VIDEO_FIELDS.comments,
    shares: int,
    reposts: POST_FIELDS.reposts,
    bookmarks: POST_FIELDS.bookmarks,
    author: VIDEO_FIELDS.author,
    thumbnails: VIDEO_FIELDS.thumbnails,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    language: VIDEO_FIELDS.language,
    isAd: bool,
    isPinned: POST_FIELDS.isPinned,
    video: MEDIA_VIDEO,
    music: rec({ title: str }, { id: str, author: str, url: str, isOriginal: bool }),
    captions: list(rec({ url: str }, { language: str, format: str, isAutomatic: bool })),
  },
);

export const TIKTOK_PROFILE = rec(
  { type: literal('profile'), id: str, username: str, url: str, followers: int, following: int, likes: int, posts: int },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    isVerified: PROFILE_FIELDS.isVerified,
    isPrivate: PROFILE_FIELDS.isPrivate,
    createdAt: PROFILE_FIELDS.createdAt,
    website: PROFILE_FIELDS.website,
    language: str,
  },
);

export const TIKTOK_COMMENT = rec(
  { type: literal('comment'), id: str, text: str, createdAt: str },
  { author: COMMENT_FIELDS.author, likes: COMMENT_FIELDS.likes, replies: COMMENT_FIELDS.replies, isPinned: COMMENT_FIELDS.isPinned, isByAuthor: COMMENT_FIELDS.isByAuthor, language: str },
);

/**
 * An ad of TikTok's ad library: the fields of the shared ad vocabulary (`AD_FIELDS`) that the library publishes. The
 * library's search gives the creative, dates and audience; one ad read through TikTok's Commercial Content API adds
 * who paid, its landing address and call to action, whether it still runs, the people reached (TikTok's rounded
 * figures, in all and per country) and its targeting (ages, gender, countries, and the audience, interest and
 * interaction categories as `targeting.segments`).
 */
const TIKTOK_AD_FIELDS = {
  advertiser: AD_FIELDS.advertiser,
  paidBy: AD_FIELDS.paidBy,
  titles: AD_FIELDS.titles,
  link: AD_FIELDS.link,
  cta: AD_FIELDS.cta,
  images: AD_FIELDS.images,
  videos: AD_FIELDS.videos,
  format: AD_FIELDS.format,
  startedAt: AD_FIELDS.startedAt,
  endedAt: AD_FIELDS.endedAt,
  isActive: AD_FIELDS.isActive,
  audience: AD_FIELDS.audience,
  reach: AD_FIELDS.reach,
  reachByCountry: AD_FIELDS.reachByCountry,
  targeting: rec(
    {},
    {
      ages: list(str),
      gender: str,
      locations: list(rec({ name: str }, { type: str, isExcluded: bool })),
      segments: list(rec({ category: str, name: str })),
    },
  ),
};
export const TIKTOK_AD = rec({ type: literal('ad'), id: str, url: str }, TIKTOK_AD_FIELDS);
/** One ad read by its id: TikTok always gives the day it was first shown. */
export const TIKTOK_AD_DETAIL = rec(
  { type: literal('ad'), id: str, url: str, startedAt: str },
  (({ startedAt: _startedAt, ...rest }) => rest)(TIKTOK_AD_FIELDS),
);

/** The 33 regions of TikTok's ad library (the EU and EEA, plus GB, CH and TR), as its own region list gives them. */
export const AD_LIBRARY_COUNTRIES = [
  'at', 'be', 'bg', 'ch', 'cy', 'cz', 'de', 'dk', 'ee', 'es', 'fi', 'fr', 'gb', 'gr', 'hr', 'hu', 'ie', 'is', 'it', 'li',
  'lt', 'lu', 'lv', 'mt', 'nl', 'no', 'pl', 'pt', 'ro', 'se', 'si', 'sk', 'tr',
] as const;

const profile = () => text(1, 2048, 'username, @handle or profile address');
const video = () => text(1, 2048, 'video id or address');
// TikTok's list cursors are numbers (times in milliseconds or offsets).
const numberCursor = () => cursor('^[0-9]{1,20}$', '1-20 digits', 20);

export const TIKTOK = {
  profile: endpoint({
    id: 'tiktok.profile',
    title: 'TikTok profile',
    summary: "Returns a TikTok account's profile: name, bio, avatar, follower, following, like and video counts.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { profile: profile() },
    required: ['profile'],
    example: { profile: '@illojuan' },
    output: rec({ profile: TIKTOK_PROFILE }),
  }),
  posts: endpoint({
    id: 'tiktok.posts',
    title: 'TikTok videos of an account',
    summary: "Returns a page of a TikTok account's videos, newest first, with views, likes and a cursor for the next page.",
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 1800,
    fields: {
      profile: profile(),
      limit: limit(1, 35, 30),
      cursor: cursor('^MS4wLjABAAAA[A-Za-z0-9_-]{1,200}:[0-9]{1,20}$', 'the account key, a colon and 1-20 digits', 234),
    },
    required: ['profile'],
    itemsField: 'videos',
    example: { profile: '@illojuan', limit: 30 },
    output: rec({ videos: list(TIKTOK_VIDEO) }, { cursor: str }),
  }),
  video: endpoint({
    id: 'tiktok.video',
    title: 'TikTok video',
    summary: 'Returns one TikTok video with its description, author, duration, counts, sound, captions and hashtags.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { video: video() },
    required: ['video'],
    example: { video: 'https://www.tiktok.com/@illojuan/video/7571863205253778710' },
    output: rec({ video: TIKTOK_VIDEO }),
  }),
  comments: endpoint({
    id: 'tiktok.comments',
    title: 'TikTok comments',
    summary: "Returns a page of a TikTok video's comments with author, text, likes and reply count, and a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 600,
    fields: { video: video(), limit: limit(1, 50, 20), cursor: numberCursor() },
    required: ['video'],
    itemsField: 'comments',
    example: { video: '7571863205253778710', limit: 20 },
    output: rec({ comments: list(TIKTOK_COMMENT) }, { cursor: str, total: int }),
  }),
  search: endpoint({
    id: 'tiktok.search',
    title: 'TikTok search',
    summary: 'Searches TikTok for videos matching a query and returns them with author and counts, with a cursor.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'search terms'),
      limit: limit(1, 30, 20),
      cursor: numberCursor(),
    },
    required: ['query'],
    itemsField: 'videos',
    example: { query: 'cooking', limit: 20 },
    output: rec({ videos: list(TIKTOK_VIDEO) }, { cursor: str }),
  }),
  trending: endpoint({
    id: 'tiktok.trending',
    title: 'TikTok trending videos',
    summary: "Returns the videos TikTok's For You feed shows a logged-out visitor from a country right now.",
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 900,
    fields: { country: country('us'), limit: limit(1, 30, 30) },
    itemsField: 'videos',
    example: { country: 'tw', limit: 30 },
    output: rec({ videos: list(TIKTOK_VIDEO) }),
  }),
  adsSearch: endpoint({
    id: 'tiktok.ads.search',
    title: 'TikTok ad library search',
    summary: "Searches TikTok's EU ad library in one country and returns ads with advertiser, creatives, dates and reach.",
    credits: 2,
    perItems: 12,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'advertiser name or keyword'),
      country: countryAmong(AD_LIBRARY_COUNTRIES, 'de', "TikTok's ad library"),
      from: date(),
      to: date(),
      limit: limit(1, 12, 12),
      cursor: cursor('^[A-Za-z0-9+/=_-]{4,1024}$', "the library's page token (base64)", 1024),
    },
    itemsField: 'ads',
    example: { query: 'nike', country: 'de', limit: 12 },
    output: rec({ ads: list(TIKTOK_AD) }, { cursor: str, total: int }),
  }),
  adsAd: endpoint({
    id: 'tiktok.ads.ad',
    title: 'TikTok ad',
    summary:
      "Returns one ad of TikTok's EU ad library by id or address, with its advertiser and payer, creatives, landing address, dates, reach by country and targeting.",
    credits: 2,
    cacheTtlSeconds: 3600,
    fields: { ad: text(1, 2048, 'ad library id or address') },
    required: ['ad'],
    example: { ad: '1790109992000000' },
    output: rec({ ad: TIKTOK_AD_DETAIL }),
  }),
};
