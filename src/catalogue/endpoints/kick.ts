import { choice, cursor, endpoint, limit, text, within } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { MEDIA_VIDEO, PERSON, PROFILE_FIELDS, VIDEO_FIELDS } from '../vocabulary.js';

/** A Kick channel in the shared profile vocabulary (shaped like a Twitch channel): `username` is its slug. */
export const KICK_CHANNEL = rec(
  { type: literal('profile'), id: str, username: str, url: str, followers: int },
  {
    name: PROFILE_FIELDS.name,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    banner: PROFILE_FIELDS.banner,
    isVerified: PROFILE_FIELDS.isVerified,
    links: PROFILE_FIELDS.links,
    isBanned: bool,
    isLive: bool,
    live: rec({ id: str }, { title: str, viewers: int, startedAt: str, category: str, thumbnail: str, language: str, isMature: bool }),
    recentCategories: list(str),
  },
);

/** A clip in the shared video vocabulary, shaped like a Twitch clip: `author` the channel, `clippedBy` who cut it. */
export const KICK_CLIP = rec(
  { type: literal('clip'), id: str, url: str, publishedAt: str, durationSeconds: int, views: int },
  {
    title: VIDEO_FIELDS.title,
    author: VIDEO_FIELDS.author,
    clippedBy: PERSON,
    thumbnails: VIDEO_FIELDS.thumbnails,
    category: VIDEO_FIELDS.category,
    likes: VIDEO_FIELDS.likes,
    isMature: bool,
    video: MEDIA_VIDEO,
  },
);

const channel = () => text(1, 2048, 'channel slug or kick.com address');

export const KICK = {
  channel: endpoint({
    id: 'kick.channel',
    title: 'Kick channel',
    summary: "Returns a Kick channel's profile: name, bio, avatar, followers, verified badge, social links, and its live stream if it is live.",
    credits: 1,
    cacheTtlSeconds: 600,
    fields: { channel: channel() },
    required: ['channel'],
    example: { channel: 'xqc' },
    output: rec({ channel: KICK_CHANNEL }),
  }),
  clips: endpoint({
    id: 'kick.clips',
    title: 'Kick clips',
    summary: "Returns a page of a Kick channel's clips, most viewed or newest, within a time window, with a cursor.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 1800,
    fields: {
      channel: channel(),
      sort: choice(['views', 'newest'], 'views'),
      within: within(['day', 'week', 'month', 'all'], 'all'),
      limit: limit(1, 100, 20),
      cursor: cursor('^(?:[0-9]{1,4}~)?[A-Za-z0-9:._+/=-]{0,512}$', "Kick's page token, optionally after N~ (a cut page)", 517),
    },
    required: ['channel'],
    itemsField: 'clips',
    example: { channel: 'xqc', sort: 'views', within: 'all', limit: 20 },
    output: rec({ clips: list(KICK_CLIP) }, { cursor: str }),
  }),
};
