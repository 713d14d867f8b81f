/** Channel and playlist pages (`browse`) → records. Pure functions. */
import type { YOUTUBE_CHANNEL, YOUTUBE_PLAYLIST } from '../../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import {
  arr, at, channelUrl, compact, continuationItems, countText, endpointUrl, images, isObj, largest, listEntries, need, obj, objs, personFromRuns,
  playlistUrl, rawText, str, text, WEB, type ListEntry, type Obj, type VideoItem, playlistVideo,
} from './normalise.js';

export type Channel = TypeOf<typeof YOUTUBE_CHANNEL>;
export type Playlist = TypeOf<typeof YOUTUBE_PLAYLIST>;

/** The selected tab's content of a channel page. */
function selectedTab(page: Obj): Obj | undefined {
  const tabs = objs(at(page, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs'));
  const tab = tabs.map((t) => obj(t.tabRenderer) ?? obj(t.expandableTabRenderer)).find((t) => t?.selected === true);
  return obj(tab?.content);
}

/** The entries of a channel page's selected tab (first page) or of a continuation answer (later pages). */
export function channelEntries(answer: Obj): { items: ListEntry[]; token?: string } {
  const later = continuationItems(answer);
  if (later) return listEntries(later);
  const content = selectedTab(answer);
  if (!content) {
    if (answer.contents === undefined && answer.alerts) throw new QuarryError('notFound', 'channel: YouTube has no such channel, or it was terminated');
    throw drift();
  }
  const list = at(content, 'richGridRenderer', 'contents') ?? at(content, 'sectionListRenderer', 'contents');
  return listEntries(list, 6);
}

const drift = () => new QuarryError('sourceChanged', "youtube: a channel page without its selected tab's contents");

/** The channel record from a channel page's header and metadata. */
export function normaliseChannel(page: Obj): Channel {
  const meta = obj(at(page, 'metadata', 'channelMetadataRenderer'));
  const header = obj(at(page, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const legacy = obj(at(page, 'header', 'c4TabbedHeaderRenderer'));
  const id = need(str(meta?.externalId) ?? str(legacy?.channelId), 'a channel page without its channel id');
  const rows = objs(at(header, 'metadata', 'contentMetadataViewModel', 'metadataRows')).map((r) =>
    objs(r.metadataParts).flatMap((p) => (str(at(p, 'text', 'content')) ? [str(at(p, 'text', 'content'))!] : [])),
  );
  const parts = rows.flat();
  const handle = parts.find((p) => p.startsWith('@')) ?? str(meta?.vanityChannelUrl)?.split('/@')[1]?.replace(/^/, '@');
  const followersText = parts.find((p) => /subscriber/i.test(p)) ?? text(legacy?.subscriberCountText);
  const videosText = parts.find((p) => /\bvideos?\b/i.test(p)) ?? text(legacy?.videosCountText);
  const avatars = images(at(header, 'image', 'decoratedAvatarViewModel', 'avatar', 'avatarViewModel', 'image')) ?? images(meta?.avatar) ?? images(legacy?.avatar);
  const banners = images(at(header, 'banner', 'imageBannerViewModel', 'image')) ?? images(legacy?.banner);
  const verified = JSON.stringify(header?.title ?? legacy?.badges ?? '').slice(0, 20_000).match(/CHECK_CIRCLE|VERIFIED|AUDIO_BADGE/) ? true : undefined;
  const keywords = str(meta?.keywords);
  return compact({
    type: 'channel' as const,
    id,
    url: channelUrl(id),
    name: need(str(meta?.title) ?? text(at(header, 'title', 'dynamicTextViewModel', 'text')), 'a channel page without its name'),
    username: handle?.slice(1),
    bio: rawText(meta?.description),
    avatar: largest(avatars),
    avatars,
    banner: largest(banners),
    banners,
    isVerified: verified,
    followersText,
    followers: countText(followersText),
    videosText,
    videos: countText(videosText),
    keywords: keywords ? splitKeywords(keywords) : undefined,
    rssUrl: str(meta?.rssUrl),
    isFamilySafe: typeof meta?.isFamilySafe === 'boolean' ? meta.isFamilySafe : undefined,
  });
}

/** Channel keywords are one string, multi-word ones in double quotes. */
function splitKeywords(s: string): string[] {
  return [...s.matchAll(/"([^"]+)"|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(0, 100);
}

/** The continuation of the header's "more about this channel" panel (the about data). */
export function aboutToken(page: Obj): string | undefined {
  const header = obj(at(page, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  for (const path of [
    ['description', 'descriptionPreviewViewModel', 'rendererContext', 'commandContext', 'onTap', 'innertubeCommand'],
    ['attribution', 'attributionViewModel', 'suffix', 'commandRuns', 0, 'onTap', 'innertubeCommand'],
  ]) {
    const panel = at(header, ...path, 'showEngagementPanelEndpoint', 'engagementPanel', 'engagementPanelSectionListRenderer', 'content', 'sectionListRenderer', 'contents', 0, 'itemSectionRenderer', 'contents', 0);
    const token = str(at(panel, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
    if (token) return token;
  }
  return undefined;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "Joined 12 Mar 2006" or "Joined Mar 12, 2006" → 2006-03-12; other wordings stay text only. */
export function joinedOn(s: string | undefined): string | undefined {
  if (!s) return undefined;
  const a = /(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})/.exec(s);
  const b = /([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),\s+(\d{4})/.exec(s);
  const [d, mon, y] = a ? [a[1], a[2], a[3]] : b ? [b[2], b[1], b[3]] : [];
  const m = mon ? MONTHS.indexOf(mon.toLowerCase()) : -1;
  if (!d || m < 0) return undefined;
  return `${y}-${String(m + 1).padStart(2, '0')}-${d.padStart(2, '0')}`;
}

/**
 * The about panel (`aboutChannelViewModel`): country, joined date, views, links. Field names as the about answer
 * carries them (no recording of it exists in shared/upstream; see the documented fixture of the tests).
 */
export function normaliseAbout(answer: Obj): Partial<Channel> {
  const items = continuationItems(answer) ?? [];
  const about = obj(objs(items).map((i) => at(i, 'aboutChannelRenderer', 'metadata', 'aboutChannelViewModel')).find(isObj));
  if (!about) throw new QuarryError('sourceChanged', 'youtube: the about answer has no aboutChannelViewModel');
  const joinedText = text(about.joinedDateText);
  const viewsText = str(about.viewCountText);
  const links = objs(about.links).flatMap((l) => {
    const v = obj(l.channelExternalLinkViewModel);
    const shown = text(v?.link);
    const target = endpointUrl(at(v, 'link', 'commandRuns', 0, 'onTap')) ?? (shown ? `https://${shown.replace(/^https?:\/\//, '')}` : undefined);
    const real = target?.includes('/redirect?') ? new URL(target).searchParams.get('q') ?? target : target;
    return real ? [compact({ url: real, title: text(v?.title) })] : [];
  });
  return compact({
    country: str(about.country),
    joinedText,
    joinedOn: joinedOn(joinedText),
    viewsText,
    views: countText(viewsText),
    bio: rawText(about.description),
    links: links.length ? links : undefined,
    followersText: str(about.subscriberCountText),
    videosText: str(about.videoCountText),
  });
}

// ---- Playlists ------------------------------------------------------------------------------------------------------

/** The playlist record from the header request (`$fields=sidebar,header,microformat,alerts`). */
export function normalisePlaylist(listId: string, header: Obj): Playlist {
  const alert = text(at(header, 'alerts', 0, 'alertRenderer', 'text')) ?? text(at(header, 'alerts', 0, 'alertWithButtonRenderer', 'text'));
  const view = obj(at(header, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const sidebar = obj(at(header, 'sidebar', 'playlistSidebarRenderer', 'items', 0, 'playlistSidebarPrimaryInfoRenderer'));
  const micro = obj(at(header, 'microformat', 'microformatDataRenderer'));
  if (!view && !sidebar && !micro) {
    if (alert) throw new QuarryError('notFound', `playlist: ${listId} is not available (${alert})`);
    throw new QuarryError('sourceChanged', 'youtube: the playlist answer has neither header nor sidebar');
  }
  const stats = objs(sidebar?.stats).map((s) => text(s)).filter((t): t is string => !!t);
  const rows = objs(at(view, 'metadata', 'contentMetadataViewModel', 'metadataRows')).flatMap((r) => objs(r.metadataParts));
  const owner = obj(at(header, 'sidebar', 'playlistSidebarRenderer', 'items', 1, 'playlistSidebarSecondaryInfoRenderer', 'videoOwner', 'videoOwnerRenderer'));
  const author = personFromRuns(owner?.title) ?? personFromRuns(at(rows[0], 'avatarStack', 'avatarStackViewModel', 'text')) ?? byline(rows);
  const videosText = stats.find((t) => /\bvideos?\b/i.test(t));
  const viewsText = stats.find((t) => /\bviews?\b/i.test(t)) ?? rows.map((p) => str(at(p, 'text', 'content'))).find((t) => t && /\bviews?\b/i.test(t));
  return compact({
    type: 'playlist' as const,
    id: listId,
    url: playlistUrl(listId),
    title: need(text(at(view, 'title', 'dynamicTextViewModel', 'text')) ?? text(sidebar?.title) ?? str(micro?.title), 'a playlist without its title'),
    description: rawText(at(view, 'description', 'descriptionPreviewViewModel', 'description')) ?? rawText(sidebar?.description),
    author,
    videosText,
    videos: countText(videosText),
    viewsText,
    views: countText(viewsText),
    updatedText: stats.find((t) => /updated|ago/i.test(t)),
    thumbnails: images(at(sidebar, 'thumbnailRenderer', 'playlistVideoThumbnailRenderer', 'thumbnail')) ?? images(micro?.thumbnail),
  });
}

/** "by Someone" in the header's rows, when it names no channel link. */
function byline(parts: Obj[]): Playlist['author'] {
  for (const p of parts) {
    const t = str(at(p, 'text', 'content'));
    const run = obj(at(p, 'text', 'commandRuns', 0, 'onTap', 'innertubeCommand', 'browseEndpoint'));
    if (t?.startsWith('by ')) {
      const id = str(run?.browseId);
      return compact({ name: t.slice(3), id, url: id ? channelUrl(id) : undefined });
    }
  }
  return undefined;
}

/** A playlist page of entries (first page or continuation). */
export function playlistEntries(answer: Obj): { items: VideoItem[]; token?: string } {
  const list = continuationItems(answer);
  if (!list) throw new QuarryError('sourceChanged', 'youtube: the playlist answer has no continuation items');
  const items: VideoItem[] = [];
  let token: string | undefined;
  for (const item of objs(list)) {
    token = str(at(item, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token')) ?? token;
    const r = obj(item.playlistVideoRenderer);
    if (r) {
      const v = playlistVideo(r);
      if (v) items.push(v);
    }
  }
  return { items, token };
}

export { arr, WEB };
