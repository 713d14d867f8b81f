import { choice, cursor, endpoint, limit, text, within } from '../fields.js';
import { bool, int, list, literal, oneOf, rec, str } from '../records.js';
import { IMAGE, MEDIA_VIDEO, PERSON, PROFILE_FIELDS, VIDEO_FIELDS } from '../vocabulary.js';

/** A live broadcast as a channel or a directory shows it. */
const LIVE = rec({ id: str }, { title: str, viewers: int, startedAt: str, category: str, thumbnail: str });

/**
 * A Twitch channel in the shared profile vocabulary: `username` is the login, `name` the display name; `isVerified` is
 * Twitch's partner badge. `live` is the broadcast running now, `nextStreamAt` the next one its schedule names.
 */
export const TWITCH_PROFILE = rec(
  { type: literal('profile'), id: str, username: str, url: str, name: str, followers: int },
  {
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    isVerified: PROFILE_FIELDS.isVerified,
    isAffiliate: bool,
    links: PROFILE_FIELDS.links,
    team: str,
    isLive: bool,
    live: LIVE,
    lastStreamTitle: str,
    lastStreamCategory: str,
    nextStreamAt: str,
  },
);

/** A past broadcast, highlight or upload, in the shared video vocabulary; `kind` is Twitch's broadcast type. */
export const TWITCH_VIDEO = rec(
  { type: literal('video'), id: str, url: str, publishedAt: str, durationSeconds: int, views: int },
  {
    title: VIDEO_FIELDS.title,
    description: VIDEO_FIELDS.description,
    author: VIDEO_FIELDS.author,
    thumbnails: VIDEO_FIELDS.thumbnails,
    category: VIDEO_FIELDS.category,
    kind: oneOf(['archive', 'highlight', 'upload', 'premiere'] as const),
    isSubscriberOnly: bool,
  },
);

/**
 * A clip in the shared video vocabulary: `id` is its slug (the address key), `author` the channel it was cut from,
 * `clippedBy` who cut it, `video` a signed, expiring MP4 address where the answer gives one.
 */
export const TWITCH_CLIP = rec(
  { type: literal('clip'), id: str, url: str, publishedAt: str, durationSeconds: int, views: int },
  {
    title: VIDEO_FIELDS.title,
    author: VIDEO_FIELDS.author,
    clippedBy: PERSON,
    thumbnails: VIDEO_FIELDS.thumbnails,
    category: VIDEO_FIELDS.category,
    language: VIDEO_FIELDS.language,
    isFeatured: bool,
    /** The past broadcast it was cut from, and where in it. */
    videoId: str,
    videoOffsetSeconds: int,
    video: MEDIA_VIDEO,
  },
);

/** A live stream of a category's directory. */
export const TWITCH_STREAM = rec(
  { type: literal('stream'), id: str, url: str, viewers: int, author: PERSON },
  { title: str, category: str, thumbnail: str, tags: list(str) },
);

/** A category (a game or a topic such as Just Chatting). */
export const TWITCH_CATEGORY = rec(
  { type: literal('category'), id: str, name: str, url: str },
  { slug: str, image: IMAGE, viewers: int, followers: int, tags: list(str) },
);

/** A scheduled broadcast of a channel's schedule; `recurrence` is the calendar's rule when it repeats. */
export const TWITCH_SEGMENT = rec(
  { type: literal('segment'), id: str, startsAt: str },
  { title: str, endsAt: str, category: str, isRecurring: bool, recurrence: str },
);

const channel = () => text(1, 2048, 'channel login or twitch.tv address');
const category = () => text(1, 2048, 'category slug (just-chatting), name or twitch.tv/directory address');
// Twitch's own page tokens, optionally after `N~` when limit cut a page.
const twitchCursor = () => cursor('^(?:[0-9]{1,4}~)?[A-Za-z0-9|:._+/=-]{0,512}$', "Twitch's page token, optionally after N~ (a cut page)", 517);

export const TWITCH = {
  profile: endpoint({
    id: 'twitch.profile',
    title: 'Twitch channel profile',
    summary: "Returns a Twitch channel's profile: name, bio, avatar, followers, partner badge, social links, team, the live stream if it is live, and its next scheduled stream.",
    credits: 1,
    cacheTtlSeconds: 600,
    fields: { channel: channel() },
    required: ['channel'],
    example: { channel: 'xqc' },
    output: rec({ profile: TWITCH_PROFILE }),
  }),
  videos: endpoint({
    id: 'twitch.videos',
    title: 'Twitch channel videos',
    summary: "Returns a page of a Twitch channel's past broadcasts, highlights or uploads, newest or most viewed first, with a cursor.",
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 1800,
    fields: {
      channel: channel(),
      type: choice(['archive', 'highlight', 'upload', 'all'], 'archive'),
      sort: choice(['newest', 'views'], 'newest'),
      limit: limit(1, 100, 30),
      cursor: twitchCursor(),
    },
    required: ['channel'],
    itemsField: 'videos',
    example: { channel: 'twitch', type: 'archive', sort: 'newest', limit: 30 },
    output: rec({ videos: list(TWITCH_VIDEO) }, { cursor: str }),
  }),
  clips: endpoint({
    id: 'twitch.clips',
    title: 'Twitch clips',
    summary: "Returns a page of the most viewed clips of a Twitch channel or of a category within a time window, with a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      channel: channel(),
      category: category(),
      within: within(['day', 'week', 'month', 'all'], 'week'),
      limit: limit(1, 100, 20),
      cursor: twitchCursor(),
    },
    itemsField: 'clips',
    example: { channel: 'xqc', within: 'week', limit: 20 },
    output: rec({ clips: list(TWITCH_CLIP) }, { cursor: str }),
  }),
  schedule: endpoint({
    id: 'twitch.schedule',
    title: 'Twitch stream schedule',
    summary: "Returns a Twitch channel's published stream schedule: each scheduled stream's title, category, start and end, and whether it repeats.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { channel: channel() },
    required: ['channel'],
    example: { channel: 'xqc' },
    output: rec({ channel: PERSON }, { segments: list(TWITCH_SEGMENT) }),
  }),
  video: endpoint({
    id: 'twitch.video',
    title: 'Twitch video',
    summary: 'Returns one Twitch video (by id or address): title, channel, category, length, views and publication time.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { video: text(1, 2048, 'video id or twitch.tv/videos address') },
    required: ['video'],
    example: { video: 'https://www.twitch.tv/videos/2404782496' },
    output: rec({ video: TWITCH_VIDEO }),
  }),
  clip: endpoint({
    id: 'twitch.clip',
    title: 'Twitch clip',
    summary: 'Returns one Twitch clip (by slug or address): title, channel, who clipped it, category, views, length, its source video and a playable MP4 address.',
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { clip: text(1, 2048, 'clip slug or clips.twitch.tv / twitch.tv clip address') },
    required: ['clip'],
    example: { clip: 'https://www.twitch.tv/xqc/clip/UnusualEnchantingSproutGivePLZ-o5o0fw_2qOgZvAag' },
    output: rec({ clip: TWITCH_CLIP }),
  }),
  search: endpoint({
    id: 'twitch.search',
    title: 'Twitch search',
    summary: "Searches Twitch for channels (with their live status), categories or past broadcasts matching a query, as Twitch's search page does.",
    credits: 1,
    cacheTtlSeconds: 1800,
    fields: {
      query: text(1, 200, 'search terms'),
      type: choice(['channels', 'categories', 'videos'], 'channels'),
    },
    required: ['query'],
    example: { query: 'action', type: 'channels' },
    // The asked type's list.
    output: rec({}, { channels: list(TWITCH_PROFILE), categories: list(TWITCH_CATEGORY), videos: list(TWITCH_VIDEO) }),
  }),
  streams: endpoint({
    id: 'twitch.streams',
    title: 'Twitch live streams of a category',
    summary: "Returns a page of the live streams in a Twitch category, by Twitch's relevance, most viewers or newest, with a cursor.",
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 300,
    fields: {
      category: category(),
      sort: choice(['relevance', 'viewers', 'newest'], 'relevance'),
      limit: limit(1, 100, 30),
      cursor: twitchCursor(),
    },
    required: ['category'],
    itemsField: 'streams',
    example: { category: 'just-chatting', sort: 'relevance', limit: 30 },
    output: rec({ streams: list(TWITCH_STREAM) }, { category: TWITCH_CATEGORY, cursor: str }),
  }),
  categories: endpoint({
    id: 'twitch.categories',
    title: 'Twitch top categories',
    summary: 'Returns a page of the categories live on Twitch now, by relevance or viewers, with their viewer counts and tags.',
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 600,
    fields: {
      sort: choice(['relevance', 'viewers'], 'relevance'),
      limit: limit(1, 100, 30),
      cursor: twitchCursor(),
    },
    itemsField: 'categories',
    example: { sort: 'viewers', limit: 30 },
    output: rec({ categories: list(TWITCH_CATEGORY) }, { cursor: str }),
  }),
};
