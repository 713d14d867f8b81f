/**
 * YouTube Music's answers (client WEB_REMIX on music.youtube.com) → records. Music lists are
 * `musicResponsiveListItemRenderer` rows (flex columns of runs) and `musicTwoRowItemRenderer` cards; what an item is
 * comes from where its runs lead (a watch endpoint is a song or video, `MPREb_` an album, `UC` an artist, `VL` a
 * playlist). Pure functions.
 */
import type { YOUTUBE_MUSIC_ITEM, YOUTUBE_MUSIC_PAGE } from '../../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { at, compact, countText, images, int, isObj, need, obj, objs, rawText, seconds, str, text, type Obj } from './normalise.js';

export type MusicItem = TypeOf<typeof YOUTUBE_MUSIC_ITEM>;
export type MusicPage = TypeOf<typeof YOUTUBE_MUSIC_PAGE>;
type Kind = MusicItem['type'];
type Ref = { name: string; id?: string; url?: string };

export const MUSIC = 'https://music.youtube.com';
const musicUrl = (kind: Kind, id: string): string =>
  kind === 'song' || kind === 'video' ? `${MUSIC}/watch?v=${id}` : kind === 'album' ? `${MUSIC}/browse/${id}` : kind === 'artist' ? `${MUSIC}/channel/${id}` : `${MUSIC}/playlist?list=${id}`;

interface Run {
  text: string;
  browseId?: string;
  videoId?: string;
  playlistId?: string;
  pageType?: string;
}

function runsOf(v: unknown): Run[] {
  return objs(obj(v)?.runs).flatMap((r) => {
    const t = typeof r.text === 'string' ? r.text : undefined;
    if (t === undefined) return [];
    const browse = obj(at(r, 'navigationEndpoint', 'browseEndpoint'));
    const watch = obj(at(r, 'navigationEndpoint', 'watchEndpoint'));
    return [{
      text: t,
      browseId: str(browse?.browseId),
      videoId: str(watch?.videoId),
      playlistId: str(watch?.playlistId),
      pageType: str(at(browse, 'browseEndpointContextSupportedConfigs', 'browseEndpointContextMusicConfig', 'pageType')),
    }];
  });
}

const isArtistRun = (r: Run) => r.browseId?.startsWith('UC') || r.pageType === 'MUSIC_PAGE_TYPE_ARTIST' || r.pageType === 'MUSIC_PAGE_TYPE_USER_CHANNEL';
const isAlbumRun = (r: Run) => r.browseId?.startsWith('MPREb_') || r.pageType === 'MUSIC_PAGE_TYPE_ALBUM';
const ref = (r: Run, kind: 'artist' | 'album'): Ref => compact({ name: r.text, id: r.browseId, url: r.browseId ? musicUrl(kind, r.browseId) : undefined });

const TYPE_LABELS: Record<string, Kind> = { song: 'song', video: 'video', album: 'album', single: 'album', ep: 'album', artist: 'artist', playlist: 'playlist', profile: 'artist' };

/** The kind an item is, from its navigation (and, for a browse id, its prefix). */
function kindOf(browseId: string | undefined, pageType: string | undefined, videoId: string | undefined, musicVideoType: string | undefined, fallback?: Kind): Kind | undefined {
  // The context (a search filter, an album's or a playlist's rows) says song or video; elsewhere the music video type.
  if (videoId && !browseId) return fallback === 'song' || fallback === 'video' ? fallback : musicVideoType && musicVideoType !== 'MUSIC_VIDEO_TYPE_ATV' ? 'video' : 'song';
  if (pageType === 'MUSIC_PAGE_TYPE_ALBUM' || browseId?.startsWith('MPREb_')) return 'album';
  if (pageType === 'MUSIC_PAGE_TYPE_ARTIST' || pageType === 'MUSIC_PAGE_TYPE_USER_CHANNEL' || browseId?.startsWith('UC')) return 'artist';
  if (pageType === 'MUSIC_PAGE_TYPE_PLAYLIST' || browseId?.startsWith('VL')) return 'playlist';
  return fallback;
}

/** Details shared by both item shapes: artists, album, duration, plays, year, from the subtitle runs. */
function details(runs: Run[]): Partial<MusicItem> {
  const artists = runs.filter(isArtistRun).map((r) => ref(r, 'artist'));
  const album = runs.find(isAlbumRun);
  const plain = runs.filter((r) => !r.browseId && !r.videoId).map((r) => r.text.trim()).filter((t) => t && t !== '•' && t !== ',' && t !== '&');
  const durationText = plain.find((t) => seconds(t) !== undefined);
  const playsText = plain.find((t) => /\bplays?\b/i.test(t));
  const viewsText = plain.find((t) => /\bviews?\b/i.test(t));
  const followersText = plain.find((t) => /subscribers?|monthly/i.test(t));
  const year = plain.find((t) => /^\d{4}$/.test(t));
  // A result list without a filter names the kind first ("Song • Artist • Album • 3:05").
  return compact({
    artists: artists.length ? artists : undefined,
    album: album ? ref(album, 'album') : undefined,
    durationText,
    durationSeconds: seconds(durationText),
    playsText,
    plays: countText(playsText),
    viewsText,
    views: countText(viewsText),
    followersText,
    followers: countText(followersText?.replace(/subscribers?/i, '')),
    year: year ? Number(year) : undefined,
  });
}

const explicit = (badges: unknown): boolean | undefined => (objs(badges).length ? objs(badges).some((b) => at(b, 'musicInlineBadgeRenderer', 'icon', 'iconType') === 'MUSIC_EXPLICIT_BADGE') : undefined);

/** A row (`musicResponsiveListItemRenderer`) of a search, an album, an artist's top songs or a playlist. */
export function listItem(row: Obj, fallback?: Kind, albumRef?: Ref): MusicItem | undefined {
  const columns = objs(row.flexColumns).map((c) => runsOf(at(c, 'musicResponsiveListItemFlexColumnRenderer', 'text')));
  const fixed = objs(row.fixedColumns).map((c) => text(at(c, 'musicResponsiveListItemFixedColumnRenderer', 'text'))).filter((t): t is string => !!t);
  const title = columns[0]?.map((r) => r.text).join('').trim();
  if (!title) return undefined;
  const nav = obj(row.navigationEndpoint);
  const browse = obj(nav?.browseEndpoint);
  const browseId = str(browse?.browseId);
  const pageType = str(at(browse, 'browseEndpointContextSupportedConfigs', 'browseEndpointContextMusicConfig', 'pageType'));
  const watch = obj(at(row, 'overlay', 'musicItemThumbnailOverlayRenderer', 'content', 'musicPlayButtonRenderer', 'playNavigationEndpoint', 'watchEndpoint'));
  const videoId = str(at(row, 'playlistItemData', 'videoId')) ?? columns[0]?.find((r) => r.videoId)?.videoId ?? (browseId ? undefined : str(watch?.videoId));
  const musicVideoType = str(at(watch, 'watchEndpointMusicSupportedConfigs', 'watchEndpointMusicConfig', 'musicVideoType'));
  const rest = columns.slice(1).flat();
  const label = TYPE_LABELS[rest[0]?.text.trim().toLowerCase() ?? ''];
  const kind = kindOf(browseId, pageType, videoId, musicVideoType, label ?? fallback);
  if (!kind) return undefined;
  const id = kind === 'song' || kind === 'video' ? videoId : kind === 'playlist' ? browseId?.replace(/^VL/, '') : browseId;
  if (!id) return undefined;
  const more = details([...rest, ...fixed.map((t) => ({ text: t }))]);
  return compact({
    type: kind,
    id,
    url: musicUrl(kind, id),
    title,
    videoId: kind === 'song' || kind === 'video' ? id : undefined,
    playlistId: str(watch?.playlistId),
    ...more,
    album: more.album ?? (albumRef && (kind === 'song' || kind === 'video') ? albumRef : undefined),
    isExplicit: explicit(row.badges),
    thumbnails: images(at(row, 'thumbnail', 'musicThumbnailRenderer', 'thumbnail')),
    index: int(text(row.index)),
  });
}

/** A card (`musicTwoRowItemRenderer`) of a carousel: an album, single, video, playlist or artist. */
export function cardItem(card: Obj): MusicItem | undefined {
  const titleRuns = runsOf(card.title);
  const title = titleRuns.map((r) => r.text).join('').trim();
  // The card's own endpoint, or its title's (some cards link from the title only).
  const nav = obj(card.navigationEndpoint) ?? obj(at(card, 'title', 'runs', 0, 'navigationEndpoint'));
  const browse = obj(nav?.browseEndpoint);
  const browseId = str(browse?.browseId);
  const pageType = str(at(browse, 'browseEndpointContextSupportedConfigs', 'browseEndpointContextMusicConfig', 'pageType'));
  const watch = obj(nav?.watchEndpoint);
  const videoId = str(watch?.videoId);
  const musicVideoType = str(at(watch, 'watchEndpointMusicSupportedConfigs', 'watchEndpointMusicConfig', 'musicVideoType'));
  const kind = kindOf(browseId, pageType, videoId, musicVideoType);
  if (!title || !kind) return undefined;
  const id = kind === 'song' || kind === 'video' ? videoId : kind === 'playlist' ? browseId?.replace(/^VL/, '') : browseId;
  if (!id) return undefined;
  const subtitle = runsOf(card.subtitle);
  return compact({
    type: kind,
    id,
    url: musicUrl(kind, id),
    title,
    videoId: videoId,
    subtitle: subtitle.map((r) => r.text).join('').trim() || undefined,
    ...details(subtitle),
    isExplicit: explicit(card.subtitleBadges),
    thumbnails: images(at(card, 'thumbnailRenderer', 'musicThumbnailRenderer', 'thumbnail')),
  });
}

function shelfItems(list: unknown, fallback?: Kind, albumRef?: Ref): MusicItem[] {
  return objs(list).flatMap((i) => {
    const row = obj(i.musicResponsiveListItemRenderer);
    const card = obj(i.musicTwoRowItemRenderer);
    const item = row ? listItem(row, fallback, albumRef) : card ? cardItem(card) : undefined;
    return item ? [item] : [];
  });
}

const continuationOf = (shelf: Obj | undefined): string | undefined =>
  str(at(shelf, 'continuations', 0, 'nextContinuationData', 'continuation')) ??
  str(objs(shelf?.contents).map((c) => at(c, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token')).find(Boolean));

// ---- search and suggestions -----------------------------------------------------------------------------------------

/** A page of YouTube Music search results (the first answer, or a `musicShelfContinuation`). */
export function musicSearchPage(answer: Obj, fallback: Kind): { items: MusicItem[]; token?: string } {
  const more = obj(at(answer, 'continuationContents', 'musicShelfContinuation'));
  if (more) return { items: shelfItems(more.contents, fallback), token: continuationOf(more) };
  const sections = objs(at(answer, 'contents', 'tabbedSearchResultsRenderer', 'tabs', 0, 'tabRenderer', 'content', 'sectionListRenderer', 'contents'));
  if (!sections.length) throw new QuarryError('sourceChanged', 'youtube: the music search answer has no section list');
  const shelf = sections.map((s) => obj(s.musicShelfRenderer)).find(Boolean);
  return { items: shelf ? shelfItems(shelf.contents, fallback) : [], token: continuationOf(shelf) };
}

/** YouTube Music's suggestions for an input (an empty input answers none). */
export function musicSuggestions(answer: Obj): string[] {
  return objs(answer.contents).flatMap((section) =>
    objs(at(section, 'searchSuggestionsSectionRenderer', 'contents')).flatMap((c) => {
      const t = text(at(c, 'searchSuggestionRenderer', 'suggestion') ?? at(c, 'historySuggestionRenderer', 'suggestion'));
      return t ? [t] : [];
    }),
  );
}

// ---- pages ----------------------------------------------------------------------------------------------------------

/** An album page: the responsive header, its tracks and its other carousels. */
export function normaliseAlbum(albumId: string, answer: Obj): { album: MusicPage; tracks: MusicItem[]; related: MusicItem[] } {
  const tabs = objs(at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'));
  const header = obj(objs(at(tabs[0], 'tabRenderer', 'content', 'sectionListRenderer', 'contents')).map((c) => c.musicResponsiveHeaderRenderer).find(isObj));
  if (!header) throw new QuarryError('sourceChanged', 'youtube: the album page has no musicResponsiveHeaderRenderer');
  const secondary = objs(at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'secondaryContents', 'sectionListRenderer', 'contents'));
  const page = pageFromHeader('album', albumId, header);
  const albumRef = { name: page.title, id: albumId, url: musicUrl('album', albumId) };
  const shelf = obj(secondary.map((s) => s.musicShelfRenderer).find(isObj));
  const tracks = shelfItems(shelf?.contents, 'song', albumRef).map((t) => (t.artists || !page.artists ? t : { ...t, artists: page.artists }));
  const related = secondary.flatMap((s) => shelfItems(at(s, 'musicCarouselShelfRenderer', 'contents')));
  const playlistId = tracks.find((t) => t.playlistId)?.playlistId ?? str(at(answer, 'microformat', 'microformatDataRenderer', 'urlCanonical'))?.split('list=')[1];
  return { album: compact({ ...page, playlistId }), tracks, related };
}

function pageFromHeader(kind: 'album' | 'playlist', id: string, header: Obj): MusicPage {
  const subtitle = runsOf(header.subtitle);
  const second = runsOf(header.secondSubtitle).map((r) => r.text.trim()).filter((t) => t && t !== '•');
  const strap = runsOf(header.straplineTextOne);
  const artists = strap.filter(isArtistRun).map((r) => ref(r, 'artist'));
  const year = subtitle.map((r) => r.text.trim()).find((t) => /^\d{4}$/.test(t));
  const tracksText = second.find((t) => /\b(songs?|tracks?|episodes?)\b/i.test(t));
  return compact({
    type: kind,
    id,
    url: musicUrl(kind, id),
    title: need(text(header.title), `the ${kind} page has no title`),
    subtitle: subtitle.map((r) => r.text).join('').trim() || undefined,
    description: rawText(at(header, 'description', 'musicDescriptionShelfRenderer', 'description')),
    artists: artists.length ? artists : undefined,
    author: kind === 'playlist' && strap[0] ? compact({ name: strap[0].text, id: strap[0].browseId }) : undefined,
    year: year ? Number(year) : undefined,
    tracks: countText(tracksText),
    durationText: second.find((t) => /\b(minutes?|hours?|seconds?)\b/i.test(t)),
    thumbnails: images(at(header, 'thumbnail', 'musicThumbnailRenderer', 'thumbnail')),
  });
}

export interface MusicSection {
  title: string;
  browseId?: string;
  items: MusicItem[];
}

/** The shelves of a browse page (an artist's songs, albums, singles, videos…; any chart page) with their items. */
export function musicSections(answer: Obj): MusicSection[] {
  return sectionContents(answer).flatMap((s) => {
    const shelf = obj(s.musicShelfRenderer);
    const carousel = obj(s.musicCarouselShelfRenderer);
    const titleRuns = runsOf(shelf?.title ?? at(carousel, 'header', 'musicCarouselShelfBasicHeaderRenderer', 'title'));
    const title = titleRuns.map((r) => r.text).join('').trim();
    const items = shelfItems(shelf?.contents ?? carousel?.contents);
    if (!title || !items.length) return [];
    return [compact({ title, browseId: titleRuns[0]?.browseId, items })];
  });
}

/** The shelves of a browse page, in one column or (2026 artist pages) two. */
function sectionContents(answer: Obj): Obj[] {
  const list = (v: unknown) => objs(at(v, 'tabs', 0, 'tabRenderer', 'content', 'sectionListRenderer', 'contents'));
  const two = obj(at(answer, 'contents', 'twoColumnBrowseResultsRenderer'));
  return [
    ...list(at(answer, 'contents', 'singleColumnBrowseResultsRenderer')),
    ...list(two),
    ...objs(at(two, 'secondaryContents', 'sectionListRenderer', 'contents')),
  ];
}

/** An artist page: the immersive (or visual) header and the shelves. */
export function normaliseArtist(artistId: string, answer: Obj): { artist: MusicPage; sections: MusicSection[] } {
  const header = obj(at(answer, 'header', 'musicImmersiveHeaderRenderer')) ?? obj(at(answer, 'header', 'musicVisualHeaderRenderer'));
  if (!header) throw new QuarryError('sourceChanged', 'youtube: the artist page has no header');
  const followersText = text(at(header, 'subscriptionButton', 'subscribeButtonRenderer', 'subscriberCountText'));
  const sections = musicSections(answer);
  const about = sectionContents(answer).map((s) => obj(s.musicDescriptionShelfRenderer)).find(Boolean);
  return {
    artist: compact({
      type: 'artist' as const,
      id: artistId,
      url: musicUrl('artist', artistId),
      title: need(text(header.title), 'the artist page has no name'),
      description: rawText(header.description) ?? rawText(about?.description),
      followersText,
      followers: countText(followersText),
      subtitle: text(header.monthlyListenerCount),
      thumbnails: images(at(header, 'thumbnail', 'musicThumbnailRenderer', 'thumbnail')),
    }),
    sections,
  };
}

// ---- song, lyrics and playlists (no recording: the documented watch-next and browse shapes) ---------------------------

/**
 * The music watch page (`next` with WEB_REMIX): the track itself is the first `playlistPanelVideoRenderer` of the
 * queue, its lyrics and related pages the second and third tabs' browse ids (ytmusicapi's get_watch_playlist reading).
 */
export function normaliseSong(videoId: string, answer: Obj): { song: MusicItem; lyricsId?: string; relatedId?: string } {
  const watch = obj(at(answer, 'contents', 'singleColumnMusicWatchNextResultsRenderer', 'tabbedRenderer', 'watchNextTabbedResultsRenderer'));
  if (!watch) throw new QuarryError('sourceChanged', 'youtube: the music watch answer has no watchNextTabbedResultsRenderer');
  const tabs = objs(watch.tabs);
  const queue = objs(at(tabs[0], 'tabRenderer', 'content', 'musicQueueRenderer', 'content', 'playlistPanelRenderer', 'contents'));
  const panel = obj(queue.map((q) => obj(q.playlistPanelVideoRenderer) ?? obj(at(q, 'playlistPanelVideoWrapperRenderer', 'primaryRenderer', 'playlistPanelVideoRenderer'))).find((p) => str(p?.videoId) === videoId))
    ?? obj(at(queue[0], 'playlistPanelVideoRenderer'));
  if (!panel) throw new QuarryError('notFound', `song: YouTube Music has no song ${videoId}`);
  const byline = runsOf(panel.longBylineText);
  const durationText = text(panel.lengthText);
  const song: MusicItem = compact({
    type: (str(at(panel, 'navigationEndpoint', 'watchEndpoint', 'watchEndpointMusicSupportedConfigs', 'watchEndpointMusicConfig', 'musicVideoType')) ?? 'MUSIC_VIDEO_TYPE_ATV') === 'MUSIC_VIDEO_TYPE_ATV' ? ('song' as const) : ('video' as const),
    id: videoId,
    url: musicUrl('song', videoId),
    title: need(text(panel.title), 'the music watch page names no title'),
    videoId,
    ...details(byline),
    durationText,
    durationSeconds: seconds(durationText),
    isExplicit: explicit(panel.badges),
    thumbnails: images(panel.thumbnail),
  });
  const tabId = (i: number) => (at(tabs[i], 'tabRenderer', 'unselectable') === true ? undefined : str(at(tabs[i], 'tabRenderer', 'endpoint', 'browseEndpoint', 'browseId')));
  return { song, lyricsId: tabId(1), relatedId: tabId(2) };
}

/** The lyrics page (`browse` MPLYt…): a description shelf and its source line. */
export function normaliseLyrics(answer: Obj): { lyrics: string; source?: string } | undefined {
  const shelf = obj(objs(at(answer, 'contents', 'sectionListRenderer', 'contents')).map((c) => c.musicDescriptionShelfRenderer).find(isObj));
  const lyrics = rawText(shelf?.description);
  if (!lyrics) return undefined;
  return compact({ lyrics, source: text(shelf?.footer)?.replace(/^Source:\s*/i, '') });
}

/** A music playlist page (`browse` VL…): header and the first rows; continuations append rows. */
export function musicPlaylistPage(listId: string, answer: Obj): { playlist?: MusicPage; items: MusicItem[]; token?: string } {
  const later = objs(answer.onResponseReceivedActions).flatMap((a) => objs(at(a, 'appendContinuationItemsAction', 'continuationItems')));
  if (later.length) return { items: shelfItems(later, 'song'), token: str(later.map((c) => at(c, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token')).find(Boolean)) };
  const tabs = objs(at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'));
  const header = obj(objs(at(tabs[0], 'tabRenderer', 'content', 'sectionListRenderer', 'contents')).map((c) => c.musicResponsiveHeaderRenderer ?? at(c, 'musicEditablePlaylistDetailHeaderRenderer', 'header', 'musicResponsiveHeaderRenderer')).find(isObj));
  const shelf = obj(objs(at(answer, 'contents', 'twoColumnBrowseResultsRenderer', 'secondaryContents', 'sectionListRenderer', 'contents')).map((s) => s.musicPlaylistShelfRenderer ?? s.musicShelfRenderer).find(isObj));
  if (!shelf) {
    if (answer.alerts || answer.error) throw new QuarryError('notFound', `playlist: YouTube Music has no playlist ${listId}`);
    throw new QuarryError('sourceChanged', 'youtube: the music playlist page has no track shelf');
  }
  // Some playlists (ytmusicapi's 2025-12 "audio" playlist) come without a header: the tracks alone.
  return { ...(header ? { playlist: pageFromHeader('playlist', listId, header) } : {}), items: shelfItems(shelf.contents, 'song'), token: continuationOf(shelf) };
}
