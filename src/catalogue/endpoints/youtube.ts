import { boolean, choice, country, endpoint, language, limit, list, pattern, plainCursor, text, within } from '../fields.js';
import { bool, int, list as listOf, literal, num, oneOf, rec, str } from '../records.js';
import type { Field } from '../types.js';
import { COMMENT_FIELDS, IMAGE, PERSON, POST_FIELDS, PROFILE_FIELDS, VIDEO_FIELDS } from '../vocabulary.js';

// ---- Records (the shared vocabulary; YouTube's relative texts kept beside the values they could not give) ------------

const THUMBNAILS = listOf(IMAGE);

/** Fields of a video as a list shows it (search results, a channel's tab, related videos, a playlist's entries). */
const VIDEO_ITEM_FIELDS = {
  author: PERSON,
  durationSeconds: VIDEO_FIELDS.durationSeconds,
  durationText: str,
  views: VIDEO_FIELDS.views,
  viewsText: str,
  /** YouTube gives lists relative dates only ("3 years ago"): kept as written, never turned into a guessed date. */
  publishedText: str,
  description: str,
  thumbnails: THUMBNAILS,
  isLive: bool,
  isShort: bool,
  isUpcoming: bool,
  scheduledAt: VIDEO_FIELDS.scheduledAt,
  /** Playlist entries only: the position in the playlist (1-based) and whether it can be played. */
  index: int,
  isPlayable: bool,
};

const PLAYLIST_ITEM_FIELDS = { author: PERSON, videos: int, videosText: str, updatedText: str, thumbnails: THUMBNAILS, firstVideoId: str };
const CHANNEL_ITEM_FIELDS = {
  username: str,
  bio: str,
  avatar: str,
  isVerified: bool,
  followers: int,
  followersText: str,
  videos: int,
  videosText: str,
};
const POST_ITEM_FIELDS = { text: POST_FIELDS.text, likes: POST_FIELDS.likes, comments: POST_FIELDS.comments, images: POST_FIELDS.images, publishedText: str };

/** A video as a list shows it. */
export const YOUTUBE_VIDEO_ITEM = rec({ type: literal('video'), id: str, url: str, title: str }, VIDEO_ITEM_FIELDS);

/**
 * One search result or channel-tab entry: a video, a playlist, a channel or a community post, told apart by `type`.
 * What each kind always has is `type`, `id` and `url`; videos and playlists also a `title`, channels a `name`.
 */
export const YOUTUBE_LIST_ENTRY = rec(
  { type: oneOf(['video', 'playlist', 'channel', 'post'] as const), id: str, url: str },
  { title: str, name: str, ...VIDEO_ITEM_FIELDS, ...PLAYLIST_ITEM_FIELDS, ...CHANNEL_ITEM_FIELDS, ...POST_ITEM_FIELDS },
);

/** `youtube.video`'s video: the watch page's metadata (next) and the player's microformat. */
export const YOUTUBE_VIDEO = rec(
  { type: literal('video'), id: str, url: str, title: str, author: rec({ id: str, name: str }, { username: str, url: str, avatar: str, isVerified: bool }), views: int, publishedAt: str, thumbnails: THUMBNAILS },
  {
    description: VIDEO_FIELDS.description,
    durationSeconds: VIDEO_FIELDS.durationSeconds,
    likes: VIDEO_FIELDS.likes,
    comments: VIDEO_FIELDS.comments,
    uploadedAt: str,
    publishedText: str,
    viewsText: str,
    likesText: str,
    category: VIDEO_FIELDS.category,
    keywords: VIDEO_FIELDS.keywords,
    hashtags: listOf(str),
    isLive: bool,
    isLiveContent: bool,
    isShort: bool,
    isFamilySafe: bool,
    isUnlisted: bool,
    liveStartedAt: str,
    liveEndedAt: str,
    license: str,
    availableCountries: listOf(str),
    embedUrl: str,
  },
);

/** A channel (PROFILE_FIELDS): counts as integers beside YouTube's own texts; `includeAbout` adds the about data. */
export const YOUTUBE_CHANNEL = rec(
  { type: literal('channel'), id: str, url: str, name: str },
  {
    username: PROFILE_FIELDS.username,
    bio: PROFILE_FIELDS.bio,
    avatar: PROFILE_FIELDS.avatar,
    avatars: THUMBNAILS,
    banner: PROFILE_FIELDS.banner,
    banners: THUMBNAILS,
    isVerified: PROFILE_FIELDS.isVerified,
    followers: PROFILE_FIELDS.followers,
    followersText: str,
    videos: int,
    videosText: str,
    views: PROFILE_FIELDS.views,
    viewsText: str,
    /** The day YouTube says the channel joined (about data), YYYY-MM-DD, and its own wording. */
    joinedOn: str,
    joinedText: str,
    country: str,
    links: PROFILE_FIELDS.links,
    keywords: listOf(str),
    rssUrl: str,
    isFamilySafe: bool,
  },
);

/** A top-level comment or a reply (COMMENT_FIELDS); YouTube dates comments only relatively (`publishedText`). */
export const YOUTUBE_COMMENT = rec(
  { type: literal('comment'), id: str, text: str, author: PERSON, likes: int, replies: int },
  {
    url: COMMENT_FIELDS.url,
    publishedText: str,
    likesText: str,
    repliesCursor: COMMENT_FIELDS.repliesCursor,
    parentId: COMMENT_FIELDS.parentId,
    isPinned: COMMENT_FIELDS.isPinned,
    isEdited: COMMENT_FIELDS.isEdited,
    isByAuthor: COMMENT_FIELDS.isByAuthor,
    isHearted: bool,
  },
);

/** A playlist's own details. */
export const YOUTUBE_PLAYLIST = rec(
  { type: literal('playlist'), id: str, url: str, title: str },
  { description: str, author: PERSON, videos: int, videosText: str, views: int, viewsText: str, updatedText: str, thumbnails: THUMBNAILS },
);

/** One caption language a video offers. */
export const YOUTUBE_CAPTION_LANGUAGE = rec({ code: str, name: str }, { isGenerated: bool, isTranslatable: bool });

/** A live-chat message (or a paid message) of a live stream or its replay. */
export const YOUTUBE_CHAT_MESSAGE = rec(
  { type: oneOf(['message', 'paid', 'membership', 'sticker'] as const), id: str, author: PERSON },
  { text: str, createdAt: str, offsetSeconds: num, amountText: str, badges: listOf(str) },
);

/** A YouTube Kids video: a list video plus its address on youtubekids.com. */
export const YOUTUBE_KIDS_VIDEO = rec(
  { type: literal('video'), id: str, url: str, kidsUrl: str, title: str },
  { ...VIDEO_ITEM_FIELDS, keywords: VIDEO_FIELDS.keywords, isLiveContent: bool },
);

/** A YouTube Music item: a song, a video, an album, an artist or a playlist, told apart by `type`. */
export const YOUTUBE_MUSIC_ITEM = rec(
  { type: oneOf(['song', 'video', 'album', 'artist', 'playlist'] as const), id: str, url: str, title: str },
  {
    videoId: str,
    playlistId: str,
    artists: listOf(rec({ name: str }, { id: str, url: str })),
    album: rec({ name: str }, { id: str, url: str }),
    author: PERSON,
    durationSeconds: int,
    durationText: str,
    plays: int,
    playsText: str,
    views: int,
    viewsText: str,
    year: int,
    subtitle: str,
    followers: int,
    followersText: str,
    isExplicit: bool,
    thumbnails: THUMBNAILS,
    index: int,
  },
);

/** A YouTube Music page: an album, an artist or a playlist, with its tracks and shelves. */
export const YOUTUBE_MUSIC_PAGE = rec(
  { type: oneOf(['album', 'artist', 'playlist'] as const), id: str, url: str, title: str },
  {
    subtitle: str,
    description: str,
    artists: listOf(rec({ name: str }, { id: str, url: str })),
    year: int,
    tracks: int,
    durationText: str,
    playlistId: str,
    followers: int,
    followersText: str,
    thumbnails: THUMBNAILS,
    author: PERSON,
  },
);

// SPEC: `video` is "string (id or address)", bounds not stated; chosen 1-2048 (an 11-character id or a full URL).
const video = () => text(1, 2048, 'video id or address');
const WINDOWS = ['hour', 'day', 'week', 'month', 'year', 'all'] as const;
// SPEC gives youtube.search's `language` its own rule (not the shared language tag): 2-3 letters, optionally - or _ and
// 2-4 alphanumerics. A pattern, so the validator does not case-fold it; the source passes it on as given.
const searchLanguage = (): Field<string, true> => ({
  ...(pattern('^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,4})?$', '2-3 letters, optionally followed by - or _ and 2-4 letters or digits (e.g. en, pt-BR)', 8) as Field<string, true>),
  default: 'en',
});

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
      language: searchLanguage(),
      limit: limit(1, 100, 20),
      cursor: plainCursor(1, 4096),
    },
    required: ['query'],
    itemsField: 'results',
    example: { query: 'rust async tutorial', type: 'videos', limit: 10 },
    output: rec({ results: listOf(YOUTUBE_LIST_ENTRY) }, { cursor: str, estimatedResults: int }),
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
    output: rec({ video: YOUTUBE_VIDEO }, { related: listOf(YOUTUBE_LIST_ENTRY) }),
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
    output: rec(
      { video: str, language: str, languageName: str, isGenerated: bool, text: str, languages: listOf(YOUTUBE_CAPTION_LANGUAGE) },
      { translatedFrom: str, segments: listOf(rec({ start: num, duration: num, text: str })) },
    ),
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
    output: rec({ comments: listOf(YOUTUBE_COMMENT) }, { cursor: str, total: int, totalText: str }),
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
    output: rec({ replies: listOf(YOUTUBE_COMMENT) }, { cursor: str }),
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
    output: rec({ tab: str, items: listOf(YOUTUBE_LIST_ENTRY) }, { channel: YOUTUBE_CHANNEL, cursor: str }),
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
    output: rec({ videos: listOf(YOUTUBE_VIDEO_ITEM) }, { playlist: YOUTUBE_PLAYLIST, cursor: str }),
  }),
  // ---- Not in SPEC's catalogue: the operations the legacy paths (/v1/suggest, /v1/video livechat, /v1/music,
  // /v1/kids) need, declared as endpoints of their own so they get the current convention too. Priced like their
  // neighbours: lists like youtube.search, single items like youtube.video.
  suggest: endpoint({
    id: 'youtube.suggest',
    title: 'YouTube search suggestions',
    summary: "Returns YouTube's search suggestions (autocomplete) for the start of a query.",
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 3600,
    fields: { query: text(1, 200, 'the start of a search'), country: country('us'), language: searchLanguage() },
    required: ['query'],
    example: { query: 'how to', country: 'us' },
    output: rec({ query: str, suggestions: listOf(str), country: str, language: str }),
  }),
  livechat: endpoint({
    id: 'youtube.livechat',
    title: 'YouTube live chat',
    summary: "Returns the chat messages of a live stream, or of a finished stream's replay, with a cursor for the next batch.",
    credits: 1,
    cacheTtlSeconds: 30,
    fields: { video: video(), cursor: plainCursor(1, 4096) },
    required: ['video'],
    itemsField: 'messages',
    example: { video: 'jfKfPfyJRdk' },
    output: rec({ video: str, isReplay: bool, messages: listOf(YOUTUBE_CHAT_MESSAGE) }, { cursor: str }),
  }),
  musicSearch: endpoint({
    id: 'youtube.music.search',
    title: 'YouTube Music search',
    summary: 'Searches YouTube Music for songs, videos, albums, artists or playlists.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: {
      query: text(1, 400, 'search terms'),
      type: choice(['songs', 'videos', 'albums', 'artists', 'playlists'], 'songs'),
      limit: limit(1, 100, 20),
      cursor: plainCursor(1, 4096),
    },
    required: ['query'],
    itemsField: 'results',
    example: { query: 'daft punk', type: 'songs', limit: 20 },
    output: rec({ results: listOf(YOUTUBE_MUSIC_ITEM) }, { cursor: str }),
  }),
  musicSuggestions: endpoint({
    id: 'youtube.music.suggestions',
    title: 'YouTube Music search suggestions',
    summary: "Returns YouTube Music's search suggestions for the start of a query (an empty query answers none).",
    credits: 1,
    keyless: true,
    cacheTtlSeconds: 3600,
    // Empty is allowed: YouTube Music itself asks with an empty input, and answers no suggestion (unbilled).
    fields: { query: text(0, 200, 'the start of a search') },
    required: ['query'],
    example: { query: 'daft' },
    output: rec({ query: str, suggestions: listOf(str) }),
  }),
  musicSong: endpoint({
    id: 'youtube.music.song',
    title: 'YouTube Music song',
    summary: "Returns a song's details on YouTube Music: title, artists, album, duration, year and thumbnails.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { song: text(1, 2048, 'song (video) id or music.youtube.com address') },
    required: ['song'],
    example: { song: 'HhQGHxWZCd0' },
    output: rec({ song: YOUTUBE_MUSIC_ITEM }, { lyricsId: str, relatedId: str }),
  }),
  musicLyrics: endpoint({
    id: 'youtube.music.lyrics',
    title: 'YouTube Music lyrics',
    summary: "Returns a song's lyrics as YouTube Music shows them, with their credited source.",
    credits: 1,
    cacheTtlSeconds: 604800,
    fields: { song: text(1, 2048, 'song (video) id or music.youtube.com address') },
    required: ['song'],
    example: { song: 'HhQGHxWZCd0' },
    output: rec({ song: str, lyrics: str }, { source: str }),
  }),
  musicAlbum: endpoint({
    id: 'youtube.music.album',
    title: 'YouTube Music album',
    summary: "Returns an album's details and its tracks on YouTube Music.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { album: text(1, 2048, 'album id (MPREb_…) or music.youtube.com address') },
    required: ['album'],
    itemsField: 'tracks',
    example: { album: 'MPREb_Tr9YVfRfip1' },
    output: rec({ album: YOUTUBE_MUSIC_PAGE, tracks: listOf(YOUTUBE_MUSIC_ITEM) }, { related: listOf(YOUTUBE_MUSIC_ITEM) }),
  }),
  musicArtist: endpoint({
    id: 'youtube.music.artist',
    title: 'YouTube Music artist',
    summary: "Returns an artist's page on YouTube Music: details, top songs, albums, singles, videos and related artists.",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { artist: text(2, 2048, 'artist channel id (UC…) or music.youtube.com address') },
    required: ['artist'],
    example: { artist: 'UCJwGWV914kBlV4dKRn7AEFA' },
    output: rec(
      { artist: YOUTUBE_MUSIC_PAGE, sections: listOf(rec({ title: str, items: listOf(YOUTUBE_MUSIC_ITEM) }, { browseId: str })) },
    ),
  }),
  musicPlaylist: endpoint({
    id: 'youtube.music.playlist',
    title: 'YouTube Music playlist',
    summary: "Returns a YouTube Music playlist's details and its tracks in order.",
    credits: 1,
    perItems: 100,
    cacheTtlSeconds: 3600,
    fields: { playlist: text(1, 2048, 'playlist id or music.youtube.com address'), limit: limit(1, 500, 100), cursor: plainCursor(1, 4096) },
    required: ['playlist'],
    itemsField: 'tracks',
    example: { playlist: 'RDCLAK5uy_kmPRjHDECIcuVwnKsx2Ng7fyNgFKWNJFs' },
    output: rec({ tracks: listOf(YOUTUBE_MUSIC_ITEM) }, { playlist: YOUTUBE_MUSIC_PAGE, cursor: str }),
  }),
  kidsSearch: endpoint({
    id: 'youtube.kids.search',
    title: 'YouTube Kids search',
    summary: 'Searches YouTube Kids and returns the matching videos it allows.',
    credits: 1,
    perItems: 20,
    cacheTtlSeconds: 3600,
    fields: { query: text(1, 400, 'search terms'), limit: limit(1, 100, 20) },
    required: ['query'],
    itemsField: 'results',
    example: { query: 'dinosaurs', limit: 20 },
    output: rec({ results: listOf(YOUTUBE_KIDS_VIDEO) }),
  }),
  kidsVideo: endpoint({
    id: 'youtube.kids.video',
    title: 'YouTube Kids video',
    summary: "Returns a video's details as YouTube Kids serves them (only videos YouTube Kids allows).",
    credits: 1,
    cacheTtlSeconds: 21600,
    fields: { video: video() },
    required: ['video'],
    example: { video: 'dQw4w9WgXcQ' },
    output: rec({ video: YOUTUBE_KIDS_VIDEO }),
  }),
};
