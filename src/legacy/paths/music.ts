/** POST /v1/music (YouTube Music) and POST /v1/kids (YouTube Kids): `type` picks the operation. */
import { choice, plainCursor, text } from '../../catalogue/fields.js';
import { paging } from '../format.js';
import { legacyBody, requiredFor, type LegacyCall, type LegacyPath } from '../types.js';
import { legacyKidsVideo, legacyMusicItem, legacyMusicPage } from '../youtube-views.js';

const MUSIC_TYPES = ['search', 'suggestions', 'song', 'lyrics', 'album', 'artist', 'playlist'] as const;
type MusicType = (typeof MUSIC_TYPES)[number];

interface MusicBody {
  type: MusicType;
  q?: string;
  searchType: 'songs' | 'videos' | 'albums' | 'artists' | 'playlists';
  id?: string;
  continuationToken?: string;
}

/** What an empty answer means, in the legacy `empty` object (null when there are items). */
function empty(items: unknown[], what: string): { code: string; message: string } | null {
  return items.length ? null : { code: 'NO_RESULTS', message: `YouTube Music answered no ${what}.` };
}

const need = (b: MusicBody, field: 'q' | 'id'): string => {
  const v = b[field];
  if (v === undefined) throw requiredFor(field, b.type);
  return v;
};

export const musicPath: LegacyPath<MusicBody> = {
  name: 'music',
  summary: 'YouTube Music: search (songs, videos, albums, artists, playlists), suggestions, a song, its lyrics, an album, an artist or a playlist (`type`).',
  input: legacyBody({
    type: { ...choice(MUSIC_TYPES, 'search'), description: 'search, suggestions, song, lyrics, album, artist or playlist' },
    // Empty is allowed for suggestions (YouTube Music itself asks with an empty input); search needs 1+ characters.
    q: text(0, 400, 'search and suggestions: the query'),
    searchType: { ...choice(['songs', 'videos', 'albums', 'artists', 'playlists'], 'songs'), description: 'search: what to find' },
    id: text(1, 2048, 'song, lyrics: a video id; album: MPREb_…; artist: UC…; playlist: a playlist id (or an address of each)'),
    continuationToken: plainCursor(1, 4096),
  }),
  endpoints: [
    'youtube.music.search',
    'youtube.music.suggestions',
    'youtube.music.song',
    'youtube.music.lyrics',
    'youtube.music.album',
    'youtube.music.artist',
    'youtube.music.playlist',
  ],
  fieldNames: { query: 'q', type: 'searchType', song: 'id', album: 'id', artist: 'id', playlist: 'id', cursor: 'continuationToken' },
  route(b): LegacyCall {
    const cursor = b.continuationToken === undefined ? {} : { cursor: b.continuationToken };
    switch (b.type) {
      case 'search':
        return { endpoint: 'youtube.music.search', input: { query: need(b, 'q'), type: b.searchType, ...cursor } };
      case 'suggestions':
        return { endpoint: 'youtube.music.suggestions', input: { query: need(b, 'q') } };
      case 'song':
        return { endpoint: 'youtube.music.song', input: { song: need(b, 'id') } };
      case 'lyrics':
        return { endpoint: 'youtube.music.lyrics', input: { song: need(b, 'id') } };
      case 'album':
        return { endpoint: 'youtube.music.album', input: { album: need(b, 'id') } };
      case 'artist':
        return { endpoint: 'youtube.music.artist', input: { artist: need(b, 'id') } };
      case 'playlist':
        return { endpoint: 'youtube.music.playlist', input: { playlist: need(b, 'id'), ...cursor } };
    }
  },
  view(data, b) {
    switch (b.type) {
      case 'search': {
        const items = (data.results ?? []).map(legacyMusicItem);
        return { items, ...paging(data.cursor), empty: empty(items, 'results') };
      }
      case 'suggestions': {
        const items = (data.suggestions ?? []).map((s: string) => ({ type: 'suggestion', text: s }));
        return { items, ...paging(undefined), empty: empty(items, 'suggestions') };
      }
      case 'song':
        return { items: [legacyMusicItem(data.song)], ...paging(undefined), empty: null };
      case 'lyrics':
        return { items: [{ type: 'lyrics', id: data.song, lyrics: data.lyrics, source: data.source ?? null }], ...paging(undefined), empty: null };
      case 'album': {
        const items = (data.tracks ?? []).map(legacyMusicItem);
        return { album: legacyMusicPage(data.album), items, ...paging(undefined), empty: empty(items, 'tracks') };
      }
      case 'artist': {
        const items = (data.sections ?? []).flatMap((s: { title: string; items: unknown[] }) =>
          (s.items ?? []).map((i) => ({ ...legacyMusicItem(i as never), section: s.title })),
        );
        return { artist: legacyMusicPage(data.artist), items, ...paging(undefined), empty: empty(items, 'items') };
      }
      case 'playlist': {
        const items = (data.tracks ?? []).map(legacyMusicItem);
        return { playlist: data.playlist ? legacyMusicPage(data.playlist) : null, items, ...paging(data.cursor), empty: empty(items, 'tracks') };
      }
    }
  },
};

interface KidsBody {
  type: 'search' | 'video';
  q?: string;
  videoUrl?: string;
}

export const kidsPath: LegacyPath<KidsBody> = {
  name: 'kids',
  summary: 'YouTube Kids: search, or one video’s details (`type`).',
  input: legacyBody({
    type: { ...choice(['search', 'video'], 'search'), description: 'search, or video for one video’s details' },
    q: text(1, 400, 'search: the query'),
    videoUrl: text(1, 2048, 'video: its id or address'),
  }),
  endpoints: ['youtube.kids.search', 'youtube.kids.video'],
  fieldNames: { query: 'q', video: 'videoUrl' },
  route(b) {
    if (b.type === 'search') {
      if (b.q === undefined) throw requiredFor('q', 'search');
      return { endpoint: 'youtube.kids.search', input: { query: b.q } };
    }
    if (b.videoUrl === undefined) throw requiredFor('videoUrl', 'video');
    return { endpoint: 'youtube.kids.video', input: { video: b.videoUrl } };
  },
  view(data, b) {
    const items = b.type === 'search' ? (data.results ?? []).map(legacyKidsVideo) : [legacyKidsVideo(data.video)];
    return { items, continuationToken: null, hasMore: false, empty: items.length ? null : { code: 'NO_RESULTS', message: 'YouTube Kids answered no videos.' } };
  },
};
