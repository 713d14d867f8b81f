/**
 * The flows of the operations the legacy paths need beside SPEC's seven: suggestions, live chat, YouTube Music and
 * YouTube Kids. Same client, same cursor rules as ./operations.ts.
 */
import type { YOUTUBE } from '../../catalogue/endpoints/youtube.js';
import type { InputOf, OutputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import type { OperationResult, SourceContext } from '../types.js';
import { chatPage, chatStart } from './chat.js';
import { badCursor, collect, innertube, readCursor, youtubeGet } from './client.js';
import { ALBUM_ID, CHANNEL_ID, musicBrowseId, playlistId, videoId } from './ids.js';
import { kidsSearch, kidsVideo } from './kids.js';
import { musicPlaylistPage, musicSearchPage, musicSuggestions, normaliseAlbum, normaliseArtist, normaliseLyrics, normaliseSong, type MusicPage } from './music.js';
import { arr, str } from './normalise.js';
import { musicSearchParams } from './params.js';

type Run<K extends keyof typeof YOUTUBE> = (input: InputOf<(typeof YOUTUBE)[K]>, ctx: SourceContext) => Promise<OperationResult<OutputOf<(typeof YOUTUBE)[K]>>>;

// ---- suggestions ----------------------------------------------------------------------------------------------------

export const suggest: Run<'suggest'> = async (input, ctx) => {
  const gl = input.country.toUpperCase();
  const hl = input.language.replace('_', '-');
  const q = new URLSearchParams({ client: 'youtube', ds: 'yt', hl, gl, q: input.query, xhr: 't' });
  const res = await youtubeGet(ctx, `https://suggestqueries-clients6.youtube.com/complete/search?${q}`, () => new QuarryError('sourceChanged', 'youtube: the suggestion service answered 404'));
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    throw new QuarryError('sourceChanged', 'youtube: the suggestions are not JSON (xhr=t answers JSON)');
  }
  if (!Array.isArray(body) || !Array.isArray(body[1])) throw new QuarryError('sourceChanged', 'youtube: the suggestions are not [query, [[text, …]]]');
  const suggestions = arr(body[1]).flatMap((s) => (Array.isArray(s) && typeof s[0] === 'string' ? [s[0]] : typeof s === 'string' ? [s] : []));
  return { data: { query: input.query, suggestions, country: input.country, language: input.language }, ...(suggestions.length ? {} : { free: true }) };
};

// ---- live chat ------------------------------------------------------------------------------------------------------

/** A chat cursor says which endpoint continues it: `live.<token>` or `replay.<token>`. */
function readChatCursor(cursor: string): { token: string; isReplay: boolean } {
  const m = /^(live|replay)\.([A-Za-z0-9_\-%=.]{1,4000})$/.exec(cursor);
  if (!m) throw new QuarryError('invalidRequest', 'cursor: not a cursor this endpoint gave');
  return { token: m[2], isReplay: m[1] === 'replay' };
}

export const livechat: Run<'livechat'> = async (input, ctx) => {
  const id = videoId(input.video);
  let start = input.cursor ? readChatCursor(input.cursor) : undefined;
  if (!start) {
    const next = await innertube(ctx, { surface: 'web', endpoint: 'next', body: { videoId: id, contentCheckOk: true, racyCheckOk: true }, missing: () => new QuarryError('notFound', `video: YouTube has no video ${id}`) });
    start = chatStart(next);
    if (!start) throw new QuarryError('notFound', `video: ${id} has no live chat (not a stream, or its chat is off)`);
  }
  const answer = await innertube(ctx, {
    surface: 'web',
    endpoint: start.isReplay ? 'live_chat/get_live_chat_replay' : 'live_chat/get_live_chat',
    body: { continuation: start.token },
    missing: input.cursor ? badCursor() : () => new QuarryError('notFound', `video: the chat of ${id} is not available`),
  });
  const page = chatPage(answer);
  const cursor = page.token ? `${start.isReplay ? 'replay' : 'live'}.${page.token}` : undefined;
  return { data: { video: id, isReplay: start.isReplay, messages: page.messages, ...(cursor ? { cursor } : {}) }, ...(page.messages.length ? {} : { free: true }) };
};

// ---- YouTube Music ----------------------------------------------------------------------------------------------------

const SEARCH_KIND = { songs: 'song', videos: 'video', albums: 'album', artists: 'artist', playlists: 'playlist' } as const;

export const musicSearch: Run<'musicSearch'> = async (input, ctx) => {
  const params = musicSearchParams(input.type);
  const page = await collect(readCursor(input.cursor), input.limit, async (token) => {
    const answer = await innertube(ctx, {
      surface: 'music',
      endpoint: 'search',
      // YouTube Music pages a search with the token in the query (its web client's own `ctoken` form), sent as given.
      ...(token ? { query: `ctoken=${token}&continuation=${token}&type=next`, body: {} } : { body: { query: input.query, params } }),
      missing: token ? badCursor() : () => new QuarryError('sourceChanged', 'youtube: music search answered 400 to a plain query'),
    });
    return musicSearchPage(answer, SEARCH_KIND[input.type]);
  });
  return { data: { results: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) } };
};

export const musicSuggestionsOp: Run<'musicSuggestions'> = async (input, ctx) => {
  const answer = await innertube(ctx, { surface: 'music', endpoint: 'music/get_search_suggestions', body: { input: input.query }, missing: () => new QuarryError('sourceChanged', 'youtube: music suggestions answered 400') });
  const suggestions = musicSuggestions(answer);
  return { data: { query: input.query, suggestions }, ...(suggestions.length ? {} : { free: true }) };
};

async function musicWatch(ctx: SourceContext, song: string) {
  const id = videoId(song, 'song');
  const answer = await innertube(ctx, {
    surface: 'music',
    endpoint: 'next',
    body: { videoId: id, isAudioOnly: true, enablePersistentPlaylistPanel: true },
    missing: () => new QuarryError('notFound', `song: YouTube Music has no song ${id}`),
  });
  return { id, ...normaliseSong(id, answer) };
}

export const musicSong: Run<'musicSong'> = async (input, ctx) => {
  const { song, lyricsId, relatedId } = await musicWatch(ctx, input.song);
  return { data: { song, ...(lyricsId ? { lyricsId } : {}), ...(relatedId ? { relatedId } : {}) } };
};

export const musicLyrics: Run<'musicLyrics'> = async (input, ctx) => {
  const { id, lyricsId } = await musicWatch(ctx, input.song);
  if (!lyricsId) throw new QuarryError('notFound', `song: YouTube Music has no lyrics for ${id}`);
  const answer = await innertube(ctx, { surface: 'music', endpoint: 'browse', body: { browseId: lyricsId }, missing: () => new QuarryError('notFound', `song: YouTube Music has no lyrics for ${id}`) });
  const lyrics = normaliseLyrics(answer);
  if (!lyrics) throw new QuarryError('notFound', `song: YouTube Music has no lyrics for ${id}`);
  return { data: { song: id, ...lyrics } };
};

export const musicAlbum: Run<'musicAlbum'> = async (input, ctx) => {
  const id = musicBrowseId(input.album, 'album', ALBUM_ID, 'album');
  const answer = await innertube(ctx, { surface: 'music', endpoint: 'browse', body: { browseId: id }, missing: () => new QuarryError('notFound', `album: YouTube Music has no album ${id}`) });
  const { album, tracks, related } = normaliseAlbum(id, answer);
  return { data: { album, tracks, ...(related.length ? { related } : {}) } };
};

export const musicArtist: Run<'musicArtist'> = async (input, ctx) => {
  const id = musicBrowseId(input.artist, 'artist', CHANNEL_ID, 'artist');
  const answer = await innertube(ctx, { surface: 'music', endpoint: 'browse', body: { browseId: id }, missing: () => new QuarryError('notFound', `artist: YouTube Music has no artist ${id}`) });
  return { data: normaliseArtist(id, answer) };
};

export const musicPlaylist: Run<'musicPlaylist'> = async (input, ctx) => {
  const id = playlistId(input.playlist);
  let record: MusicPage | undefined;
  const page = await collect(readCursor(input.cursor), input.limit, async (token) => {
    const answer = await innertube(ctx, {
      surface: 'music',
      endpoint: 'browse',
      body: token ? { continuation: token } : { browseId: `VL${id}` },
      missing: token ? badCursor() : () => new QuarryError('notFound', `playlist: YouTube Music has no playlist ${id}`),
    });
    const p = musicPlaylistPage(id, answer);
    record ??= p.playlist;
    return p;
  });
  return { data: { tracks: page.items, ...(record ? { playlist: record } : {}), ...(page.cursor ? { cursor: page.cursor } : {}) } };
};

// ---- YouTube Kids -----------------------------------------------------------------------------------------------------

export const kidsSearchOp: Run<'kidsSearch'> = async (input, ctx) => {
  const answer = await innertube(ctx, { surface: 'kids', endpoint: 'search', body: { query: input.query }, missing: () => new QuarryError('sourceChanged', 'youtube: YouTube Kids search answered 400') });
  const results = kidsSearch(answer).slice(0, input.limit);
  return { data: { results } };
};

export const kidsVideoOp: Run<'kidsVideo'> = async (input, ctx) => {
  const id = videoId(input.video);
  const player = await innertube(ctx, { surface: 'kids', endpoint: 'player', body: { videoId: id, contentCheckOk: true, racyCheckOk: true }, missing: () => new QuarryError('notFound', `video: ${id} is not on YouTube Kids`) });
  const status = str((player.playabilityStatus as { status?: unknown } | undefined)?.status);
  if (status && status !== 'OK' && !player.videoDetails) throw new QuarryError('notFound', `video: ${id} is not on YouTube Kids (${status})`);
  return { data: { video: kidsVideo(id, player) } };
};
