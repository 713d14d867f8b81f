/**
 * Reddit answers → SPEC records (mapping: shared/notes/upstream-platforms.md 3.4 and 3.5). Pure functions; a field
 * upstream does not carry is left out rather than guessed.
 */
import { QuarryError } from '../../errors.js';

/** Public links always point at the web host, whatever base URL the requests went to. */
const WEB = 'https://www.reddit.com';

export interface ForumPost {
  type: 'post';
  id: string;
  url?: string;
  title?: string;
  text?: string;
  score?: number;
  comments?: number;
  isNsfw?: boolean;
  isVideo?: boolean;
  isPinned?: boolean;
  author?: { id?: string; username: string; name?: string; url?: string };
  subforum?: string;
  upvotePercent?: number;
  createdAt?: string;
  flair?: string;
  link?: { url: string; title?: string; description?: string; image?: string };
  thumbnail?: string;
  images?: Array<{ url: string; caption?: string }>;
  video?: { url?: string; hls?: string; durationSeconds?: number };
  poll?: { options: Array<{ text: string; votes?: number }>; totalVotes?: number; endsAt?: string };
  repostOf?: { id?: string; url?: string; subforum?: string; title?: string };
}

export interface SubforumRecord {
  type: 'subforum';
  id: string;
  url?: string;
  name?: string;
  title?: string;
  description?: string;
  avatar?: string;
  isNsfw?: boolean;
  members?: number;
  createdAt?: string;
  rules?: Array<{ title: string; description?: string }>;
}

export interface ListingPage {
  posts: ForumPost[];
  cursor?: string;
}

type Obj = Record<string, unknown>;

function changed(what: string): QuarryError {
  return new QuarryError('sourceChanged', `reddit: ${what}`);
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const obj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function isoFromSeconds(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? new Date(v * 1000).toISOString() : undefined;
}

/** Drops undefined members and objects left empty, so absent upstream data never shows up as `{}`. */
function compact<T extends Obj>(o: T): T {
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v === undefined || (isObj(v) && Object.keys(v).length === 0)) delete o[k];
  }
  return o;
}

function webUrl(path: unknown): string | undefined {
  const p = str(path);
  return p ? (p.startsWith('http') ? p : WEB + p) : undefined;
}

/** Without raw_json=1 (old recordings) Reddit HTML-escapes URLs. */
const unescapeAmp = (s: string | undefined): string | undefined => s?.replaceAll('&amp;', '&');

function flair(d: Obj): string | undefined {
  const text = str(d.link_flair_text);
  if (text) return text;
  const joined = arr(d.link_flair_richtext)
    .map((part) => (isObj(part) && typeof part.t === 'string' ? part.t : ''))
    .join('')
    .trim();
  return joined || undefined;
}

function link(d: Obj): ForumPost['link'] {
  if (d.is_self === true) return undefined;
  const url = str(d.url_overridden_by_dest) ?? str(d.url);
  if (!url) return undefined;
  const oembed = obj(obj(d.media)?.oembed) ?? obj(obj(d.secure_media)?.oembed);
  const preview = obj(arr(obj(d.preview)?.images)[0]);
  return compact({
    url,
    title: str(oembed?.title),
    description: str(oembed?.description),
    image: str(obj(preview?.source)?.url),
  });
}

function images(d: Obj): ForumPost['images'] {
  const items = arr(obj(d.gallery_data)?.items);
  if (items.length > 0) {
    const meta = obj(d.media_metadata) ?? {};
    const out = items.flatMap((item) => {
      if (!isObj(item)) return [];
      const source = obj(obj(meta[String(item.media_id)])?.s);
      // Media still processing (status "unprocessed") has no URL yet: skip rather than build one.
      const url = str(source?.u) ?? str(source?.gif);
      return url ? [compact({ url, caption: str(item.caption) })] : [];
    });
    return out.length > 0 ? out : undefined;
  }
  if (d.post_hint === 'image') {
    const url = str(d.url_overridden_by_dest) ?? str(d.url);
    return url ? [{ url }] : undefined;
  }
  return undefined;
}

function video(d: Obj): ForumPost['video'] {
  const parent = obj(arr(d.crosspost_parent_list)[0]);
  const rv =
    obj(obj(d.media)?.reddit_video) ??
    obj(obj(d.secure_media)?.reddit_video) ??
    obj(obj(parent?.media)?.reddit_video) ??
    obj(obj(parent?.secure_media)?.reddit_video);
  if (!rv) return undefined;
  const out = compact({ url: str(rv.fallback_url), hls: str(rv.hls_url), durationSeconds: int(rv.duration) });
  return Object.keys(out).length > 0 ? out : undefined;
}

function poll(d: Obj): ForumPost['poll'] {
  const p = obj(d.poll_data);
  if (!p) return undefined;
  const options = arr(p.options).flatMap((o) =>
    isObj(o) && typeof o.text === 'string' ? [compact({ text: o.text, votes: int(o.vote_count) })] : [],
  );
  const end = p.voting_end_timestamp;
  return compact({
    options,
    totalVotes: int(p.total_vote_count),
    endsAt: typeof end === 'number' ? new Date(end).toISOString() : undefined,
  });
}

function repostOf(d: Obj): ForumPost['repostOf'] {
  const parent = obj(arr(d.crosspost_parent_list)[0]);
  if (!parent) return undefined;
  return compact({
    id: str(parent.id),
    url: webUrl(parent.permalink),
    subforum: str(parent.subreddit),
    title: str(parent.title),
  });
}

function author(d: Obj): ForumPost['author'] {
  const username = str(d.author);
  // Deleted accounts have no profile to point at.
  if (!username || username === '[deleted]') return undefined;
  return compact({
    id: str(d.author_fullname),
    username,
    name: username,
    url: `${WEB}/user/${username}`,
  });
}

/** One `t3` child's `data`. */
export function normalisePost(t3: unknown): ForumPost {
  if (!isObj(t3) || typeof t3.id !== 'string') throw changed('post without an id');
  const d = t3;
  const ratio = d.upvote_ratio;
  const thumb = str(d.thumbnail);
  return compact({
    type: 'post' as const,
    id: d.id as string,
    url: webUrl(d.permalink),
    title: str(d.title),
    text: str(d.selftext),
    score: int(d.score),
    comments: int(d.num_comments),
    isNsfw: bool(d.over_18),
    isVideo: d.is_video === true || d.post_hint === 'hosted:video' || d.post_hint === 'rich:video',
    isPinned: d.stickied === true || d.pinned === true,
    author: author(d),
    subforum: str(d.subreddit),
    upvotePercent: typeof ratio === 'number' ? Math.round(ratio * 100) : undefined,
    createdAt: isoFromSeconds(d.created_utc),
    flair: flair(d),
    link: link(d),
    thumbnail: thumb?.startsWith('http') ? thumb : undefined,
    images: images(d),
    video: video(d),
    poll: poll(d),
    repostOf: repostOf(d),
  });
}

/** A `Listing` of `t3` children: the posts and the next-page cursor (`data.after`). */
export function normaliseListing(listing: unknown): ListingPage {
  const data = isObj(listing) && listing.kind === 'Listing' ? obj(listing.data) : undefined;
  if (!data || !Array.isArray(data.children)) throw changed('listing without data.children');
  const posts = data.children.map((child) => {
    if (!isObj(child) || child.kind !== 't3') throw changed('listing child that is not a post');
    return normalisePost(child.data);
  });
  const cursor = str(data.after);
  return cursor ? { posts, cursor } : { posts };
}

/** `about` (`t5` data) plus the `about/rules` answer. */
export function normaliseSubforum(about: unknown, rulesJson: unknown): SubforumRecord {
  if (!isObj(about) || typeof about.id !== 'string') throw changed('subreddit about without an id');
  if (!isObj(rulesJson) || !Array.isArray(rulesJson.rules)) throw changed('rules answer without a rules array');
  const rules = rulesJson.rules.flatMap((r) =>
    isObj(r) && typeof r.short_name === 'string'
      ? [compact({ title: r.short_name, description: str(r.description) })]
      : [],
  );
  return compact({
    type: 'subforum' as const,
    id: about.id,
    url: webUrl(about.url),
    name: str(about.display_name),
    title: str(about.title),
    description: str(about.public_description) ?? str(about.description),
    avatar: unescapeAmp(str(about.community_icon)) ?? str(about.icon_img),
    isNsfw: bool(about.over18),
    members: int(about.subscribers),
    createdAt: isoFromSeconds(about.created_utc),
    rules: rules.length > 0 ? rules : undefined,
  });
}
