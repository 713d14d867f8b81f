/** POST /v1/channel and POST /v1/playlist: a channel's tab (or its about data), a playlist's videos. */
import { choice, plainCursor, text } from '../../catalogue/fields.js';
import { paging } from '../format.js';
import { legacyBody, type LegacyPath } from '../types.js';
import { legacyChannel, legacyListVideo, legacyPlaylist, legacyPlaylistItem } from '../youtube-views.js';

const TABS = ['videos', 'shorts', 'live', 'playlists', 'posts', 'about'] as const;

interface ChannelBody {
  channelUrl: string;
  tab: (typeof TABS)[number];
  continuationToken?: string;
}

export const channelPath: LegacyPath<ChannelBody> = {
  name: 'channel',
  summary: 'A YouTube channel and one tab of its items (videos, shorts, live, playlists, posts), or its about data.',
  input: legacyBody(
    {
      channelUrl: text(2, 200, 'the channel: its id, @handle or address'),
      tab: { ...choice(TABS, 'videos'), description: 'the tab to list, or about for the channel’s about data' },
      continuationToken: plainCursor(1, 4096),
    },
    ['channelUrl'],
  ),
  endpoints: ['youtube.channel'],
  fieldNames: { channel: 'channelUrl', cursor: 'continuationToken' },
  route(b) {
    const about = b.tab === 'about';
    return {
      endpoint: 'youtube.channel',
      input: {
        channel: b.channelUrl,
        tab: about ? 'videos' : b.tab,
        ...(about ? { includeAbout: true } : {}),
        ...(b.continuationToken === undefined ? {} : { cursor: b.continuationToken }),
      },
    };
  },
  view(data, b) {
    const about = b.tab === 'about';
    return {
      channel: data.channel ? legacyChannel(data.channel, about) : null,
      tab: b.tab,
      items: about ? [] : (data.items ?? []).map(legacyListVideo),
      ...paging(about ? undefined : data.cursor),
    };
  },
};

interface PlaylistBody {
  playlistUrl: string;
  continuationToken?: string;
}

export const playlistPath: LegacyPath<PlaylistBody> = {
  name: 'playlist',
  summary: 'A YouTube playlist and its videos in order, paged by continuationToken.',
  input: legacyBody(
    { playlistUrl: text(1, 2048, 'the playlist: its id or any address with list='), continuationToken: plainCursor(1, 4096) },
    ['playlistUrl'],
  ),
  endpoints: ['youtube.playlist'],
  fieldNames: { playlist: 'playlistUrl', cursor: 'continuationToken' },
  route: (b) => ({
    endpoint: 'youtube.playlist',
    input: { playlist: b.playlistUrl, ...(b.continuationToken === undefined ? {} : { cursor: b.continuationToken }) },
  }),
  view: (data) => ({
    playlist: data.playlist ? legacyPlaylist(data.playlist) : null,
    items: (data.videos ?? []).map(legacyPlaylistItem),
    continuationToken: paging(data.cursor).continuationToken,
  }),
};
