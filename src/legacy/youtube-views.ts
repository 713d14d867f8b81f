/**
 * YouTube records (src/catalogue/endpoints/youtube.ts) seen as SPEC.md's legacy records: the same data, the legacy
 * field names. Where the record has no value the legacy field is null; relative dates stay text (`publishedAtText`),
 * never turned into a guessed `publishedAt`.
 */
import type {
  YOUTUBE_CHANNEL,
  YOUTUBE_CHAT_MESSAGE,
  YOUTUBE_COMMENT,
  YOUTUBE_KIDS_VIDEO,
  YOUTUBE_LIST_ENTRY,
  YOUTUBE_MUSIC_ITEM,
  YOUTUBE_MUSIC_PAGE,
  YOUTUBE_PLAYLIST,
  YOUTUBE_VIDEO,
  YOUTUBE_VIDEO_ITEM,
} from '../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../catalogue/types.js';
import { channelUrlOf, clock, countText, isoDuration, orNull, secondsOf, thumbnails, watchUrl } from './format.js';

type Video = TypeOf<typeof YOUTUBE_VIDEO>;
type Entry = TypeOf<typeof YOUTUBE_LIST_ENTRY>;
type VideoItem = TypeOf<typeof YOUTUBE_VIDEO_ITEM>;
type Channel = TypeOf<typeof YOUTUBE_CHANNEL>;
type Playlist = TypeOf<typeof YOUTUBE_PLAYLIST>;
type Comment = TypeOf<typeof YOUTUBE_COMMENT>;
type ChatMessage = TypeOf<typeof YOUTUBE_CHAT_MESSAGE>;
type MusicItem = TypeOf<typeof YOUTUBE_MUSIC_ITEM>;
type MusicPage = TypeOf<typeof YOUTUBE_MUSIC_PAGE>;
type KidsVideo = TypeOf<typeof YOUTUBE_KIDS_VIDEO>;

const durationOf = (seconds: number | undefined, text: string | undefined) => {
  const sec = seconds ?? secondsOf(text);
  return { duration: isoDuration(sec), durationSec: orNull(sec), durationText: text ?? clock(sec) };
};

/** `data.video` of `/v1/video` type `details`. */
export function legacyVideo(v: Video) {
  return {
    type: 'video',
    id: v.id,
    videoUrl: v.url,
    title: v.title,
    author: v.author.name,
    authorId: v.author.id,
    description: orNull(v.description),
    viewCount: v.views,
    viewCountText: countText(v.viewsText, v.views, 'views'),
    likeCount: orNull(v.likes),
    likeCountText: countText(v.likesText, v.likes, 'likes'),
    durationSec: orNull(v.durationSeconds),
    durationText: clock(v.durationSeconds),
    publishedAt: v.publishedAt,
    tags: v.keywords ?? [],
    isLive: v.isLive ?? false,
    category: orNull(v.category),
    thumbnails: thumbnails(v.thumbnails),
  };
}

/** A video in a list (related videos, search results, a channel's tab, a playlist), in the legacy search-item shape. */
export function legacyListVideo(e: Entry | VideoItem) {
  return {
    type: e.type,
    id: e.id,
    videoUrl: e.type === 'video' ? e.url : null,
    url: e.url,
    title: orNull('title' in e ? e.title : undefined) ?? orNull('name' in e ? e.name : undefined),
    author: orNull(e.author?.name),
    authorId: orNull(e.author?.id),
    description: orNull(e.description),
    ...durationOf(e.durationSeconds, e.durationText),
    isLive: e.isLive ?? false,
    isUpcoming: e.isUpcoming ?? false,
    upcomingAt: orNull(e.scheduledAt),
    isVerified: e.author?.isVerified ?? ('isVerified' in e ? (e.isVerified ?? false) : false),
    viewCount: orNull(e.views),
    viewCountText: countText(e.viewsText, e.views, 'views'),
    publishedAt: null,
    publishedAtText: orNull(e.publishedText),
    thumbnails: thumbnails(e.thumbnails),
  };
}

/** A playlist entry: the list video plus its position and whether it plays. */
export function legacyPlaylistItem(v: VideoItem) {
  return { ...legacyListVideo(v), index: orNull(v.index), isPlayable: v.isPlayable ?? true };
}

export function legacyChannel(c: Channel, withAbout: boolean) {
  return {
    type: 'channel',
    id: c.id,
    url: c.url,
    name: c.name,
    handle: orNull(c.username),
    channelUrl: channelUrlOf(c.id),
    description: orNull(c.bio),
    subscriberCount: orNull(c.followers),
    subscriberCountText: orNull(c.followersText),
    videoCount: orNull(c.videos),
    videoCountText: orNull(c.videosText),
    isVerified: c.isVerified ?? false,
    thumbnails: thumbnails(c.avatars ?? (c.avatar ? [{ url: c.avatar }] : [])),
    banners: thumbnails(c.banners ?? (c.banner ? [{ url: c.banner }] : [])),
    country: orNull(c.country),
    joinedDate: orNull(c.joinedOn),
    viewCount: orNull(c.views),
    viewCountText: orNull(c.viewsText),
    links: withAbout ? (c.links ?? []).map((l) => ({ url: l.url, title: orNull(l.title) })) : null,
  };
}

export function legacyPlaylist(p: Playlist) {
  return {
    type: 'playlist',
    id: p.id,
    playlistUrl: p.url,
    title: p.title,
    author: orNull(p.author?.name),
    authorId: orNull(p.author?.id),
    description: orNull(p.description),
    // SPEC: "videoCount (string or null)": YouTube's own count text.
    videoCount: p.videosText ?? (p.videos === undefined ? null : String(p.videos)),
    thumbnails: thumbnails(p.thumbnails),
  };
}

export function legacyComment(c: Comment) {
  return {
    type: 'comment',
    id: c.id,
    text: c.text,
    author: orNull(c.author.name ?? c.author.username),
    authorId: orNull(c.author.id),
    authorThumbnail: orNull(c.author.avatar),
    isVerified: c.author.isVerified ?? false,
    likeCount: c.likes,
    likeCountText: orNull(c.likesText),
    replyCount: c.replies,
    repliesToken: orNull(c.repliesCursor),
    publishedAtText: orNull(c.publishedText),
    isPinned: c.isPinned ?? false,
    isHearted: c.isHearted ?? false,
    isByAuthor: c.isByAuthor ?? false,
  };
}

export function legacyChatMessage(m: ChatMessage) {
  return {
    type: m.type,
    id: m.id,
    text: orNull(m.text),
    author: orNull(m.author.name),
    authorId: orNull(m.author.id),
    publishedAt: orNull(m.createdAt),
    offsetSec: orNull(m.offsetSeconds),
    amountText: orNull(m.amountText),
    badges: m.badges ?? [],
  };
}

const MUSIC = 'https://music.youtube.com';

/** SPEC's "Music song item" shape, for every kind of music result (songs, videos, albums, artists, playlists). */
export function legacyMusicItem(m: MusicItem) {
  const videoId = m.videoId ?? (m.type === 'song' || m.type === 'video' ? m.id : undefined);
  const artist = m.artists?.find((a) => a.id);
  return {
    type: m.type,
    id: m.id,
    url: m.url,
    videoUrl: videoId ? watchUrl(videoId) : null,
    playlistUrl: m.playlistId ? `${MUSIC}/playlist?list=${m.playlistId}` : null,
    channelUrl: channelUrlOf(m.author?.id ?? artist?.id),
    albumUrl: m.album?.id ? `${MUSIC}/browse/${m.album.id}` : null,
    artistUrl: artist?.id ? `${MUSIC}/channel/${artist.id}` : null,
    title: m.title,
    author: orNull(m.author?.name ?? m.artists?.map((a) => a.name).join(', ')),
    authorId: orNull(m.author?.id ?? artist?.id),
    album: m.album ? { id: orNull(m.album.id), name: m.album.name } : null,
    artists: (m.artists ?? []).map((a) => ({ id: orNull(a.id), name: a.name })),
    ...durationOf(m.durationSeconds, m.durationText),
    isExplicit: m.isExplicit ?? false,
    plays: orNull(m.plays ?? m.views),
    thumbnails: thumbnails(m.thumbnails),
  };
}

/** An album, artist or playlist page as one music item (its header). */
export function legacyMusicPage(p: MusicPage) {
  return {
    type: p.type,
    id: p.id,
    url: p.url,
    title: p.title,
    subtitle: orNull(p.subtitle),
    description: orNull(p.description),
    artists: (p.artists ?? []).map((a) => ({ id: orNull(a.id), name: a.name })),
    year: orNull(p.year),
    trackCount: orNull(p.tracks),
    playlistUrl: p.playlistId ? `${MUSIC}/playlist?list=${p.playlistId}` : null,
    thumbnails: thumbnails(p.thumbnails),
  };
}

/** SPEC's "Kids video item". */
export function legacyKidsVideo(k: KidsVideo) {
  return {
    type: 'video',
    id: k.id,
    url: k.url,
    videoUrl: watchUrl(k.id),
    kidsUrl: k.kidsUrl,
    title: k.title,
    author: orNull(k.author?.name),
    authorId: orNull(k.author?.id),
    authorUrl: orNull(k.author?.url) ?? channelUrlOf(k.author?.id),
    ...durationOf(k.durationSeconds, k.durationText),
    publishedAt: null,
    publishedAtText: orNull(k.publishedText),
    viewCount: orNull(k.views),
    viewCountText: countText(k.viewsText, k.views, 'views'),
    thumbnails: thumbnails(k.thumbnails),
  };
}
