import { boolean, choice, country, endpoint, language, limit, list, pattern, plainCursor, text, within } from '../fields.js';

// SPEC: `video` is "string (id or address)", bounds not stated; chosen 1-2048 (an 11-character id or a full URL).
const video = () => text(1, 2048, 'video id or address');
const WINDOWS = ['hour', 'day', 'week', 'month', 'year', 'all'] as const;

export const YOUTUBE = {
  search: endpoint({
    id: 'youtube.search',
    title: 'YouTube search',
    summary: 'Searches YouTube and returns matching videos, channels, playlists or shorts with their basic metadata.',
    credits: 1,
    keyless: true,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: {
      query: text(1, 400, 'search terms'),
      type: choice(['videos', 'all', 'channels', 'playlists', 'shorts'], 'videos'),
      duration: choice(['all', 'short', 'medium', 'long'], 'all'),
      within: within(WINDOWS, 'all'),
      sort: choice(['relevance', 'top'], 'relevance'),
      features: list(
        choice(['360', 'live', '4k', 'hd', 'subtitles', 'creativeCommons', 'vr180', '3d', 'hdr']),
        9,
        [],
      ),
      country: country('us'),
      // SPEC gives this field its own rule (not the shared language tag): 2-3 letters, optionally - or _ and 2-4
      // alphanumerics. A pattern, so the validator does not case-fold it; the source passes it on as given.
      language: {
        ...pattern(
          '^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,4})?$',
          '2-3 letters, optionally followed by - or _ and 2-4 letters or digits (e.g. en, pt-BR)',
          8,
        ),
        default: 'en',
      },
      limit: limit(1, 100, 20),
      cursor: plainCursor(1, 4096),
    },
    required: ['query'],
    itemsField: 'results',
    example: { query: 'rust async tutorial', type: 'videos', limit: 10 },
  }),
  video: endpoint({
    id: 'youtube.video',
    title: 'YouTube video',
    summary: "Returns a YouTube video's details: title, channel, description, duration, views, likes and publish date.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { video: video() },
    required: ['video'],
    example: { video: 'dQw4w9WgXcQ' },
  }),
  transcript: endpoint({
    id: 'youtube.transcript',
    title: 'YouTube transcript',
    summary: "Returns a YouTube video's captions as text, optionally with timestamps.",
    credits: 3,
    keyless: true,
    cacheTtlSeconds: 604800,
    fields: {
      video: video(),
      language: language(),
      includeTimestamps: boolean(false),
    },
    required: ['video'],
    example: { video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', language: 'en', includeTimestamps: true },
  }),
  comments: endpoint({
    id: 'youtube.comments',
    title: 'YouTube comments',
    summary: "Returns a YouTube video's top-level comments with author, text, likes and reply count.",
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 600,
    fields: {
      video: video(),
      sort: choice(['top', 'newest'], 'top'),
      limit: limit(1, 200, 20),
      cursor: plainCursor(1, 4096),
    },
    required: ['video'],
    itemsField: 'comments',
    example: { video: 'dQw4w9WgXcQ', sort: 'newest', limit: 20 },
  }),
  commentsReplies: endpoint({
    id: 'youtube.comments.replies',
    title: 'YouTube comment replies',
    summary: 'Returns the replies to one YouTube comment; the cursor is the replies cursor of that comment.',
    credits: 1,
    perItems: 10,
    cacheTtlSeconds: 600,
    fields: {
      video: video(),
      cursor: plainCursor(1, 4096),
      limit: limit(1, 100, 10),
    },
    required: ['video', 'cursor'],
    itemsField: 'replies',
    example: { video: 'dQw4w9WgXcQ', cursor: 'Eg0SC2RRdzR3OVdnWGNRGAYyJSIRIgtkUXc0dzlXZ1hjUTAAeAJCEGNvbW1lbnRzLXNlY3Rpb24', limit: 10 },
  }),
  channel: endpoint({
    id: 'youtube.channel',
    title: 'YouTube channel',
    summary: "Returns a YouTube channel's profile and the items of one of its tabs (videos, shorts, live, playlists, posts or a search).",
    credits: 1,
    perItems: 30,
    cacheTtlSeconds: 3600,
    fields: {
      channel: text(2, 200, 'channel id, @handle or address'),
      tab: choice(['videos', 'shorts', 'live', 'playlists', 'posts', 'search'], 'videos'),
      query: text(1, 200, 'search terms, for the search tab'),
      includeAbout: boolean(false),
      limit: limit(1, 150, 30),
      // SPEC: cursor rule not stated; chosen like the other cursors of this source, 1-4096 characters.
      cursor: plainCursor(1, 4096),
    },
    required: ['channel'],
    itemsField: 'items',
    example: { channel: '@veritasium', tab: 'videos', limit: 30 },
  }),
  playlist: endpoint({
    id: 'youtube.playlist',
    title: 'YouTube playlist',
    summary: "Returns a YouTube playlist's details and its videos in order.",
    credits: 1,
    perItems: 100,
    cacheTtlSeconds: 3600,
    fields: {
      // SPEC: bounds not stated; chosen 1-2048 (a playlist id or a full URL).
      playlist: text(1, 2048, 'playlist id or address'),
      limit: limit(1, 500, 100),
      // SPEC: cursor rule not stated; chosen like the other cursors of this source, 1-4096 characters.
      cursor: plainCursor(1, 4096),
    },
    required: ['playlist'],
    itemsField: 'videos',
    example: { playlist: 'PLRqwX-V7Uu6ZiZxtDDRCi6uhfTH4FilpH', limit: 50 },
  }),
};
