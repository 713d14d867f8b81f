import { cursor, endpoint, limit, text } from '../fields.js';
import { bool, int, list, literal, rec, str } from '../records.js';
import { PERSON, POST_FIELDS, PROFILE_FIELDS } from '../vocabulary.js';

// SPEC: `channel` bounds not stated; chosen 1-2048 (a @username, a username or a t.me address).
const channel = () => text(1, 2048, 'public channel username or t.me address');

/**
 * A public channel, in the shared profile vocabulary: its title is `name`, its description `bio`, its subscribers
 * `followers`; the counts of photos, videos, files and links its page shows are Telegram's own.
 */
export const MESSAGING_CHANNEL = rec(
  { type: literal('channel'), id: str, url: str, username: str, name: str, followers: int },
  {
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    isVerified: PROFILE_FIELDS.isVerified,
    photos: int,
    videos: int,
    files: int,
    links: int,
  },
);

/**
 * A channel post in the shared post vocabulary (shaped like the forum and microblog posts where the data allows):
 * the channel is its `author`, a forward names its origin in `repostOf`, a reply the post answered in `replyTo`.
 * Telegram's own: emoji `reactions` and a voice note as `audio`.
 */
export const MESSAGING_POST = rec(
  { type: literal('post'), id: str, url: str, createdAt: str, views: int, author: PERSON },
  {
    text: POST_FIELDS.text,
    isVideo: POST_FIELDS.isVideo,
    hashtags: POST_FIELDS.hashtags,
    mentions: POST_FIELDS.mentions,
    link: POST_FIELDS.link,
    images: POST_FIELDS.images,
    video: POST_FIELDS.video,
    audio: rec({}, { url: str, durationSeconds: int, isVoice: bool }),
    /** A poll: its question, options with the share of votes, and the number of voters. */
    poll: rec(
      { options: list(rec({ text: str }, { percent: int })) },
      { question: str, totalVotes: int, isAnonymous: bool, isClosed: bool },
    ),
    repostOf: POST_FIELDS.repostOf,
    replyTo: POST_FIELDS.replyTo,
    reactions: list(rec({ count: int }, { emoji: str, customEmojiId: str, isPaid: bool })),
  },
);

export const TELEGRAM = {
  channel: endpoint({
    id: 'telegram.channel',
    title: 'Telegram channel',
    summary:
      "Returns a public Telegram channel's title, username, description, avatar, verified badge and counts of subscribers, photos, videos, files and links.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { channel: channel() },
    required: ['channel'],
    example: { channel: 'durov' },
    output: rec({ channel: MESSAGING_CHANNEL }),
  }),
  posts: endpoint({
    id: 'telegram.posts',
    title: 'Telegram channel posts',
    summary:
      "Returns a page of a public Telegram channel's posts, newest first, with text, media, views, reactions and forwards, and a cursor for older posts.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 600,
    fields: {
      channel: channel(),
      limit: limit(1, 200, 20),
      cursor: cursor('^[1-9][0-9]{0,9}$', 'a positive integer of up to 10 digits, no leading zero, as a string', 10),
    },
    required: ['channel'],
    itemsField: 'posts',
    example: { channel: 'durov', limit: 20 },
    output: rec({ channel: MESSAGING_CHANNEL }, { posts: list(MESSAGING_POST), cursor: str }),
  }),
  post: endpoint({
    id: 'telegram.post',
    title: 'Telegram post',
    summary: 'Returns one post of a public Telegram channel (by its t.me address) with its text, media, views and reactions.',
    credits: 1,
    cacheTtlSeconds: 600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a t.me/<channel>/<id> address or <channel>/<id>).
      post: text(1, 2048, 'post address, e.g. https://t.me/durov/1'),
    },
    required: ['post'],
    example: { post: 'https://t.me/durov/1' },
    output: rec({ post: MESSAGING_POST }),
  }),
};
