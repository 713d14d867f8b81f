/**
 * TikTok answers → records. One item shape serves every list (the video page's `itemStruct`, the web API's
 * `itemList`/`item_list` entries); counts are read from `statsV2` (exact, as strings) before `stats` (rounded to three
 * figures). Pure functions.
 */
import type { TIKTOK_AD, TIKTOK_AD_DETAIL, TIKTOK_COMMENT, TIKTOK_PROFILE, TIKTOK_VIDEO } from '../../catalogue/endpoints/tiktok.js';
import { QuarryError } from '../../errors.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, bool, changed, compact, count, int, isObj, isoFromMillis, isoFromSeconds, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import { hashtagsOf } from '../kit/text.js';

export type TiktokVideo = TypeOf<typeof TIKTOK_VIDEO>;
export type TiktokProfile = TypeOf<typeof TIKTOK_PROFILE>;
export type TiktokComment = TypeOf<typeof TIKTOK_COMMENT>;
export type Ad = TypeOf<typeof TIKTOK_AD>;
export type AdDetail = TypeOf<typeof TIKTOK_AD_DETAIL>;

export const WEB = 'https://www.tiktok.com';
const SOURCE = 'tiktok';
const needed = <T>(v: T | undefined | null, what: string): T => need(v, SOURCE, what);

/** A count from the exact `statsV2` when it has it, else the rounded `stats`. */
function stat(exact: Obj | undefined, rounded: Obj | undefined, key: string): number | undefined {
  return int(exact?.[key]) ?? int(rounded?.[key]);
}

export const profileUrl = (username: string): string => `${WEB}/@${username}`;

function person(a: Obj | undefined): TiktokVideo['author'] {
  if (!a) return undefined;
  const username = str(a.uniqueId) ?? str(a.unique_id);
  return compact({
    id: str(a.id) ?? str(a.uid),
    username,
    name: str(a.nickname),
    url: username ? profileUrl(username) : undefined,
    avatar: str(a.avatarLarger) ?? str(a.avatarMedium) ?? str(a.avatarThumb) ?? str(arr(obj(a.avatar_thumb)?.url_list)[0]),
    isVerified: bool(a.verified),
  });
}

/** One item (`itemStruct`, an `itemList` entry). */
export function videoRecord(item: unknown): TiktokVideo {
  if (!isObj(item)) throw changed(SOURCE, 'a video that is not an object');
  const id = needed(str(item.id), 'a video without an id');
  const v = (what: string) => `video ${id} without ${what}`;
  const author = person(obj(item.author));
  const exact = obj(item.statsV2);
  const stats = needed(obj(item.stats) ?? exact, v('stats'));
  const video = obj(item.video);
  const music = obj(item.music);
  const text = str(item.desc);
  const extras = objs(item.textExtra);
  const tags = extras.flatMap((t) => (str(t.hashtagName) ? [str(t.hashtagName)!] : []));
  const mentions = extras.flatMap((t) => (str(t.userUniqueId) ? [str(t.userUniqueId)!] : []));
  const cover = str(video?.cover) ?? str(video?.originCover);
  const captions = objs(obj(video?.claInfo)?.captionInfos).flatMap((c) => {
    const url = str(c.url);
    return url ? [compact({ url, language: str(c.languageCode) ?? str(c.language), format: str(c.captionFormat), isAutomatic: bool(c.isAutoGen) })] : [];
  });
  return compact({
    type: 'video' as const,
    id,
    url: `${WEB}/@${author?.username ?? '_'}/video/${id}`,
    description: text,
    publishedAt: needed(isoFromSeconds(item.createTime), v('createTime')),
    durationSeconds: int(video?.duration),
    views: needed(stat(exact, stats, 'playCount'), v('a play count')),
    likes: needed(stat(exact, stats, 'diggCount'), v('a like count')),
    comments: needed(stat(exact, stats, 'commentCount'), v('a comment count')),
    shares: stat(exact, stats, 'shareCount'),
    reposts: int(exact?.repostCount),
    bookmarks: stat(exact, stats, 'collectCount'),
    author,
    thumbnails: cover ? [compact({ url: cover, width: int(video?.width), height: int(video?.height) })] : undefined,
    hashtags: tags.length > 0 ? [...new Set(tags)] : hashtagsOf(text),
    mentions: mentions.length > 0 ? [...new Set(mentions)] : undefined,
    language: str(item.textLanguage),
    isAd: bool(item.isAd),
    isPinned: bool(item.isPinnedItem),
    video: video
      ? compact({ url: str(video.playAddr) ?? str(video.downloadAddr), durationSeconds: int(video.duration), width: int(video.width), height: int(video.height), thumbnail: cover })
      : undefined,
    music: music && str(music.title) ? compact({ title: str(music.title)!, id: str(music.id), author: str(music.authorName), isOriginal: bool(music.original) }) : undefined,
    captions: captions.length > 0 ? captions : undefined,
  });
}

/** A list of items (`itemList`, `item_list`); entries that are not objects are dropped, a changed one is drift. */
export const videoRecords = (list: unknown): TiktokVideo[] => objs(list).map(videoRecord);

/** `userInfo` of the profile page. */
export function profileRecord(userInfo: Obj): TiktokProfile {
  const user = needed(obj(userInfo.user), 'a profile without user');
  const username = needed(str(user.uniqueId), 'a profile without uniqueId');
  const p = (what: string) => `profile ${username} without ${what}`;
  const exact = obj(userInfo.statsV2);
  const stats = needed(obj(userInfo.stats) ?? exact, p('stats'));
  return compact({
    type: 'profile' as const,
    id: needed(str(user.id), p('an id')),
    username,
    url: profileUrl(username),
    name: str(user.nickname),
    bio: str(user.signature),
    avatar: str(user.avatarLarger) ?? str(user.avatarMedium),
    isVerified: bool(user.verified),
    isPrivate: bool(user.privateAccount),
    followers: needed(stat(exact, stats, 'followerCount'), p('a follower count')),
    following: needed(stat(exact, stats, 'followingCount'), p('a following count')),
    likes: needed(stat(exact, stats, 'heartCount') ?? stat(exact, stats, 'heart'), p('a like count')),
    posts: needed(stat(exact, stats, 'videoCount'), p('a video count')),
    createdAt: (int(user.createTime) ?? 0) > 0 ? isoFromSeconds(user.createTime) : undefined,
    website: bioLink(str(obj(user.bioLink)?.link)),
    language: str(user.language),
  });
}

const bioLink = (link: string | undefined): string | undefined => (link ? (/^https?:\/\//i.test(link) ? link : `https://${link}`) : undefined);

/** TikTok's oEmbed answer: the video as an embed knows it (no time or counts). */
export function oembedVideo(body: Obj, id: string): TiktokVideo {
  const username = str(body.author_unique_id);
  const name = str(body.author_name);
  const thumb = str(body.thumbnail_url);
  return compact({
    type: 'video' as const,
    id: str(body.embed_product_id) ?? id,
    url: `${WEB}/@${username ?? '_'}/video/${str(body.embed_product_id) ?? id}`,
    description: needed(typeof body.title === 'string' ? body.title : undefined, 'an oEmbed answer without a title'),
    author: compact({ username, name, url: str(body.author_url) ?? (username ? profileUrl(username) : undefined) }),
    thumbnails: thumb ? [compact({ url: thumb, width: int(body.thumbnail_width), height: int(body.thumbnail_height) })] : undefined,
    hashtags: hashtagsOf(str(body.title)),
  });
}

/** One web-API comment (`comments[]` of /api/comment/list/). */
export function commentRecord(c: unknown): TiktokComment {
  if (!isObj(c)) throw changed(SOURCE, 'a comment that is not an object');
  const id = needed(str(c.cid), 'a comment without a cid');
  const user = obj(c.user);
  const username = str(user?.unique_id);
  return compact({
    type: 'comment' as const,
    id,
    text: needed(typeof c.text === 'string' ? c.text : undefined, `comment ${id} without text`),
    createdAt: needed(isoFromSeconds(c.create_time), `comment ${id} without create_time`),
    author: user
      ? compact({ id: str(user.uid), username, name: str(user.nickname), url: username ? profileUrl(username) : undefined, avatar: str(arr(obj(user.avatar_thumb)?.url_list)[0]) })
      : undefined,
    likes: int(c.digg_count),
    replies: int(c.reply_comment_total),
    isPinned: c.stick_position === undefined ? undefined : int(c.stick_position) !== 0,
    isByAuthor: bool(c.is_author_digged),
    language: str(c.comment_language),
  });
}

// ---- the ad library ----------------------------------------------------------------------------------------------------

/** "0-1K", "10K-100K", "1M+" → a range of people; anything else is left out rather than guessed. */
export function audienceOf(bucket: unknown): Ad['audience'] {
  const s = str(bucket);
  const m = s && /^\s*([\d.,]+\s*[KMB]?)\s*(?:-\s*([\d.,]+\s*[KMB]?)|(\+))\s*$/i.exec(s);
  if (!m) return undefined;
  return compact({ min: count(m[1]), max: m[2] ? count(m[2]) : undefined });
}

/** One ad of the library's search answer (`data[]`). */
export function adRecord(ad: unknown, country: string): Ad {
  if (!isObj(ad)) throw changed(SOURCE, 'an ad that is not an object');
  const id = needed(str(ad.id), 'an ad without an id');
  const videos = objs(ad.videos).flatMap((v) => (str(v.video_url) ? [compact({ url: str(v.video_url), thumbnail: str(v.cover_img) })] : []));
  const images = arr(ad.image_urls).flatMap((u) => (str(u) ? [{ url: str(u)! }] : []));
  const name = str(ad.name);
  const lastShown = num(ad.last_shown_date);
  return compact({
    type: 'ad' as const,
    id,
    url: `https://library.tiktok.com/ads/detail/?ad_id=${encodeURIComponent(id)}&region=${country.toUpperCase()}`,
    advertiser: name ? { name } : undefined,
    titles: str(ad.title) ? [str(ad.title)!] : undefined,
    format: videos.length > 0 && images.length > 0 ? 'mixed' : videos.length > 0 ? 'video' : images.length > 0 ? 'image' : undefined,
    images: images.length > 0 ? images : undefined,
    videos: videos.length > 0 ? videos : undefined,
    startedAt: millis(ad.first_shown_date),
    endedAt: lastShown !== undefined ? millis(lastShown) : undefined,
    audience: audienceOf(ad.estimated_audience),
  });
}

/** The library gives its dates in milliseconds (a 10-digit value is read as seconds). */
function millis(v: unknown): string | undefined {
  const n = num(v);
  if (n === undefined || n <= 0) return undefined;
  return n > 1e11 ? isoFromMillis(n) : isoFromSeconds(n);
}

// ---- one ad, through the Commercial Content API -----------------------------------------------------------------

/** The API's days: 20210101 (a number or a string) → 2021-01-01. */
function dayOf(v: unknown): string | undefined {
  const s = typeof v === 'number' ? String(v) : str(v);
  const m = s && /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) return undefined;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  return new Date(`${day}T00:00:00Z`).toISOString().startsWith(day) ? day : undefined;
}

/** TikTok's rounded people counts ("30K", "1.2M"); a range or anything else is left out rather than read as one. */
function people(v: unknown): number | undefined {
  const s = typeof v === 'number' ? String(v) : str(v);
  return s && /^\s*[\d.,]+\s*[KMB]?\s*$/i.test(s) ? count(s) : undefined;
}

/** The keys of TikTok's `{ "25-34": true, … }` maps that are true. */
const chosen = (v: unknown): string[] => Object.entries(obj(v) ?? {}).flatMap(([k, on]) => (on === true && k.length <= 40 ? [k] : []));

const SEGMENTS = ['audience_targeting', 'interest', 'video_interactions', 'creator_interactions'] as const;

function targetingOf(t: Obj | undefined): AdDetail['targeting'] {
  if (!t) return undefined;
  const genders = chosen(t.gender);
  return compact({
    ages: chosen(t.age),
    gender: genders.length > 1 ? 'all' : genders[0],
    locations: arr(t.country).flatMap((c) => (str(c) && /^[A-Za-z]{2}$/.test(str(c)!) ? [{ name: str(c)!.toUpperCase(), type: 'country' }] : [])),
    segments: SEGMENTS.flatMap((category) => {
      const value = str(t[category]);
      return value ? [{ category, name: value.slice(0, 500) }] : [];
    }),
  });
}

/**
 * One ad from the Commercial Content API's `data` (`ad`, `advertiser`, `ad_group`), its long ids already read as text
 * (./research.ts). An answer without its ad is TikTok saying it has none.
 */
export function adDetailRecord(data: Obj, id: string, region?: string): AdDetail {
  const ad = obj(data.ad);
  if (!ad || !Object.keys(ad).length) throw new QuarryError('notFound', `ad: TikTok's ad library has no ad ${id}`);
  const named = typeof ad.id === 'number' && Number.isSafeInteger(ad.id) ? String(ad.id) : str(ad.id);
  if (named !== undefined && named !== id) throw changed(SOURCE, `the answer for ad ${id} names ad ${named}`);
  const advertiser = obj(data.advertiser) ?? {};
  const account = obj(advertiser.tiktok_account);
  const group = obj(data.ad_group);
  const reach = obj(ad.reach);
  const targeting = obj(group?.targeting_info) ?? obj(group?.target);
  const videos = objs(ad.videos).flatMap((v) => {
    const video = compact({ url: str(v.url), thumbnail: str(v.cover_image_url) });
    return Object.keys(video).length ? [video] : [];
  });
  const images = arr(ad.image_urls).flatMap((u) => (str(u) ? [{ url: str(u)! }] : []));
  const status = str(ad.status)?.toLowerCase();
  const businessId = typeof advertiser.business_id === 'number' && Number.isSafeInteger(advertiser.business_id) ? String(advertiser.business_id) : str(advertiser.business_id);
  const audience = str(targeting?.number_of_users_targeted);
  const targeted = people(audience);
  return compact({
    type: 'ad' as const,
    id,
    url: `https://library.tiktok.com/ads/detail/?ad_id=${id}${region ? `&region=${region}` : ''}`,
    advertiser: compact({
      id: businessId && /^\d{1,25}$/.test(businessId) ? businessId : undefined,
      name: str(advertiser.business_name),
      url: str(advertiser.profile_url) ?? str(account?.profile_url),
      avatar: str(advertiser.avatar_url) ?? str(account?.avatar_url),
    }),
    paidBy: str(advertiser.paid_for_by) ?? str(advertiser.paid_by),
    titles: str(ad.title) ? [str(ad.title)!] : undefined,
    link: str(ad.external_url) ?? str(ad.download_url),
    cta: str(ad.call_to_action),
    images,
    videos,
    format: videos.length > 0 && images.length > 0 ? 'mixed' : videos.length > 0 ? 'video' : images.length > 0 ? 'image' : undefined,
    startedAt: needed(dayOf(ad.first_shown_date), `ad ${id} without the day it was first shown`),
    endedAt: dayOf(ad.last_shown_date),
    isActive: status === 'active' ? true : status === 'inactive' ? false : undefined,
    // One rounded figure ("50K") is a range of one; TikTok's own ranges ("10K-100K") are read as such.
    audience: audienceOf(audience) ?? (targeted !== undefined ? { min: targeted, max: targeted } : undefined),
    reach: people(reach?.unique_users_seen),
    reachByCountry: Object.entries(obj(reach?.unique_users_seen_by_country) ?? {}).flatMap(([country, seen]) => {
      const n = people(seen);
      return /^[A-Za-z]{2}$/.test(country) ? [compact({ country: country.toUpperCase(), reach: n })] : [];
    }),
    targeting: targetingOf(targeting),
  });
}
