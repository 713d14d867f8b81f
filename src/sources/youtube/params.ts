/**
 * The protobuf messages YouTube takes as opaque base64 strings: search filters (`params` of `search`), YouTube Music's
 * search-type filter, and the first-page continuation of a playlist. Layouts are the documented ones (youtubei.js's
 * `misc/params.proto`, NewPipe's playlist continuation); encoded here with a dozen lines of protobuf wire format
 * instead of a protobuf runtime. Every string is base64url with its padding percent-encoded, as YouTube's own pages
 * carry them (`EgIQA_ABAQ%3D%3D`).
 */

type Field = [number, number | Uint8Array | string];

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return out;
}

/** A message from its fields in order: numbers are varints, strings and byte arrays length-delimited. */
export function message(fields: Field[]): Uint8Array {
  const out: number[] = [];
  for (const [no, value] of fields) {
    if (typeof value === 'number') {
      out.push(...varint(no * 8), ...varint(value));
    } else {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      out.push(...varint(no * 8 + 2), ...varint(bytes.length), ...bytes);
    }
  }
  return Uint8Array.from(out);
}

export const base64Param = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url').padEnd(Math.ceil(bytes.length / 3) * 4, '=').replace(/=/g, '%3D');

export interface SearchFilters {
  type: 'videos' | 'all' | 'channels' | 'playlists' | 'shorts';
  duration: 'all' | 'short' | 'medium' | 'long';
  within: 'hour' | 'day' | 'week' | 'month' | 'year' | 'all';
  sort: 'relevance' | 'top';
  features: readonly string[];
}

const SORT = { relevance: 0, top: 3 } as const; // 3: by view count
const UPLOAD_DATE = { all: 0, hour: 1, day: 2, week: 3, month: 4, year: 5 } as const;
const TYPE = { all: 0, videos: 1, channels: 2, playlists: 3, shorts: 9 } as const;
// YouTube's 2025 duration buckets: under 3 minutes, 3 to 20 minutes, over 20 minutes.
const DURATION = { all: 0, short: 4, medium: 5, long: 2 } as const;
const FEATURES: Record<string, number> = { hd: 4, subtitles: 5, creativeCommons: 6, '3d': 7, live: 8, '4k': 14, '360': 15, hdr: 25, vr180: 26 };

/**
 * SearchFilter { 1: sort, 2: Filters { 1: uploadDate, 2: type, 3: duration, 4…26: feature flags }, 30: 1 }. Field 30
 * is what yt-dlp and NewPipe add to every search (it keeps result lists from being replaced by an interstitial); the
 * two recorded searches carry it (`EgIQAfABAQ%3D%3D`, `EgIQA_ABAQ%3D%3D`).
 */
export function searchParams(f: SearchFilters): string {
  const filters: Field[] = [];
  if (UPLOAD_DATE[f.within]) filters.push([1, UPLOAD_DATE[f.within]]);
  if (TYPE[f.type]) filters.push([2, TYPE[f.type]]);
  if (DURATION[f.duration]) filters.push([3, DURATION[f.duration]]);
  for (const no of [...new Set(f.features.map((x) => FEATURES[x]).filter((n) => n !== undefined))].sort((a, b) => a - b)) filters.push([no, 1]);
  const outer: Field[] = [];
  if (SORT[f.sort]) outer.push([1, SORT[f.sort]]);
  if (filters.length) outer.push([2, message(filters)]);
  outer.push([30, 1]);
  return base64Param(message(outer));
}

export type MusicSearchType = 'songs' | 'videos' | 'albums' | 'artists' | 'playlists';
const MUSIC_TYPES: MusicSearchType[] = ['songs', 'videos', 'albums', 'artists', 'playlists'];

/**
 * YouTube Music's search filter: { 2: Filters { 17: { 1 song, 2 video, 3 album, 4 artist, 5 playlist, 6: 0 } }, 13: { 2:
 * 4, 5, 3, 10, 9 } }, every flag written out as the site does (the recorded songs filter is
 * `Eg-KAQwIARAAGAAgACgAMABqChAEEAUQAxAKEAk%3D`).
 */
export function musicSearchParams(type: MusicSearchType): string {
  const flags: Field[] = MUSIC_TYPES.map((t, i) => [i + 1, t === type ? 1 : 0] as Field);
  flags.push([6, 0]);
  return base64Param(message([[2, message([[17, message(flags)]])], [13, message([[2, 4], [2, 5], [2, 3], [2, 10], [2, 9]])]]));
}

/**
 * The continuation that asks a playlist's first page of entries (NewPipe's: browse continuation 80226972 { 2: "VL"+id,
 * 3: base64 { 1: 0, 104: { 1: 0 } }, 35: id }), sent alongside a small header request so neither answer is the whole
 * watch page.
 */
export function playlistFirstPage(listId: string): string {
  const inner = message([
    [2, `VL${listId}`],
    [3, base64Param(message([[1, 0], [104, message([[1, 0]])]]))],
    [35, listId],
  ]);
  return base64Param(message([[80226972, inner]]));
}

/** The `params` of the playlist header request (`wgYCCAA%3D`: { 104: { 1: 0 } }). */
export const PLAYLIST_HEADER_PARAMS = base64Param(message([[104, message([[1, 0]])]]));

/** Channel tab params (the tabs' own browseEndpoint.params, as the channel page lists them). */
export const CHANNEL_TAB_PARAMS = {
  videos: 'EgZ2aWRlb3PyBgQKAjoA',
  shorts: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D',
  live: 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D',
  playlists: 'EglwbGF5bGlzdHPyBgQKAkIA',
  posts: 'EgVwb3N0c_IGBAoCSgA%3D',
  search: 'EgZzZWFyY2jyBgQKAloA',
} as const;
