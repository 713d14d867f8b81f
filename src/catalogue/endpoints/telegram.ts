import { cursor, endpoint, limit, text } from '../fields.js';

// SPEC: `channel` bounds not stated; chosen 1-2048 (a @username, a username or a t.me address).
const channel = () => text(1, 2048, 'public channel username or t.me address');

export const TELEGRAM = {
  channel: endpoint({
    id: 'telegram.channel',
    title: 'Telegram channel',
    summary: "Returns a public Telegram channel's title, description, avatar and subscriber count.",
    credits: 1,
    cacheTtlSeconds: 3600,
    fields: { channel: channel() },
    required: ['channel'],
    example: { channel: 'durov' },
  }),
  posts: endpoint({
    id: 'telegram.posts',
    title: 'Telegram channel posts',
    summary: "Returns a page of a public Telegram channel's posts, newest first, with text, media and views.",
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
  }),
  post: endpoint({
    id: 'telegram.post',
    title: 'Telegram post',
    summary: 'Returns one post of a public Telegram channel with its text, media and views.',
    credits: 1,
    cacheTtlSeconds: 600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a t.me/<channel>/<id> address or <channel>/<id>).
      post: text(1, 2048, 'post address, e.g. https://t.me/durov/1'),
    },
    required: ['post'],
    example: { post: 'https://t.me/durov/1' },
  }),
};
