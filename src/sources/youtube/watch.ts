/**
 * The watch page's answers → records: `next` (metadata, related videos, comments, chat) and `player` (microformat,
 * playability, caption tracks). Pure functions.
 */
import type { YOUTUBE_CAPTION_LANGUAGE, YOUTUBE_COMMENT, YOUTUBE_VIDEO } from '../../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { isoFromText } from '../kit/read.js';
import {
  arr, at, bool, compact, countText, drift, images, int, isObj, listEntries, need, obj, objs, personFromRuns, rawText, str, text, watchUrl, WEB,
  type ListEntry, type Obj,
} from './normalise.js';

export type Video = TypeOf<typeof YOUTUBE_VIDEO>;
export type Comment = TypeOf<typeof YOUTUBE_COMMENT>;
export type CaptionLanguage = TypeOf<typeof YOUTUBE_CAPTION_LANGUAGE>;

/** The `contents` of the watch page's primary column. */
const primary = (next: Obj): Obj[] => objs(at(next, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents'));

/**
 * What the player says about playing a video. A bot wall is `sourceRefused`; an unknown, removed or private video is
 * `notFound`; an age gate is left to the caller (metadata stays public, captions do not).
 */
export function playability(player: Obj, videoId: string): { ok: true } | { ok: false; ageRestricted: true; reason: string } {
  const status = obj(player.playabilityStatus);
  if (!status) return { ok: true }; // a fields-restricted answer ($fields) carries none
  const kind = str(status.status);
  const reason = str(status.reason) ?? text(at(status, 'errorScreen', 'playerErrorMessageRenderer', 'reason')) ?? '';
  if (kind === 'OK' || kind === 'LIVE_STREAM_OFFLINE') return { ok: true };
  if (/not a bot|unusual traffic|confirm you/i.test(reason) && !/age/i.test(reason)) {
    throw new QuarryError('sourceRefused', `youtube: YouTube asked for a sign-in to prove this server is not a bot ("${reason}"); an outbound proxy (QUARRY_YOUTUBE_PROXY) may help`);
  }
  if (kind === 'LOGIN_REQUIRED' && /inappropriate|age|confirm your age/i.test(reason + JSON.stringify(status.errorScreen ?? '').slice(0, 2000))) {
    return { ok: false, ageRestricted: true, reason };
  }
  if (kind === 'ERROR' || kind === 'UNPLAYABLE' || kind === 'LOGIN_REQUIRED' || kind === 'CONTENT_CHECK_REQUIRED') {
    throw new QuarryError('notFound', `video: ${videoId} is not available (${reason || kind})`);
  }
  throw drift(`player answered an unknown playability status ${kind}`);
}

/** `youtube.video`: the watch page (`next`) and the player's microformat, joined. */
export function normaliseVideo(videoId: string, next: Obj, player: Obj): { video: Video; related: ListEntry[] } {
  const contents = primary(next);
  const info = obj(contents.map((c) => c.videoPrimaryInfoRenderer).find(isObj));
  const secondary = obj(contents.map((c) => c.videoSecondaryInfoRenderer).find(isObj));
  const micro = obj(at(player, 'microformat', 'playerMicroformatRenderer'));
  if (!info && !micro) {
    // The watch page of an unknown or removed video holds an error panel instead of the video's renderers.
    const unavailable = contents.some((c) => JSON.stringify(c).slice(0, 4000).match(/backgroundPromoRenderer|isn.t available|unavailable/i));
    if (unavailable) throw new QuarryError('notFound', `video: ${videoId} is not available`);
    throw drift('the watch page has neither the video renderers nor a microformat');
  }
  const owner = obj(at(secondary, 'owner', 'videoOwnerRenderer'));
  const ownerPerson = personFromRuns(owner?.title);
  const viewCount = obj(at(info, 'viewCount', 'videoViewCountRenderer'));
  const isLive = bool(viewCount?.isLive) ?? (at(micro, 'liveBroadcastDetails', 'isLiveNow') === true ? true : undefined);
  const likesText = likeText(info);
  const broadcast = obj(micro?.liveBroadcastDetails);
  const publishedAt = isoFromText(micro?.publishDate) ?? isoFromText(micro?.uploadDate);
  const thumbs = images(micro?.thumbnail) ?? images(at(player, 'videoDetails', 'thumbnail'));
  const video: Video = compact({
    type: 'video' as const,
    id: videoId,
    url: watchUrl(videoId),
    title: need(text(micro?.title) ?? text(info?.title), 'the video has no title'),
    author: compact({
      id: need(str(micro?.externalChannelId) ?? ownerPerson?.id, "the video's channel id is missing"),
      name: need(str(micro?.ownerChannelName) ?? ownerPerson?.name, "the video's channel name is missing"),
      username: ownerPerson?.username ?? handleOf(str(micro?.ownerProfileUrl)),
      url: ownerPerson?.url ?? str(micro?.ownerProfileUrl)?.replace(/^http:/, 'https:'),
      avatar: images(at(owner, 'thumbnail'))?.at(-1)?.url,
      isVerified: ownerVerified(owner),
    }),
    views: need(int(micro?.viewCount) ?? int(viewCount?.originalViewCount) ?? countText(at(viewCount, 'viewCount')), 'the video has no view count'),
    viewsText: text(at(viewCount, 'viewCount')),
    publishedAt: need(publishedAt, 'the video has no publish date'),
    uploadedAt: isoFromText(micro?.uploadDate),
    publishedText: text(info?.dateText),
    thumbnails: need(thumbs, 'the video has no thumbnails'),
    description: rawText(micro?.description) ?? rawText(secondary?.attributedDescription),
    durationSeconds: int(micro?.lengthSeconds),
    likes: int(micro?.likeCount) ?? countText(likesText?.match(/([\d,.]+[KMB]?)\s*(other )?people/i)?.[1]),
    likesText,
    comments: commentCount(next),
    category: str(micro?.category),
    hashtags: hashtags(info),
    isLive: isLive || undefined,
    isLiveContent: broadcast ? true : undefined,
    liveStartedAt: isoFromText(broadcast?.startTimestamp),
    liveEndedAt: isoFromText(broadcast?.endTimestamp),
    isShort: bool(micro?.isShortsEligible) || undefined,
    isFamilySafe: bool(micro?.isFamilySafe),
    isUnlisted: bool(micro?.isUnlisted),
    license: license(secondary),
    availableCountries: arr(micro?.availableCountries).filter((c): c is string => typeof c === 'string').slice(0, 300),
    embedUrl: str(at(micro, 'embed', 'iframeUrl')),
  });
  const related = listEntries(at(next, 'contents', 'twoColumnWatchNextResults', 'secondaryResults', 'secondaryResults', 'results')).items;
  return { video, related };
}

const handleOf = (url: string | undefined): string | undefined => (url?.includes('/@') ? decodeURIComponent(url.slice(url.indexOf('/@') + 2)) : undefined);

function ownerVerified(owner: Obj | undefined): boolean | undefined {
  const badges = objs(owner?.badges);
  return badges.length ? badges.some((b) => /VERIFIED|ARTIST/.test(String(at(b, 'metadataBadgeRenderer', 'style') ?? ''))) : undefined;
}

/** The like button's own wording ("like this video along with 72 other people"). */
function likeText(info: Obj | undefined): string | undefined {
  const s = JSON.stringify(info?.videoActions ?? '').slice(0, 200_000);
  const m = /"accessibilityText":\s*"(like this video along with [^"]{1,80})"/i.exec(s);
  return m?.[1];
}

function hashtags(info: Obj | undefined): string[] | undefined {
  const tags = objs(at(info, 'superTitleLink', 'runs')).map((r) => str(r.text)).filter((t): t is string => !!t?.startsWith('#'));
  return tags.length ? tags : undefined;
}

function license(secondary: Obj | undefined): string | undefined {
  for (const row of objs(at(secondary, 'metadataRowContainer', 'metadataRowContainerRenderer', 'rows'))) {
    const r = obj(row.metadataRowRenderer);
    if (/licen[cs]e/i.test(text(r?.title) ?? '')) return text(arr(r?.contents)[0]);
  }
  return undefined;
}

/** The comment count the watch page shows (the comments entry point's header), when it is there. */
function commentCount(next: Obj): number | undefined {
  for (const panel of objs(next.engagementPanels)) {
    const header = obj(at(panel, 'engagementPanelSectionListRenderer', 'header', 'engagementPanelTitleHeaderRenderer'));
    if (header && /comments/i.test(text(header.title) ?? '') && header.contextualInfo) return countText(header.contextualInfo);
  }
  return undefined;
}

// ---- Comments -------------------------------------------------------------------------------------------------------

/** The continuation of the watch page's comments section (top comments). */
export function commentsSectionToken(next: Obj): string | undefined {
  for (const c of primary(next)) {
    const section = obj(c.itemSectionRenderer);
    if (section && str(section.sectionIdentifier) === 'comment-item-section') {
      return str(at(section, 'contents', 0, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
    }
  }
  return undefined;
}

/** The comments page's header: total and the continuations of its sort menu (Top, Newest). */
export function commentsHeader(answer: Obj): { total?: number; totalText?: string; newest?: string } {
  for (const item of continuation(answer)) {
    const header = obj(item.commentsHeaderRenderer);
    if (!header) continue;
    const menu = objs(at(header, 'sortMenu', 'sortFilterSubMenuRenderer', 'subMenuItems'));
    const totalText = text(header.countText);
    return {
      totalText,
      total: countText(totalText),
      newest: str(at(menu[1], 'serviceEndpoint', 'continuationCommand', 'token')),
    };
  }
  return {};
}

const continuation = (answer: Obj): Obj[] =>
  objs(answer.onResponseReceivedEndpoints).flatMap((e) => objs(at(e, 'reloadContinuationItemsCommand', 'continuationItems') ?? at(e, 'appendContinuationItemsAction', 'continuationItems')));

/**
 * A page of comments or replies. Since 2025 a thread holds only keys (`commentViewModel`); the comment itself sits in
 * `frameworkUpdates.entityBatchUpdate.mutations[].payload.commentEntityPayload`, found by its key.
 */
export function normaliseComments(answer: Obj, videoId: string, parentId?: string): { items: Comment[]; token?: string } {
  const entities = new Map<string, Obj>();
  const hearted = new Set<string>();
  for (const m of objs(at(answer, 'frameworkUpdates', 'entityBatchUpdate', 'mutations'))) {
    const payload = obj(at(m, 'payload', 'commentEntityPayload'));
    const key = str(m.entityKey) ?? str(payload?.key);
    if (payload && key) entities.set(key, payload);
    const state = obj(at(m, 'payload', 'engagementToolbarStateEntityPayload'));
    if (state && str(m.entityKey) && state.heartState === 'TOOLBAR_HEART_STATE_HEARTED') hearted.add(str(m.entityKey)!);
  }
  const items: Comment[] = [];
  let token: string | undefined;
  for (const item of continuation(answer)) {
    token = str(at(item, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token')) ??
      str(at(item, 'continuationItemRenderer', 'button', 'buttonRenderer', 'command', 'continuationCommand', 'token')) ?? token;
    const thread = obj(item.commentThreadRenderer);
    const view = obj(at(thread, 'commentViewModel', 'commentViewModel') ?? item.commentViewModel);
    if (!view) continue;
    const key = need(str(view.commentKey), 'a comment without its entity key');
    const entity = need(entities.get(key), `comment entity ${key} missing from the framework updates`);
    const repliesCursor = str(at(thread, 'replies', 'commentRepliesRenderer', 'contents', 0, 'continuationItemRenderer', 'continuationEndpoint', 'continuationCommand', 'token'));
    const c = comment(entity, view, videoId, parentId, repliesCursor);
    items.push(hearted.has(str(view.toolbarStateKey) ?? '') ? { ...c, isHearted: true } : c);
  }
  return { items, token };
}

function comment(entity: Obj, view: Obj, videoId: string, parentId: string | undefined, repliesCursor: string | undefined): Comment {
  const props = obj(entity.properties);
  const author = obj(entity.author);
  const toolbar = need(obj(entity.toolbar), 'a comment without its toolbar (likes, replies)');
  const id = need(str(props?.commentId) ?? str(view.commentId), 'a comment without an id');
  const published = str(props?.publishedTime);
  const channelId = str(author?.channelId);
  const handle = str(author?.displayName);
  const likesText = str(toolbar.likeCountNotliked);
  return compact({
    type: 'comment' as const,
    id,
    url: `${watchUrl(videoId)}&lc=${id}`,
    text: need(rawText(props?.content), 'a comment without text'),
    author: compact({
      id: channelId,
      username: handle?.startsWith('@') ? handle.slice(1) : undefined,
      name: handle,
      url: channelId ? `${WEB}/channel/${channelId}` : undefined,
      avatar: str(author?.avatarThumbnailUrl),
      isVerified: bool(author?.isVerified),
    }),
    likes: countText(likesText) ?? 0,
    likesText,
    replies: countText(str(toolbar.replyCount)) ?? 0,
    publishedText: published?.replace(/\s*\(edited\)\s*$/i, ''),
    isEdited: /\(edited\)/i.test(published ?? '') || undefined,
    isPinned: str(view.pinnedText) ? true : undefined,
    isByAuthor: bool(author?.isCreator) || undefined,
    repliesCursor,
    parentId,
  });
}

// ---- Captions -------------------------------------------------------------------------------------------------------

export interface CaptionTrack {
  code: string;
  name: string;
  isGenerated: boolean;
  isTranslatable: boolean;
  baseUrl: string;
}

/** The caption tracks and translation languages a player answer offers. */
export function captionTracks(player: Obj): { tracks: CaptionTrack[]; translations: CaptionLanguage[] } {
  const list = obj(at(player, 'captions', 'playerCaptionsTracklistRenderer'));
  const tracks = objs(list?.captionTracks).flatMap((t) => {
    const code = str(t.languageCode);
    const baseUrl = str(t.baseUrl);
    if (!code || !baseUrl) return [];
    return [{ code, name: text(t.name) ?? code, isGenerated: str(t.kind) === 'asr', isTranslatable: bool(t.isTranslatable) ?? false, baseUrl }];
  });
  const translations = objs(list?.translationLanguages).flatMap((l) => {
    const code = str(l.languageCode);
    return code ? [{ code, name: text(l.languageName) ?? code }] : [];
  });
  return { tracks, translations };
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescapeXml = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] !== '#') return XML_ENTITIES[e.toLowerCase()] ?? '';
    const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
  });

/**
 * A caption track in YouTube's timedtext XML (`<transcript><text start="…" dur="…">…</text></transcript>`). Segments
 * are read with one linear scan; markup inside a segment (`<font>`) is dropped and entities are decoded twice, as
 * the track escapes its own HTML.
 */
export function parseTimedText(xml: string): { start: number; duration: number; text: string }[] {
  if (!/<transcript[\s>]/.test(xml.slice(0, 2000))) throw drift('the caption track is not timedtext XML');
  const out: { start: number; duration: number; text: string }[] = [];
  const body = xml.replace(/<!--[\s\S]*?-->/g, '');
  const re = /<text\b([^>]*)>([\s\S]*?)<\/text>/g;
  for (let m = re.exec(body); m && out.length < 100_000; m = re.exec(body)) {
    const attrs = m[1];
    const start = Number(/\bstart="([\d.]+)"/.exec(attrs)?.[1]);
    const duration = Number(/\bdur="([\d.]+)"/.exec(attrs)?.[1] ?? '0');
    const t = unescapeXml(unescapeXml(m[2]).replace(/<[^>]{0,200}>/g, '')).replace(/\s+/g, ' ').trim();
    if (Number.isFinite(start) && t) out.push({ start: Math.round(start * 1000) / 1000, duration: Math.round(duration * 1000) / 1000, text: t });
  }
  return out;
}

export { type ListEntry };
