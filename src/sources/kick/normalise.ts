/** Pure functions from Kick's web JSON (a channel, a page of clips) to the shared records. */
import type { KICK_CHANNEL, KICK_CLIP } from '../../catalogue/endpoints/kick.js';
import type { TypeOf } from '../../catalogue/types.js';
import type { PERSON } from '../../catalogue/vocabulary.js';
import { bool, compact, int, isoFromText, readsOf, obj, objs, str, type Obj } from '../kit/read.js';

export type KickChannel = TypeOf<typeof KICK_CHANNEL>;
export type KickClip = TypeOf<typeof KICK_CLIP>;
type Person = TypeOf<typeof PERSON>;

const WEB = 'https://kick.com';
export const { need, changed } = readsOf('kick');

/** Where each social handle of a Kick profile lives; a value that is already an address is kept. */
const SOCIAL: Record<string, (handle: string) => string> = {
  instagram: (h) => `https://www.instagram.com/${h}`,
  twitter: (h) => `https://x.com/${h}`,
  youtube: (h) => `https://www.youtube.com/${h.startsWith('@') || h.startsWith('channel/') ? h : `@${h}`}`,
  tiktok: (h) => `https://www.tiktok.com/@${h.replace(/^@/, '')}`,
  facebook: (h) => `https://www.facebook.com/${h}`,
  discord: (h) => `https://discord.gg/${h}`,
};

function linksOf(user: Obj): { url: string; title: string }[] {
  return Object.entries(SOCIAL).flatMap(([network, toUrl]) => {
    const v = str(user[network]);
    if (!v) return [];
    const url = /^https?:\/\//i.test(v) ? v : /^[\w.@/-]{1,100}$/.test(v) ? toUrl(v) : undefined;
    return url ? [{ url, title: network }] : [];
  });
}

/** Kick's `verified` is a boolean, or an object (the badge) when set. */
const verifiedOf = (v: unknown): true | undefined => (v === true || (obj(v) && Object.keys(obj(v)!).length > 0) ? true : undefined);

/** Kick writes some times as `2025-05-20 18:00:05`, in UTC without saying so. */
const utc = (v: unknown): string | undefined => {
  const t = str(v);
  return t && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(t) ? isoFromText(`${t.replace(' ', 'T')}Z`) : isoFromText(t);
};

/** An image Kick gives as a string or as `{url}` / `{src}`. */
const imageOf = (v: unknown): string | undefined => str(v) ?? str(obj(v)?.url) ?? str(obj(v)?.src);

/** GET /api/v2/channels/{slug} → the channel record. */
export function channelOf(c: Obj): KickChannel {
  const id = need(str(c.id) ?? (typeof c.id === 'number' ? String(c.id) : undefined), 'channel without id');
  const slug = need(str(c.slug), `channel ${id} without slug`);
  const user = obj(c.user) ?? {};
  const stream = obj(c.livestream);
  const category = objs(stream?.categories)[0];
  return compact({
    type: 'profile' as const,
    id,
    username: slug,
    url: `${WEB}/${slug}`,
    followers: need(int(c.followers_count) ?? int(c.followersCount), `channel ${slug} without followers_count`),
    name: str(user.username),
    bio: str(user.bio),
    avatar: str(user.profile_pic),
    banner: imageOf(c.banner_image),
    isVerified: verifiedOf(c.verified),
    links: linksOf(user),
    isBanned: c.is_banned === true || undefined,
    isLive: stream ? stream.is_live !== false : false,
    live: stream
      ? compact({
          id: need(str(stream.id) ?? (typeof stream.id === 'number' ? String(stream.id) : undefined), `channel ${slug}: a livestream without id`),
          title: str(stream.session_title),
          viewers: int(stream.viewer_count) ?? int(stream.viewers),
          startedAt: utc(stream.start_time) ?? utc(stream.created_at),
          category: str(category?.name),
          thumbnail: imageOf(stream.thumbnail),
          language: str(stream.language),
          isMature: bool(stream.is_mature) || undefined,
        })
      : undefined,
    recentCategories: objs(c.recent_categories).flatMap((r) => str(r.name) ?? []),
  });
}

function personOf(v: unknown): Person | undefined {
  const p = obj(v);
  const id = p?.id !== undefined ? String(p.id) : undefined;
  const slug = str(p?.slug);
  if (!p || !id) return undefined;
  return compact({ id, username: slug, name: str(p.username), url: slug ? `${WEB}/${slug}` : undefined, avatar: str(p.profile_picture) });
}

/** A clip of `{clips: […], nextCursor}` → the clip record. */
export function clipOf(v: unknown): KickClip {
  const c = obj(v);
  const id = need(str(c?.id), 'clip without id');
  const what = (w: string) => `clip ${id} without ${w}`;
  const author = personOf(c!.channel);
  const playlist = str(c!.clip_url);
  const file = str(c!.video_url);
  const thumb = str(c!.thumbnail_url);
  const duration = int(c!.duration);
  return compact({
    type: 'clip' as const,
    id,
    url: author?.username ? `${WEB}/${author.username}/clips/${id}` : `${WEB}/clips/${id}`,
    publishedAt: need(isoFromText(c!.created_at), what('created_at')),
    durationSeconds: need(duration, what('duration')),
    views: need(int(c!.view_count) ?? int(c!.views), what('view_count')),
    title: str(c!.title),
    author,
    clippedBy: personOf(c!.creator),
    thumbnails: thumb ? [{ url: thumb }] : undefined,
    category: str(obj(c!.category)?.name),
    likes: int(c!.likes_count) ?? int(c!.likes),
    isMature: c!.is_mature === true || undefined,
    video: playlist || file ? compact({ url: file ?? (playlist && !/\.m3u8(\?|$)/.test(playlist) ? playlist : undefined), hls: playlist && /\.m3u8(\?|$)/.test(playlist) ? playlist : undefined, durationSeconds: duration, thumbnail: thumb }) : undefined,
  });
}
