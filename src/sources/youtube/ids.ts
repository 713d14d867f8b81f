/**
 * What callers may send for a video, a channel or a playlist: the platform's id, or any of its address forms. A value
 * that names none is the caller's mistake (400 naming the field), never sent upstream.
 */
import { QuarryError } from '../../errors.js';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const PLAYLIST_ID = /^[A-Za-z0-9_-]{10,64}$/;
const HANDLE = /^@[\p{L}\p{N}._-]{2,100}$/u;
const YOUTUBE_HOSTS = /^(?:(?:www|m|music|gaming)\.)?youtube\.com$|^youtube-nocookie\.com$|^www\.youtube-nocookie\.com$|^youtu\.be$|^(?:www\.)?youtubekids\.com$/i;

const invalid = (field: string, what: string): QuarryError => new QuarryError('invalidRequest', `${field}: ${what}`);

/** A YouTube address, or undefined when the value is not an address of a YouTube host. */
function youtubeUrl(value: string): URL | undefined {
  const raw = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : /^(?:[\w-]+\.)*(?:youtube\.com|youtu\.be|youtubekids\.com|youtube-nocookie\.com)\//i.test(value) ? `https://${value}` : '';
  if (!raw || !URL.canParse(raw)) return undefined;
  const url = new URL(raw);
  return YOUTUBE_HOSTS.test(url.hostname) ? url : undefined;
}

/** A video id from an id or an address: watch?v=, youtu.be/, shorts/, embed/, live/, v/, on any YouTube host. */
export function videoId(value: string, field = 'video'): string {
  const v = value.trim();
  if (VIDEO_ID.test(v)) return v;
  const url = youtubeUrl(v);
  if (!url) throw invalid(field, 'not a YouTube video id (11 characters) or address');
  const fromQuery = url.searchParams.get('v');
  if (fromQuery && VIDEO_ID.test(fromQuery)) return fromQuery;
  const segments = url.pathname.split('/').filter(Boolean);
  const candidate = url.hostname.toLowerCase() === 'youtu.be' ? segments[0] : ['shorts', 'embed', 'live', 'v', 'e', 'watch'].includes(segments[0]) ? segments[1] : undefined;
  if (candidate && VIDEO_ID.test(candidate)) return candidate;
  throw invalid(field, 'this address names no YouTube video');
}

/** A channel reference: a `UC…` id needs no lookup; anything else is an address YouTube resolves. */
export type ChannelRef = { browseId: string } | { resolve: string };

export function channelRef(value: string, field = 'channel'): ChannelRef {
  const v = value.trim();
  if (CHANNEL_ID.test(v)) return { browseId: v };
  if (HANDLE.test(v)) return { resolve: `https://www.youtube.com/${encodeURI(v)}` };
  const url = youtubeUrl(v);
  if (!url) throw invalid(field, 'not a channel id (UC…), @handle or YouTube channel address');
  const [first, second] = url.pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  if (first === 'channel' && second && CHANNEL_ID.test(second)) return { browseId: second };
  if (first?.startsWith('@') && HANDLE.test(first)) return { resolve: `https://www.youtube.com/${encodeURI(first)}` };
  if ((first === 'c' || first === 'user') && second && /^[\p{L}\p{N}._-]{1,100}$/u.test(second)) {
    return { resolve: `https://www.youtube.com/${first}/${encodeURIComponent(second)}` };
  }
  if (first && !second && /^[\p{L}\p{N}._-]{1,100}$/u.test(first) && !['watch', 'playlist', 'results', 'feed'].includes(first)) {
    return { resolve: `https://www.youtube.com/${encodeURIComponent(first)}` };
  }
  throw invalid(field, 'this address names no YouTube channel');
}

/** A playlist id from an id or any address carrying `list=`. */
export function playlistId(value: string, field = 'playlist'): string {
  const v = value.trim();
  if (PLAYLIST_ID.test(v)) return v.startsWith('VL') && v.length > 12 ? v.slice(2) : v;
  const url = youtubeUrl(v);
  const list = url?.searchParams.get('list');
  if (list && PLAYLIST_ID.test(list)) return list;
  if (url?.pathname.startsWith('/browse/VL') && PLAYLIST_ID.test(url.pathname.slice(10))) return url.pathname.slice(10);
  throw invalid(field, 'not a YouTube playlist id or an address with list=');
}

/** A YouTube Music browse id of one kind (album MPREb_…, artist UC…), from the id or its music.youtube.com address. */
export function musicBrowseId(value: string, field: string, prefix: RegExp, what: string): string {
  const v = value.trim();
  if (prefix.test(v)) return v;
  const url = youtubeUrl(v);
  const last = url?.pathname.split('/').filter(Boolean).pop();
  if (last && prefix.test(last)) return last;
  throw invalid(field, `not a YouTube Music ${what} id or address`);
}

export const ALBUM_ID = /^MPREb_[A-Za-z0-9_-]{5,40}$/;
export { CHANNEL_ID };
