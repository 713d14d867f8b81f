/**
 * Pinterest answers → records. A pin comes in three dialects: the pin page's relay data (`v3GetPinQuery`, camelCase),
 * the resource API's pins (snake_case: search results, board feeds) and the oEmbed answer. All become the one pin
 * record. Pure functions.
 */
import type { BOARD, PIN } from '../../catalogue/endpoints/pinterest.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, bool, changed, compact, int, isObj, isoFromText, need, num, obj, objs, str, type Obj } from '../kit/read.js';

export type Pin = TypeOf<typeof PIN>;
export type Board = TypeOf<typeof BOARD>;

export const WEB = 'https://www.pinterest.com';
const SOURCE = 'pinterest';
const needed = <T>(v: T | undefined | null, what: string): T => need(v, SOURCE, what);

const pinUrl = (id: string) => `${WEB}/pin/${id}/`;
const webUrl = (path: string | undefined) => (path ? (/^https?:/.test(path) ? path : `${WEB}${path.startsWith('/') ? '' : '/'}${path}`) : undefined);
const userUrl = (username: string | undefined) => (username ? `${WEB}/${username}/` : undefined);
/** Pinterest writes an empty description as " ". */
const text = (v: unknown) => str(v);

/** The sum of a pin's reactions (`reaction_counts`: reaction type → count). */
function reactions(counts: unknown): number | undefined {
  const o = obj(counts);
  if (!o) return undefined;
  let total = 0;
  for (const v of Object.values(o)) total += int(v) ?? 0;
  return total;
}

/** The largest playable video of a pin (`videos.video_list`: V_720P, V_HLSV4, …). */
function video(videos: unknown): Pin['video'] {
  const list = obj(obj(videos)?.video_list ?? obj(videos)?.videoList);
  if (!list) return undefined;
  let best: Obj | undefined;
  let hls: string | undefined;
  for (const [name, v] of Object.entries(list)) {
    if (!isObj(v) || !str(v.url)) continue;
    if (/HLS/i.test(name)) hls ??= str(v.url);
    else if (!best || (int(v.width) ?? 0) > (int(best.width) ?? 0)) best = v;
  }
  const any = best ?? Object.values(list).find(isObj);
  if (!any && !hls) return undefined;
  const ms = num(any?.duration);
  return compact({
    url: best ? str(best.url) : undefined,
    hls,
    width: int(any?.width),
    height: int(any?.height),
    durationSeconds: ms !== undefined ? Math.round(ms / 1000) : undefined,
    thumbnail: str(any?.thumbnail),
  });
}

// ---- the resource API (snake_case) ------------------------------------------------------------------------------------

export function resourcePin(p: unknown): Pin {
  if (!isObj(p)) throw changed(SOURCE, 'a pin that is not an object');
  const id = needed(str(p.id), 'a pin without an id');
  const pinner = obj(p.pinner);
  const board = obj(p.board);
  const images = obj(p.images);
  const orig = obj(images?.orig) ?? obj(images?.['736x']);
  const v = video(p.videos);
  const rich = obj(p.rich_summary);
  const link = str(p.link);
  return compact({
    type: 'post' as const,
    id,
    url: pinUrl(id),
    title: str(p.title) ?? str(p.grid_title),
    text: text(p.description),
    createdAt: isoFromText(p.created_at),
    author: pinner
      ? compact({ id: str(pinner.id), username: str(pinner.username), name: str(pinner.full_name), url: userUrl(str(pinner.username)), avatar: str(pinner.image_large_url) ?? str(pinner.image_medium_url) })
      : undefined,
    likes: reactions(p.reaction_counts),
    comments: int(p.comment_count),
    bookmarks: int(p.repin_count) ?? int(obj(obj(p.aggregated_pin_data)?.aggregated_stats)?.saves),
    isVideo: v ? true : bool(p.is_video),
    images: orig && str(orig.url) ? [compact({ url: str(orig.url)!, width: int(orig.width), height: int(orig.height), alt: str(p.alt_text) ?? str(p.auto_alt_text) })] : undefined,
    video: v,
    link: link ? compact({ url: link, title: str(rich?.display_name), description: str(rich?.display_description) }) : undefined,
    board: board && str(board.name) ? compact({ name: str(board.name)!, id: str(board.id), url: webUrl(str(board.url)) }) : undefined,
    category: str(p.category),
  });
}

export function resourceBoard(b: unknown): Board {
  if (!isObj(b)) throw changed(SOURCE, 'a board that is not an object');
  const id = needed(str(b.id), 'a board without an id');
  const owner = obj(b.owner);
  return compact({
    type: 'board' as const,
    id,
    url: needed(webUrl(str(b.url)), `board ${id} without an address`),
    name: needed(str(b.name), `board ${id} without a name`),
    description: str(b.description),
    pins: int(b.pin_count),
    followers: int(b.follower_count),
    sections: int(b.section_count),
    cover: str(b.image_cover_hd_url) ?? str(b.image_cover_url),
    createdAt: isoFromText(b.created_at),
    owner: owner ? compact({ id: str(owner.id), username: str(owner.username), name: str(owner.full_name), url: userUrl(str(owner.username)), avatar: str(owner.image_medium_url) }) : undefined,
  });
}

// ---- the pin page's relay data (camelCase) ------------------------------------------------------------------------------

/** Fills what `into` lacks from `from`, objects key by key (the page's queries each carry part of the pinner, board…). */
function merge(into: Obj, from: Obj, depth = 0): Obj {
  const out: Obj = { ...into };
  for (const [k, v] of Object.entries(from)) {
    if (out[k] === undefined || out[k] === null) out[k] = v;
    else if (depth < 2 && isObj(out[k]) && isObj(v)) out[k] = merge(out[k] as Obj, v, depth + 1);
  }
  return out;
}

/** The page's `v3GetPinQuery.data` objects for one pin, merged (each relay query carries part of the pin). */
export function pagePin(datas: Obj[], ld: Obj | undefined): Pin {
  const d = datas.reduce<Obj>((all, part) => merge(all, part), {});
  const id = needed(str(d.entityId), 'a pin page without entityId');
  const pinner = obj(d.pinner);
  const board = obj(d.board);
  const rich = obj(d.richMetadata);
  const orig = obj(d.imageSpec_orig) ?? obj(d.images);
  const sized = obj(d.imageSpec_736x);
  const v = video(d.videos);
  const link = str(d.link);
  const annotations = arr(obj(d.pinJoin)?.visualAnnotation).flatMap((a) => (str(a) ? [str(a)!] : []));
  return compact({
    type: 'post' as const,
    id,
    url: pinUrl(id),
    title: str(d.title) ?? str(d.gridTitle),
    text: text(d.description),
    createdAt: isoFromText(d.createdAt) ?? isoFromText(ld?.datePublished),
    author: pinner
      ? compact({ id: str(pinner.entityId), username: str(pinner.username), name: str(pinner.fullName), url: userUrl(str(pinner.username)), avatar: str(pinner.imageLargeUrl) ?? str(pinner.imageMediumUrl), isVerified: bool(obj(pinner.verifiedIdentity)?.verified) })
      : undefined,
    comments: int(obj(d.aggregatedPinData)?.commentCount),
    isVideo: v ? true : undefined,
    images: orig && str(orig.url) ? [compact({ url: str(orig.url)!, width: int(orig.width), height: int(orig.height), alt: str(d.altText) ?? str(d.autoAltText) })] : sized && str(sized.url) ? [{ url: str(sized.url)! }] : undefined,
    video: v,
    link: link ? compact({ url: link, title: str(rich?.title), description: str(rich?.description) }) : undefined,
    board: board && str(board.name) ? compact({ name: str(board.name)!, id: str(board.entityId), url: webUrl(str(board.url)) }) : undefined,
    category: str(d.category),
    topics: annotations.length > 0 ? annotations : undefined,
  });
}

/** Pinterest's oEmbed answer: the pin as an embed knows it (title, pinner, a thumbnail). */
export function oembedPin(body: Obj, id: string): Pin {
  const authorUrl = str(body.author_url);
  const username = authorUrl ? new URL(authorUrl).pathname.split('/').filter(Boolean)[0] : undefined;
  const thumb = str(body.thumbnail_url);
  return compact({
    type: 'post' as const,
    id,
    url: pinUrl(id),
    title: needed(typeof body.title === 'string' ? body.title : undefined, 'an oEmbed answer without a title') || undefined,
    author: compact({ username, name: str(body.author_name), url: authorUrl }),
    images: thumb ? [compact({ url: thumb, width: int(body.thumbnail_width), height: int(body.thumbnail_height) })] : undefined,
  });
}

export const pinsOf = (list: unknown): Pin[] => objs(list).filter((p) => p.type === undefined || p.type === 'pin').map(resourcePin);
