/**
 * Instagram answers → records. Instagram speaks two dialects of one media item: the web's GraphQL nodes
 * (`shortcode`, `taken_at_timestamp`, `edge_liked_by`; web_profile_info, the GraphQL lists) and the app API's items
 * (`code`, `taken_at`, `like_count`; media info, reels). Both become the one post record. Pure functions.
 */
import type { INSTAGRAM_COMMENT, INSTAGRAM_POST, INSTAGRAM_PROFILE } from '../../catalogue/endpoints/instagram.js';
import type { INSTAGRAM } from '../../catalogue/endpoints/instagram.js';
import type { OutputOf, TypeOf } from '../../catalogue/types.js';
import { bool, changed, compact, int, isObj, isoFromSeconds, need, num, obj, objs, str, type Obj } from '../kit/read.js';
import { hashtagsOf, mentionsOf } from '../kit/text.js';

export type InstagramPost = TypeOf<typeof INSTAGRAM_POST>;
export type InstagramProfile = TypeOf<typeof INSTAGRAM_PROFILE>;
export type InstagramComment = TypeOf<typeof INSTAGRAM_COMMENT>;
export type SearchResult = OutputOf<typeof INSTAGRAM.search>['results'][number];
export type Hashtag = OutputOf<typeof INSTAGRAM.hashtag>['hashtag'];

export const WEB = 'https://www.instagram.com';
const SOURCE = 'instagram';
const needed = <T>(v: T | undefined | null, what: string): T => need(v, SOURCE, what);

/** A connection page: the items, the total Instagram counts, and the next page's token. */
export interface Page<T> {
  items: T[];
  total?: number;
  next?: string;
}

const countOf = (v: unknown): number | undefined => int(obj(v)?.count);

// ---- the web's GraphQL nodes ----------------------------------------------------------------------------------------

/** One GraphQL media node (`GraphImage`, `GraphVideo`, `GraphSidecar`). */
export function graphPost(node: unknown): InstagramPost {
  if (!isObj(node)) throw changed(SOURCE, 'a media edge without a node');
  const code = needed(str(node.shortcode), 'a media node without a shortcode');
  const text = str(obj(objs(obj(node.edge_media_to_caption)?.edges)[0]?.node)?.text);
  const owner = obj(node.owner);
  const isVideo = bool(node.is_video);
  const images = objs(obj(node.edge_sidecar_to_children)?.edges).flatMap((e) => {
    const image = isObj(e.node) ? graphImage(e.node) : undefined;
    return image ? [image] : [];
  });
  const single = graphImage(node);
  return compact({
    type: 'post' as const,
    id: needed(str(node.id), `media ${code} without an id`),
    url: `${WEB}/p/${code}/`,
    createdAt: needed(isoFromSeconds(node.taken_at_timestamp), `media ${code} without taken_at_timestamp`),
    text,
    author: owner ? compact({ id: str(owner.id), username: str(owner.username), url: userUrl(str(owner.username)) }) : undefined,
    likes: countOf(node.edge_liked_by) ?? countOf(node.edge_media_preview_like),
    comments: countOf(node.edge_media_to_comment),
    views: isVideo ? int(node.video_view_count) : undefined,
    isVideo,
    hashtags: hashtagsOf(text),
    mentions: mentionsOf(text),
    thumbnail: str(node.thumbnail_src),
    images: images.length > 0 ? images : single ? [single] : undefined,
    video: isVideo && str(node.video_url) ? compact({ url: str(node.video_url) }) : undefined,
  });
}

type Image = NonNullable<InstagramPost['images']>[number];

function graphImage(n: Obj): Image | undefined {
  const url = str(n.display_url);
  if (!url) return undefined;
  const dims = obj(n.dimensions);
  return compact({ url, width: int(dims?.width), height: int(dims?.height), alt: str(n.accessibility_caption) });
}

/** A GraphQL connection of media (`edge_owner_to_timeline_media`, `edge_hashtag_to_media`, …). */
export function graphPosts(connection: unknown, what: string): Page<InstagramPost> {
  const c = obj(connection);
  if (!c || !Array.isArray(c.edges)) throw changed(SOURCE, `${what} without edges`);
  const info = obj(c.page_info);
  return {
    items: objs(c.edges).map((e) => graphPost(e.node)),
    total: int(c.count),
    next: info?.has_next_page === true ? str(info.end_cursor) : undefined,
  };
}

/** One GraphQL comment node. */
export function graphComment(node: unknown): InstagramComment {
  if (!isObj(node)) throw changed(SOURCE, 'a comment edge without a node');
  const id = needed(str(node.id), 'a comment without an id');
  const owner = obj(node.owner);
  return compact({
    type: 'comment' as const,
    id,
    text: needed(typeof node.text === 'string' ? node.text : undefined, `comment ${id} without text`),
    createdAt: needed(isoFromSeconds(node.created_at), `comment ${id} without created_at`),
    author: owner
      ? compact({ id: str(owner.id), username: str(owner.username), url: userUrl(str(owner.username)), avatar: str(owner.profile_pic_url), isVerified: bool(owner.is_verified) })
      : undefined,
    likes: countOf(node.edge_liked_by),
    replies: countOf(node.edge_threaded_comments),
  });
}

export function graphComments(connection: unknown): Page<InstagramComment> {
  const c = obj(connection);
  if (!c || !Array.isArray(c.edges)) throw changed(SOURCE, 'comments without edges');
  const info = obj(c.page_info);
  return {
    items: objs(c.edges).map((e) => graphComment(e.node)),
    total: int(c.count),
    next: info?.has_next_page === true ? str(info.end_cursor) : undefined,
  };
}

export function hashtagRecord(h: Obj): Hashtag {
  const name = needed(str(h.name), 'a hashtag without a name');
  return compact({
    type: 'hashtag' as const,
    id: needed(str(h.id), `hashtag ${name} without an id`),
    name,
    url: `${WEB}/explore/tags/${encodeURIComponent(name)}/`,
    posts: countOf(h.edge_hashtag_to_media),
    avatar: str(h.profile_pic_url_hd) ?? str(h.profile_pic_url),
  });
}

// ---- web_profile_info ------------------------------------------------------------------------------------------------

export function profileRecord(user: Obj): InstagramProfile {
  const username = needed(str(user.username), 'a profile without a username');
  const p = (what: string) => `profile ${username} without ${what}`;
  return compact({
    type: 'profile' as const,
    id: needed(str(user.id), p('an id')),
    username,
    url: userUrl(username)!,
    name: str(user.full_name),
    bio: str(user.biography),
    avatar: str(user.profile_pic_url_hd) ?? str(user.profile_pic_url),
    isVerified: bool(user.is_verified),
    isPrivate: bool(user.is_private),
    followers: needed(countOf(user.edge_followed_by), p('a follower count')),
    following: needed(countOf(user.edge_follow), p('a following count')),
    posts: needed(countOf(user.edge_owner_to_timeline_media), p('a post count')),
    website: str(user.external_url),
    category: str(user.category_name) ?? str(user.business_category_name),
    isBusiness: bool(user.is_business_account),
  });
}

// ---- the app API's items (media info, reels) -------------------------------------------------------------------------

/** One app-API media item (`items[]` of media info, `items[].media` of the reels list). */
export function appPost(item: unknown): InstagramPost {
  if (!isObj(item)) throw changed(SOURCE, 'a media item that is not an object');
  const code = needed(str(item.code), 'a media item without a code');
  // `pk` overflows a double as JSON gives it; `id` ("<pk>_<owner>") keeps every digit as a string.
  const id = str(item.id)?.split('_')[0] ?? (typeof item.pk === 'string' ? item.pk : undefined);
  const text = str(obj(item.caption)?.text);
  const isVideo = int(item.media_type) === 2;
  const user = obj(item.user);
  const carousel = objs(item.carousel_media).flatMap((c) => {
    const image = bestCandidate(c);
    return image ? [image] : [];
  });
  const single = bestCandidate(item);
  const video = objs(item.video_versions)[0];
  const path = item.product_type === 'clips' ? 'reel' : 'p';
  return compact({
    type: 'post' as const,
    id: needed(id, `media ${code} without an id`),
    url: `${WEB}/${path}/${code}/`,
    createdAt: needed(isoFromSeconds(item.taken_at), `media ${code} without taken_at`),
    text,
    author: user
      ? compact({
          id: user.pk === undefined ? undefined : String(user.pk),
          username: str(user.username),
          name: str(user.full_name),
          url: userUrl(str(user.username)),
          avatar: str(user.profile_pic_url),
          isVerified: bool(user.is_verified),
        })
      : undefined,
    likes: int(item.like_count),
    comments: int(item.comment_count),
    views: isVideo ? (int(item.play_count) ?? int(item.view_count)) : undefined,
    isVideo,
    hashtags: hashtagsOf(text),
    mentions: mentionsOf(text),
    thumbnail: isVideo ? single?.url : undefined,
    images: carousel.length > 0 ? carousel : !isVideo && single ? [single] : undefined,
    video:
      isVideo && video
        ? compact({
            url: str(video.url),
            width: int(video.width),
            height: int(video.height),
            durationSeconds: int(num(item.video_duration)),
            thumbnail: single?.url,
          })
        : undefined,
  });
}

/** The largest of an item's image candidates (Instagram lists them largest first, but does not promise it). */
function bestCandidate(item: Obj): Image | undefined {
  let best: Obj | undefined;
  for (const c of objs(obj(item.image_versions2)?.candidates)) {
    if (!str(c.url)) continue;
    if (!best || (int(c.width) ?? 0) > (int(best.width) ?? 0)) best = c;
  }
  return best ? compact({ url: str(best.url)!, width: int(best.width), height: int(best.height) }) : undefined;
}

// ---- search ----------------------------------------------------------------------------------------------------------

/** The search box's answer (`users[].user`, `hashtags[].hashtag`, `places[].place`), one list of it. */
export function searchResults(body: Obj, type: 'users' | 'hashtags' | 'places'): SearchResult[] {
  const list = body[type];
  if (!Array.isArray(list)) throw changed(SOURCE, `search answer without ${type}`);
  return objs(list).flatMap((entry): SearchResult[] => {
    if (type === 'users') {
      const u = obj(entry.user);
      const username = str(u?.username);
      if (!u || !username) return [];
      return [compact({ type: 'profile' as const, url: userUrl(username)!, id: str(u.pk) ?? str(u.pk_id) ?? (typeof u.pk === 'number' ? String(u.pk) : undefined), username, name: str(u.full_name), avatar: str(u.profile_pic_url), isVerified: bool(u.is_verified), isPrivate: bool(u.is_private) })];
    }
    if (type === 'hashtags') {
      const h = obj(entry.hashtag);
      const name = str(h?.name);
      if (!h || !name) return [];
      return [compact({ type: 'hashtag' as const, url: `${WEB}/explore/tags/${encodeURIComponent(name)}/`, id: h.id === undefined ? undefined : String(h.id), name, posts: int(h.media_count) })];
    }
    const place = obj(entry.place);
    const loc = obj(place?.location);
    const pk = loc?.pk === undefined ? undefined : String(loc.pk);
    if (!place || !pk) return [];
    const lat = num(loc!.lat);
    const lng = num(loc!.lng);
    return [
      compact({
        type: 'place' as const,
        url: `${WEB}/explore/locations/${pk}/`,
        id: pk,
        name: str(place.title) ?? str(loc!.name),
        address: str(loc!.address) ?? str(place.subtitle),
        location: lat !== undefined && lng !== undefined ? { latitude: lat, longitude: lng } : undefined,
      }),
    ];
  });
}

export function userUrl(username: string | undefined): string | undefined {
  return username ? `${WEB}/${username}/` : undefined;
}
