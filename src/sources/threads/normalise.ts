/** Threads API answers → records (field meanings: developers.facebook.com/docs/threads). Pure functions. */
import type { THREADS_POST, THREADS_PROFILE } from '../../catalogue/endpoints/threads.js';
import type { TypeOf } from '../../catalogue/types.js';
import { bool, changed, compact, int, isObj, isoFromText, need, obj, objs, str, type Obj } from '../kit/read.js';
import { mentionsOf } from '../kit/text.js';

export type ThreadsProfile = TypeOf<typeof THREADS_PROFILE>;
export type ThreadsPost = TypeOf<typeof THREADS_POST>;

export const WEB = 'https://www.threads.com';
const SOURCE = 'threads';
const userUrl = (username: string) => `${WEB}/@${username}`;
/** A reference the API gives as an id or as `{id}`. */
const idOf = (v: unknown) => str(v) ?? (typeof v === 'number' ? String(v) : str(obj(v)?.id));

export function profileRecord(p: Obj): ThreadsProfile {
  const username = need(str(p.username), SOURCE, 'a profile without a username');
  const week = compact({ likes: int(p.likes_count), quotes: int(p.quotes_count), replies: int(p.replies_count), reposts: int(p.reposts_count), views: int(p.views_count) });
  return compact({
    type: 'profile' as const,
    username,
    url: userUrl(username),
    followers: need(int(p.follower_count), SOURCE, `profile ${username} without follower_count`),
    name: str(p.name),
    bio: str(p.biography),
    avatar: str(p.profile_picture_url),
    isVerified: bool(p.is_verified),
    lastWeek: week,
  });
}

type Image = NonNullable<ThreadsPost['images']>[number];

function mediaImages(m: Obj): Image[] {
  const type = str(m.media_type);
  const children = objs(obj(m.children)?.data);
  if (children.length > 0) return children.flatMap((c) => (str(c.media_type) !== 'VIDEO' && str(c.media_url) ? [compact({ url: str(c.media_url)!, alt: str(c.alt_text) })] : []));
  if (type === 'IMAGE' && str(m.media_url)) return [compact({ url: str(m.media_url)!, alt: str(m.alt_text) })];
  if (str(m.gif_url)) return [{ url: str(m.gif_url)! }];
  return [];
}

export function postRecord(m: unknown): ThreadsPost {
  if (!isObj(m)) throw changed(SOURCE, 'a post that is not an object');
  const id = need(str(m.id), SOURCE, 'a post without an id');
  const username = str(m.username);
  const shortcode = str(m.shortcode);
  const type = str(m.media_type);
  const text = str(m.text);
  const images = mediaImages(m);
  const isVideo = type === 'VIDEO';
  const topic = str(m.topic_tag);
  const link = str(m.link_attachment_url);
  const quoted = idOf(m.quoted_post);
  const reposted = idOf(m.reposted_post);
  const repliedTo = idOf(m.replied_to);
  return compact({
    type: 'post' as const,
    id,
    createdAt: need(isoFromText(m.timestamp), SOURCE, `post ${id} without a timestamp`),
    // The API omits the permalink of media flagged for copyright; the address is then built from its parts.
    url: str(m.permalink) ?? (username && shortcode ? `${userUrl(username)}/post/${shortcode}` : undefined),
    text,
    author: username ? compact({ username, url: userUrl(username), avatar: str(m.profile_picture_url), isVerified: bool(m.is_verified) }) : undefined,
    isVideo: type ? isVideo : undefined,
    hashtags: topic ? [topic] : undefined,
    mentions: mentionsOf(text),
    images: images.length > 0 ? images : undefined,
    video: isVideo && str(m.media_url) ? compact({ url: str(m.media_url), thumbnail: str(m.thumbnail_url) }) : undefined,
    link: link ? { url: link } : undefined,
    repostOf: reposted ? { id: reposted } : undefined,
    replyTo: repliedTo ? { id: repliedTo } : undefined,
    quoteOf: quoted ? { id: quoted } : undefined,
    hasReplies: bool(m.has_replies),
    mediaType: type,
  });
}

/** `data` of a list answer. */
export function postList(body: Obj, what: string): ThreadsPost[] {
  if (!Array.isArray(body.data)) throw changed(SOURCE, `${what} answer without data`);
  return objs(body.data).map(postRecord);
}
