/**
 * The flows of the YouTube endpoints: which InnerTube requests each makes, in which order, and how pages join. The
 * normalisers (./normalise.ts, ./watch.ts, ./channel.ts) stay pure; ./client.ts is the only way out.
 */
import type { YOUTUBE } from '../../catalogue/endpoints/youtube.js';
import type { InputOf, OutputOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import type { OperationResult, SourceContext } from '../types.js';
import { aboutToken, channelEntries, normaliseAbout, normaliseChannel, normalisePlaylist, playlistEntries } from './channel.js';
import { badCursor, collect, innertube, readCursor, youtubeGet, type Locale } from './client.js';
import { channelRef, playlistId, videoId } from './ids.js';
import { at, listEntries, need, str, type Obj } from './normalise.js';
import { CHANNEL_TAB_PARAMS, playlistFirstPage, PLAYLIST_HEADER_PARAMS, searchParams } from './params.js';
import { captionTracks, commentsHeader, commentsSectionToken, normaliseComments, normaliseVideo, parseTimedText, playability } from './watch.js';

type Run<K extends keyof typeof YOUTUBE> = (input: InputOf<(typeof YOUTUBE)[K]>, ctx: SourceContext) => Promise<OperationResult<OutputOf<(typeof YOUTUBE)[K]>>>;

/** `hl`/`gl` of a search-like call ("pt_BR" → "pt-BR"; country upper case). */
const locale = (language: string, country: string): Locale => ({ hl: language.replace('_', '-'), gl: country.toUpperCase() });

const noSuchVideo = (id: string) => () => new QuarryError('notFound', `video: YouTube has no video ${id}`);

// ---- search ---------------------------------------------------------------------------------------------------------

export const search: Run<'search'> = async (input, ctx) => {
  const params = searchParams(input);
  let estimated: number | undefined;
  const page = await collect(readCursor(input.cursor), input.limit, async (token) => {
    const answer = await innertube(ctx, {
      surface: 'web',
      endpoint: 'search',
      body: token ? { continuation: token } : { query: input.query, params },
      ...locale(input.language, input.country),
      missing: token ? badCursor() : () => new QuarryError('sourceChanged', 'youtube: search answered 400 to a plain query'),
    });
    estimated ??= Number.isFinite(Number(answer.estimatedResults)) ? Number(answer.estimatedResults) : undefined;
    return searchPage(answer);
  });
  return { data: { results: page.items, ...(page.cursor ? { cursor: page.cursor } : {}), ...(estimated !== undefined ? { estimatedResults: estimated } : {}) } };
};

function searchPage(answer: Obj) {
  const first = at(answer, 'contents', 'twoColumnSearchResultsRenderer', 'primaryContents', 'sectionListRenderer', 'contents');
  const later = (answer.onResponseReceivedCommands as unknown[] | undefined)?.flatMap((c) => (at(c, 'appendContinuationItemsAction', 'continuationItems') as unknown[]) ?? []);
  if (!first && !later) throw new QuarryError('sourceChanged', 'youtube: the search answer has no result list');
  return listEntries(first ?? later);
}

// ---- video ----------------------------------------------------------------------------------------------------------

/** The player's metadata only, as the web client asks it (no streams, so no player script or proof token needed). */
const PLAYER_FIELDS = '$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId';

export const video: Run<'video'> = async (input, ctx) => {
  const id = videoId(input.video);
  const watch = { videoId: id, contentCheckOk: true, racyCheckOk: true };
  const [next, player] = await Promise.all([
    innertube(ctx, { surface: 'web', endpoint: 'next', body: watch, missing: noSuchVideo(id) }),
    innertube(ctx, { surface: 'web', endpoint: 'player', body: watch, query: PLAYER_FIELDS, missing: noSuchVideo(id) }),
  ]);
  // An age gate leaves the metadata public: answered from the watch page and the microformat alike.
  playability(player, id);
  const { video: v, related } = normaliseVideo(id, next, player);
  return { data: { video: v, related } };
};

// ---- transcript -----------------------------------------------------------------------------------------------------

export const transcript: Run<'transcript'> = async (input, ctx) => {
  const id = videoId(input.video);
  // The Android client's caption tracks need no proof-of-origin token (the web client's do since 2025).
  const player = await innertube(ctx, { surface: 'android', endpoint: 'player', body: { videoId: id, contentCheckOk: true, racyCheckOk: true }, missing: noSuchVideo(id) });
  const state = playability(player, id);
  if (!state.ok) {
    throw new QuarryError('sourceRefused', `youtube: ${id} is age-restricted ("${state.reason}"); YouTube gives its captions only to signed-in adults`, { retryable: false });
  }
  const { tracks, translations } = captionTracks(player);
  if (!tracks.length) throw new QuarryError('notFound', `video: ${id} has no captions`);
  const languages = tracks.map(({ code, name, isGenerated, isTranslatable }) => ({ code, name, isGenerated, isTranslatable }));
  const wanted = input.language?.toLowerCase();
  const base = (c: string) => c.toLowerCase().split('-')[0];
  let track = wanted ? tracks.find((t) => t.code.toLowerCase() === wanted && !t.isGenerated) ?? tracks.find((t) => t.code.toLowerCase() === wanted) ?? tracks.find((t) => base(t.code) === base(wanted)) : tracks.find((t) => !t.isGenerated) ?? tracks[0];
  let translatedTo: { code: string; name: string } | undefined;
  if (!track && wanted) {
    const target = translations.find((l) => l.code.toLowerCase() === wanted) ?? translations.find((l) => base(l.code) === base(wanted));
    track = tracks.find((t) => t.isTranslatable && !t.isGenerated) ?? tracks.find((t) => t.isTranslatable);
    if (!target || !track) {
      throw new QuarryError('notFound', `language: ${id} has no captions in ${input.language}; it has ${languages.map((l) => l.code).join(', ')}`);
    }
    translatedTo = target;
  }
  const chosen = track!;
  const url = new URL(chosen.baseUrl);
  url.searchParams.delete('fmt'); // the plain timedtext XML
  if (translatedTo) url.searchParams.set('tlang', translatedTo.code);
  const res = await youtubeGet(ctx, url.href, () => new QuarryError('notFound', `video: the caption track of ${id} is gone`));
  const segments = parseTimedText(res.text());
  return {
    data: {
      video: id,
      language: translatedTo?.code ?? chosen.code,
      languageName: translatedTo?.name ?? chosen.name,
      isGenerated: chosen.isGenerated,
      ...(translatedTo ? { translatedFrom: chosen.code } : {}),
      text: segments.map((s) => s.text).join(' '),
      ...(input.includeTimestamps ? { segments } : {}),
      languages,
    },
  };
};

// ---- comments -------------------------------------------------------------------------------------------------------

export const comments: Run<'comments'> = async (input, ctx) => {
  const id = videoId(input.video);
  let total: { total?: number; totalText?: string } = {};
  const next = (token: string, missing = badCursor()) => innertube(ctx, { surface: 'web', endpoint: 'next', body: { continuation: token }, missing });
  const page = await collect(readCursor(input.cursor), input.limit, async (token) => {
    if (token) return normaliseComments(await next(token), id);
    const watch = await innertube(ctx, { surface: 'web', endpoint: 'next', body: { videoId: id }, missing: noSuchVideo(id) });
    const section = commentsSectionToken(watch);
    if (!section) throw new QuarryError('notFound', `video: ${id} has no comments section (comments are off, or the video is not available)`);
    let first = await next(section, noSuchVideo(id));
    const header = commentsHeader(first);
    total = header;
    // Newest first: the sort menu of the first page gives that order's own continuation.
    if (input.sort === 'newest') first = await next(need(header.newest, 'the comments header has no "Newest" sort'), noSuchVideo(id));
    return normaliseComments(first, id);
  });
  return {
    data: {
      comments: page.items,
      ...(page.cursor ? { cursor: page.cursor } : {}),
      ...(total.total !== undefined ? { total: total.total } : {}),
      ...(total.totalText ? { totalText: total.totalText } : {}),
    },
  };
};

export const replies: Run<'commentsReplies'> = async (input, ctx) => {
  const id = videoId(input.video);
  const start = readCursor(input.cursor);
  if (!start.token) throw new QuarryError('invalidRequest', 'cursor: the repliesCursor of a comment is needed');
  const page = await collect(start, input.limit, async (token) => {
    const answer = await innertube(ctx, { surface: 'web', endpoint: 'next', body: { continuation: token! }, missing: badCursor() });
    return normaliseComments(answer, id, parentOf(token!));
  });
  return { data: { replies: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) } };
};

/** The parent comment's id, which a replies continuation carries as "comment-replies-item-<id>". */
function parentOf(token: string): string | undefined {
  try {
    const bytes = Buffer.from(decodeURIComponent(token), 'base64url').toString('latin1');
    return /comment-replies-item-([A-Za-z0-9_-]{10,40})/.exec(bytes)?.[1];
  } catch {
    return undefined;
  }
}

// ---- channel --------------------------------------------------------------------------------------------------------

async function channelBrowseId(ctx: SourceContext, value: string): Promise<string> {
  const ref = channelRef(value);
  if ('browseId' in ref) return ref.browseId;
  const answer = await innertube(ctx, {
    surface: 'web',
    endpoint: 'navigation/resolve_url',
    body: { url: ref.resolve },
    missing: () => new QuarryError('notFound', `channel: YouTube has no channel at ${ref.resolve}`),
  });
  const browseId = str(at(answer, 'endpoint', 'browseEndpoint', 'browseId'));
  if (browseId?.startsWith('UC')) return browseId;
  if (at(answer, 'endpoint', 'urlEndpoint') || at(answer, 'endpoint', 'watchEndpoint')) throw new QuarryError('notFound', `channel: ${value} is not a channel address`);
  throw new QuarryError('sourceChanged', 'youtube: resolve_url answered no browse endpoint');
}

export const channel: Run<'channel'> = async (input, ctx) => {
  if (input.tab === 'search' && !input.query) throw new QuarryError('invalidRequest', 'query: the search tab needs a query');
  const browseId = await channelBrowseId(ctx, input.channel);
  let first: Obj | undefined;
  const missing = () => new QuarryError('notFound', `channel: YouTube has no channel ${browseId}`);
  const page = await collect(readCursor(input.cursor), input.limit, async (token) => {
    if (token) return channelEntries(await innertube(ctx, { surface: 'web', endpoint: 'browse', body: { continuation: token }, missing: badCursor() }));
    first = await innertube(ctx, {
      surface: 'web',
      endpoint: 'browse',
      body: { browseId, params: CHANNEL_TAB_PARAMS[input.tab], ...(input.tab === 'search' ? { query: input.query } : {}) },
      missing,
    });
    return channelEntries(first);
  });
  let record = first ? normaliseChannel(first) : undefined;
  if (record && input.includeAbout) {
    const token = aboutToken(first!);
    if (token) {
      const about = await innertube(ctx, { surface: 'web', endpoint: 'browse', body: { continuation: token }, missing });
      record = { ...record, ...normaliseAbout(about) };
    }
  }
  // A channel's own tabs leave the author out of each entry: it is the channel.
  const own = record && { id: record.id, name: record.name, url: record.url, ...(record.username ? { username: record.username } : {}) };
  const items = own && input.tab !== 'search' ? page.items.map((i) => (i.author || i.type === 'channel' ? i : { ...i, author: own })) : page.items;
  return { data: { tab: input.tab, items, ...(record ? { channel: record } : {}), ...(page.cursor ? { cursor: page.cursor } : {}) } };
};

// ---- playlist -------------------------------------------------------------------------------------------------------

export const playlist: Run<'playlist'> = async (input, ctx) => {
  const listId = playlistId(input.playlist);
  const missing = () => new QuarryError('notFound', `playlist: YouTube has no playlist ${listId}`);
  const cursor = readCursor(input.cursor);
  // The first page: the header (its own small request) and the entries, asked together.
  const header = cursor.token || cursor.skip ? undefined : innertube(ctx, {
    surface: 'web',
    endpoint: 'browse',
    query: '$fields=sidebar,header,microformat,alerts',
    body: { browseId: `VL${listId}`, params: PLAYLIST_HEADER_PARAMS },
    missing,
  });
  header?.catch(() => undefined);
  const page = await collect(cursor, input.limit, async (token) =>
    playlistEntries(await innertube(ctx, { surface: 'web', endpoint: 'browse', body: { continuation: token ?? playlistFirstPage(listId) }, missing: token ? badCursor() : missing })),
  );
  const record = header ? normalisePlaylist(listId, await header) : undefined;
  return { data: { videos: page.items, ...(record ? { playlist: record } : {}), ...(page.cursor ? { cursor: page.cursor } : {}) } };
};
