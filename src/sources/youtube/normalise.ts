/**
 * YouTube's renderers → the shared record vocabulary. Pure functions over hostile JSON: every reader returns
 * undefined rather than throwing, and a value a record needs goes through `need` (→ sourceChanged). YouTube writes
 * the same thing several ways (`simpleText`, `runs`, attributed `content`; `thumbnails`, `sources`); the readers here
 * take them all, so the mappers below stay short.
 */
import type { YOUTUBE_LIST_ENTRY, YOUTUBE_VIDEO_ITEM } from '../../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, bool, changed, compact, count, int, isObj, readsOf, num, obj, objs, str, type Obj } from '../kit/read.js';

export type ListEntry = TypeOf<typeof YOUTUBE_LIST_ENTRY>;
export type VideoItem = TypeOf<typeof YOUTUBE_VIDEO_ITEM>;
export type Image = { url: string; width?: number; height?: number };
export type Person = NonNullable<ListEntry['author']>;

export const WEB = 'https://www.youtube.com';
export const { need } = readsOf('youtube');
export const drift = (what: string) => changed('youtube', what);

/** Follows a path of keys and array indexes; undefined as soon as a step is missing. */
export function at(v: unknown, ...path: (string | number)[]): unknown {
  let cur = v;
  for (const k of path) {
    if (typeof k === 'number') cur = Array.isArray(cur) ? cur[k] : undefined;
    else cur = isObj(cur) ? cur[k] : undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Text in any of YouTube's spellings: `simpleText`, `runs[].text`, an attributed `content`, or a plain string. */
export function text(v: unknown): string | undefined {
  if (typeof v === 'string') return str(v);
  const o = obj(v);
  if (!o) return undefined;
  if (typeof o.simpleText === 'string') return str(o.simpleText);
  if (typeof o.content === 'string') return str(o.content);
  if (Array.isArray(o.runs)) return str(o.runs.map((r) => (isObj(r) && typeof r.text === 'string' ? r.text : '')).join(''));
  return undefined;
}

/** Text kept as written (descriptions and comments keep their line breaks and leading spaces). */
export function rawText(v: unknown): string | undefined {
  const o = obj(v);
  const t = typeof v === 'string' ? v : typeof o?.content === 'string' ? o.content : typeof o?.simpleText === 'string' ? o.simpleText : Array.isArray(o?.runs) ? o.runs.map((r) => (isObj(r) && typeof r.text === 'string' ? r.text : '')).join('') : undefined;
  return t && t.trim() !== '' ? t : undefined;
}

/** Images from `{thumbnails: […]}`, `{sources: […]}` or an image view model, protocol-relative addresses made https. */
export function images(v: unknown): Image[] | undefined {
  const o = obj(v);
  const list = arr(o?.thumbnails ?? o?.sources ?? at(o, 'image', 'sources') ?? at(o, 'thumbnail', 'thumbnails'));
  const out = objs(list).flatMap((t) => {
    const raw = str(t.url);
    if (!raw) return [];
    return [compact({ url: raw.startsWith('//') ? `https:${raw}` : raw, width: int(t.width), height: int(t.height) })];
  });
  return out.length ? out : undefined;
}

/** The largest image's address. */
export const largest = (list: Image[] | undefined): string | undefined =>
  list?.reduce((a, b) => ((b.width ?? 0) * (b.height ?? 0) > (a.width ?? 0) * (a.height ?? 0) ? b : a)).url;

/** "1:07:34" → 4054 seconds; anything else undefined. */
export function seconds(v: unknown): number | undefined {
  const s = typeof v === 'string' ? v.trim() : text(v);
  if (!s || !/^\d{1,3}(?::\d{1,2}){1,2}$/.test(s)) return undefined;
  return s.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

/** A count from YouTube's wording: "390,201 views", "1.2M views", "No views", "10,226 watching now". */
export function countText(v: unknown): number | undefined {
  const s = typeof v === 'string' ? v : text(v);
  if (!s) return undefined;
  if (/^\s*no\b/i.test(s)) return 0;
  return count(s);
}

/** The address a navigation endpoint points to, made absolute on www.youtube.com. */
export function endpointUrl(endpoint: unknown): string | undefined {
  const u = str(at(endpoint, 'commandMetadata', 'webCommandMetadata', 'url') ?? at(endpoint, 'innertubeCommand', 'commandMetadata', 'webCommandMetadata', 'url'));
  if (!u) return undefined;
  return u.startsWith('http') ? u : `${WEB}${u.startsWith('/') ? '' : '/'}${u}`;
}

export const watchUrl = (id: string) => `${WEB}/watch?v=${id}`;
export const shortsUrl = (id: string) => `${WEB}/shorts/${id}`;
export const channelUrl = (id: string) => `${WEB}/channel/${id}`;
export const playlistUrl = (id: string) => `${WEB}/playlist?list=${id}`;

/** A channel as a run with a browse endpoint names it: id, name, handle and address. */
export function personFromRun(run: unknown, verified?: boolean): Person | undefined {
  const r = obj(run);
  const browse = obj(at(r, 'navigationEndpoint', 'browseEndpoint') ?? at(r, 'onTap', 'innertubeCommand', 'browseEndpoint'));
  const name = str(r?.text);
  const id = str(browse?.browseId);
  if (!name && !id) return undefined;
  const base = str(browse?.canonicalBaseUrl);
  return compact({
    id: id?.startsWith('UC') ? id : undefined,
    name,
    username: base?.startsWith('/@') ? decodeURIComponent(base.slice(2)) : undefined,
    url: base ? `${WEB}${base}` : id?.startsWith('UC') ? channelUrl(id) : undefined,
    isVerified: verified,
  });
}

/** The first run of a byline (`ownerText`, `longBylineText`) that names a channel. */
export function personFromRuns(v: unknown, verified?: boolean): Person | undefined {
  const runs = objs(obj(v)?.runs);
  return personFromRun(runs.find((r) => at(r, 'navigationEndpoint', 'browseEndpoint')) ?? runs[0], verified);
}

/** A channel badge says verified (or official artist). */
export function isVerifiedBadge(badges: unknown): boolean | undefined {
  const list = objs(badges);
  if (!list.length) return undefined;
  return list.some((b) => /VERIFIED|ARTIST/.test(String(at(b, 'metadataBadgeRenderer', 'style') ?? at(b, 'metadataBadgeRenderer', 'icon', 'iconType') ?? '')));
}

const continuationToken = (item: Obj): string | undefined =>
  str(
    at(item, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token') ??
      at(item, 'continuationItemRenderer', 'button', 'buttonRenderer', 'command', 'continuationCommand', 'token'),
  );

// ---- List entries ---------------------------------------------------------------------------------------------------

function videoRenderer(v: Obj): ListEntry | undefined {
  const id = str(v.videoId);
  if (!id) return undefined;
  const overlays = objs(v.thumbnailOverlays);
  const overlayText = overlays.map((o) => obj(o.thumbnailOverlayTimeStatusRenderer)).find(Boolean);
  const style = str(overlayText?.style);
  const badges = objs(v.badges).map((b) => str(at(b, 'metadataBadgeRenderer', 'style')) ?? '');
  const isLive = badges.some((b) => b.includes('LIVE_NOW')) || style === 'LIVE' || undefined;
  const upcoming = str(at(v, 'upcomingEventData', 'startTime'));
  const durationText = text(v.lengthText) ?? (style === 'DEFAULT' || style === 'SHORTS' ? text(overlayText?.text) : undefined);
  const reel = obj(at(v, 'navigationEndpoint', 'reelWatchEndpoint'));
  const isShort = Boolean(reel) || endpointUrl(v.navigationEndpoint)?.includes('/shorts/') || style === 'SHORTS' || undefined;
  const viewsText = text(v.viewCountText);
  return compact({
    type: 'video' as const,
    id,
    url: isShort ? shortsUrl(id) : watchUrl(id),
    title: need(text(v.title), 'videoRenderer without a title'),
    author: personFromRuns(v.ownerText ?? v.longBylineText ?? v.shortBylineText, isVerifiedBadge(v.ownerBadges)),
    durationText,
    durationSeconds: seconds(durationText),
    viewsText,
    views: isLive ? undefined : countText(viewsText),
    publishedText: text(v.publishedTimeText),
    description: text(at(v, 'detailedMetadataSnippets', 0, 'snippetText')) ?? text(v.descriptionSnippet),
    thumbnails: images(v.thumbnail),
    isLive,
    isShort,
    isUpcoming: upcoming ? true : undefined,
    scheduledAt: upcoming ? isoSeconds(upcoming) : undefined,
  });
}

function isoSeconds(v: string): string | undefined {
  const n = Number(v);
  return Number.isFinite(n) ? new Date(n * 1000).toISOString() : undefined;
}

/** The metadata rows of a lockup, as lists of part texts. */
function lockupRows(meta: unknown): { text: string; run?: Obj }[][] {
  return objs(at(meta, 'metadata', 'contentMetadataViewModel', 'metadataRows')).map((row) =>
    objs(row.metadataParts).flatMap((p) => {
      const t = str(at(p, 'text', 'content'));
      return t ? [{ text: t, run: obj(at(p, 'text', 'commandRuns', 0)) }] : [];
    }),
  );
}

function badgeTexts(image: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
    else if (isObj(v)) {
      const badge = obj(v.thumbnailBadgeViewModel);
      if (badge && typeof badge.text === 'string') out.push(badge.text);
      for (const x of Object.values(v)) if (typeof x === 'object') walk(x, depth + 1);
    }
  };
  walk(image, 0);
  return out;
}

/** A channel named in a lockup's rows: the part whose tap opens a channel. */
function lockupAuthor(rows: { text: string; run?: Obj }[][]): Person | undefined {
  for (const row of rows) {
    for (const part of row) {
      const browse = obj(at(part.run, 'onTap', 'innertubeCommand', 'browseEndpoint'));
      if (browse && str(browse.browseId)?.startsWith('UC')) {
        return personFromRun({ text: part.text, navigationEndpoint: { browseEndpoint: browse } });
      }
    }
  }
  return undefined;
}

function lockupViewModel(l: Obj): ListEntry | undefined {
  const id = str(l.contentId);
  const kind = str(l.contentType);
  if (!id || !kind) return undefined;
  const meta = obj(at(l, 'metadata', 'lockupMetadataViewModel'));
  const title = need(str(at(meta, 'title', 'content')), 'lockupViewModel without a title');
  const rows = lockupRows(meta);
  const author = lockupAuthor(rows);
  const loose = rows.flat().map((p) => p.text).filter((t) => t !== author?.name);
  const image = l.contentImage;
  const badges = badgeTexts(image);
  if (kind === 'LOCKUP_CONTENT_TYPE_VIDEO') {
    const durationText = badges.find((b) => seconds(b) !== undefined);
    const viewsText = loose.find((t) => /\b(views?|watching)\b/i.test(t));
    const isLive = badges.some((b) => /^live$/i.test(b)) || /watching/i.test(viewsText ?? '') || undefined;
    const isUpcoming = badges.some((b) => /upcoming|premiere/i.test(b)) || undefined;
    return compact({
      type: 'video' as const,
      id,
      url: watchUrl(id),
      title,
      author,
      durationText,
      durationSeconds: seconds(durationText),
      viewsText,
      views: isLive ? undefined : countText(viewsText),
      publishedText: loose.find((t) => /\bago\b|^(streamed|premiered)\b/i.test(t)),
      thumbnails: images(at(image, 'thumbnailViewModel', 'image')),
      isLive,
      isUpcoming,
    });
  }
  if (kind === 'LOCKUP_CONTENT_TYPE_PLAYLIST' || kind === 'LOCKUP_CONTENT_TYPE_PODCAST') {
    const videosText = badges.find((b) => /\b(videos?|episodes?|lessons?)\b/i.test(b));
    return compact({
      type: 'playlist' as const,
      id,
      url: playlistUrl(id),
      title,
      author,
      videosText,
      videos: countText(videosText),
      updatedText: loose.find((t) => /^updated\b/i.test(t)),
      thumbnails: images(at(image, 'collectionThumbnailViewModel', 'primaryThumbnail', 'thumbnailViewModel', 'image')),
      firstVideoId: str(at(l, 'rendererContext', 'commandContext', 'onTap', 'innertubeCommand', 'watchEndpoint', 'videoId')),
    });
  }
  return undefined; // channels and mixes shown as lockups carry nothing a list entry needs
}

function shortsLockup(s: Obj): ListEntry | undefined {
  const id = str(at(s, 'onTap', 'innertubeCommand', 'reelWatchEndpoint', 'videoId')) ?? str(s.entityId)?.replace(/^shorts-shelf-item-/, '');
  if (!id) return undefined;
  const viewsText = str(at(s, 'overlayMetadata', 'secondaryText', 'content'));
  return compact({
    type: 'video' as const,
    id,
    url: shortsUrl(id),
    title: need(str(at(s, 'overlayMetadata', 'primaryText', 'content')), 'shortsLockupViewModel without a title'),
    viewsText,
    views: countText(viewsText),
    thumbnails: images(at(s, 'thumbnailViewModel', 'thumbnailViewModel', 'image') ?? at(s, 'thumbnail')),
    isShort: true,
  });
}

function channelRenderer(c: Obj): ListEntry | undefined {
  const id = str(c.channelId);
  if (!id) return undefined;
  // YouTube moved the handle into `subscriberCountText` and the count into `videoCountText` on handle channels.
  const handle = [text(c.subscriberCountText), text(c.videoCountText)].find((t) => t?.startsWith('@'));
  const followersText = [text(c.subscriberCountText), text(c.videoCountText)].find((t) => t && /subscriber/i.test(t));
  const base = str(at(c, 'navigationEndpoint', 'browseEndpoint', 'canonicalBaseUrl'));
  return compact({
    type: 'channel' as const,
    id,
    url: base ? `${WEB}${base}` : channelUrl(id),
    name: need(text(c.title), 'channelRenderer without a title'),
    username: handle?.slice(1) ?? (base?.startsWith('/@') ? decodeURIComponent(base.slice(2)) : undefined),
    bio: text(c.descriptionSnippet),
    avatar: largest(images(c.thumbnail)),
    isVerified: isVerifiedBadge(c.ownerBadges),
    followersText,
    followers: countText(followersText),
  });
}

function playlistRenderer(p: Obj): ListEntry | undefined {
  const id = str(p.playlistId);
  if (!id) return undefined;
  const videosText = text(p.videoCountText) ?? (str(p.videoCount) ? `${p.videoCount} videos` : undefined);
  return compact({
    type: 'playlist' as const,
    id,
    url: playlistUrl(id),
    title: need(text(p.title), 'playlistRenderer without a title'),
    author: personFromRuns(p.shortBylineText ?? p.longBylineText),
    videosText,
    videos: int(p.videoCount) ?? countText(videosText),
    thumbnails: images(at(p, 'thumbnails', 0) ?? p.thumbnail),
  });
}

/** A playlist's entry (`playlistVideoRenderer`): a video with its index and whether it can be played. */
export function playlistVideo(p: Obj): VideoItem | undefined {
  const id = str(p.videoId);
  if (!id) return undefined;
  const info = objs(at(p, 'videoInfo', 'runs')).map((r) => str(r.text)).filter((t): t is string => !!t && t !== '•');
  const viewsText = info.find((t) => /\bviews?\b/i.test(t));
  const durationText = text(p.lengthText);
  const upcoming = str(at(p, 'upcomingEventData', 'startTime'));
  return compact({
    type: 'video' as const,
    id,
    url: watchUrl(id),
    title: need(text(p.title), 'playlistVideoRenderer without a title'),
    author: personFromRuns(p.shortBylineText),
    index: int(text(p.index)),
    isPlayable: bool(p.isPlayable) ?? false,
    durationText,
    durationSeconds: int(p.lengthSeconds) ?? seconds(durationText),
    viewsText,
    views: countText(viewsText),
    publishedText: info.find((t) => /\bago\b/i.test(t)),
    thumbnails: images(p.thumbnail),
    isUpcoming: upcoming ? true : undefined,
    scheduledAt: upcoming ? isoSeconds(upcoming) : undefined,
  });
}

function reelItem(r: Obj): ListEntry | undefined {
  const id = str(r.videoId);
  if (!id) return undefined;
  const viewsText = text(r.viewCountText);
  return compact({ type: 'video' as const, id, url: shortsUrl(id), title: need(text(r.headline), 'reelItemRenderer without a headline'), viewsText, views: countText(viewsText), thumbnails: images(r.thumbnail), isShort: true });
}

/** A community post (`backstagePostRenderer`, field names as youtubei.js's BackstagePost reads them). */
function backstagePost(p: Obj): ListEntry | undefined {
  const id = str(p.postId);
  if (!id) return undefined;
  const attachment = obj(p.backstageAttachment);
  const imgs = [
    ...objs(at(attachment, 'postMultiImageRenderer', 'images')).map((i) => largest(images(at(i, 'backstageImageRenderer', 'image')))),
    largest(images(at(attachment, 'backstageImageRenderer', 'image'))),
  ].filter((u): u is string => !!u);
  return compact({
    type: 'post' as const,
    id,
    url: `${WEB}/post/${id}`,
    text: rawText(p.contentText),
    author: authorOfPost(p),
    publishedText: text(p.publishedTimeText),
    likes: countText(p.voteCount),
    comments: countText(at(p, 'actionButtons', 'commentActionButtonsRenderer', 'replyButton', 'buttonRenderer', 'text')),
    images: imgs.length ? imgs.map((url) => ({ url })) : undefined,
  });
}

/** A post names its author in `authorText`, the channel link sitting beside it in `authorEndpoint`. */
function authorOfPost(p: Obj): Person | undefined {
  const name = text(p.authorText);
  const browse = obj(at(p, 'authorEndpoint', 'browseEndpoint'));
  if (!browse) return personFromRuns(p.authorText);
  return personFromRun({ text: name, navigationEndpoint: { browseEndpoint: browse } });
}

const MAPPERS: Record<string, (o: Obj) => ListEntry | undefined> = {
  videoRenderer,
  compactVideoRenderer: videoRenderer,
  gridVideoRenderer: videoRenderer,
  lockupViewModel,
  shortsLockupViewModel: shortsLockup,
  reelItemRenderer: reelItem,
  channelRenderer,
  playlistRenderer,
  gridPlaylistRenderer: playlistRenderer,
  playlistVideoRenderer: playlistVideo as (o: Obj) => ListEntry | undefined,
  backstagePostRenderer: backstagePost,
  postRenderer: backstagePost,
};

/** Wrappers whose children are entries of the same list (shelves of other topics are left out on purpose). */
const WRAPPERS: [string, string][] = [
  ['richItemRenderer', 'content'],
  ['itemSectionRenderer', 'contents'],
  ['gridRenderer', 'items'],
  ['backstagePostThreadRenderer', 'post'],
];

/**
 * The entries and the continuation of a list of renderers (a search page, a channel tab, a continuation answer).
 * Unknown renderers (ads, shelves, promos) are skipped; an entry a mapper cannot read fails as sourceChanged.
 */
export function listEntries(contents: unknown, maxDepth = 4): { items: ListEntry[]; token?: string; seen: number } {
  const items: ListEntry[] = [];
  let token: string | undefined;
  let seen = 0;
  const visit = (list: unknown, depth: number): void => {
    for (const item of objs(Array.isArray(list) ? list : [list])) {
      token = continuationToken(item) ?? token;
      const wrapper = WRAPPERS.find(([k]) => isObj(item[k]));
      if (wrapper && depth < maxDepth) {
        visit(obj(item[wrapper[0]])?.[wrapper[1]], depth + 1);
        continue;
      }
      for (const [key, map] of Object.entries(MAPPERS)) {
        const r = obj(item[key]);
        if (!r) continue;
        seen++;
        const entry = map(r);
        if (entry) items.push(entry);
        break;
      }
    }
  };
  visit(contents, 0);
  return { items, token, seen };
}

/** The continuation items of a continuation answer (`onResponseReceived…` append/reload actions). */
export function continuationItems(answer: Obj): unknown[] | undefined {
  for (const key of ['onResponseReceivedActions', 'onResponseReceivedCommands', 'onResponseReceivedEndpoints']) {
    const actions = objs(answer[key]);
    const found = actions
      .map((a) => arr(at(a, 'appendContinuationItemsAction', 'continuationItems') ?? at(a, 'reloadContinuationItemsCommand', 'continuationItems')))
      .filter((l) => l.length);
    if (found.length) return found.flat();
  }
  return undefined;
}

export { arr, bool, compact, int, isObj, num, obj, objs, str, type Obj };
