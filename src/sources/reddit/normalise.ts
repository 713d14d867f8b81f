/**
 * Reddit answers → SPEC records (mapping: shared/notes/upstream-platforms.md 3.4 and 3.5). Pure functions; a field
 * upstream does not carry is left out rather than guessed.
 */
import type { FORUM_POST, SUBFORUM } from '../../catalogue/endpoints/reddit.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, bool, changed as drift, compact, int, isObj, isoFromSeconds, need as needed, obj, type Obj } from '../kit/read.js';

/** Public links always point at the web host, whatever base URL the requests went to. */
const WEB = 'https://www.reddit.com';

export type ForumPost = TypeOf<typeof FORUM_POST>;
export type SubforumRecord = TypeOf<typeof SUBFORUM>;

export interface ListingPage {
  posts: ForumPost[];
  cursor?: string;
}

const changed = (what: string) => drift('reddit', what);
const need = <T>(v: T | undefined, what: string): T => needed(v, 'reddit', what);
/** Reddit's own text, kept as written (no trimming): a post's leading spaces can be markdown. */
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

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
  const post = (what: string) => `post ${d.id as string} without ${what}`;
  return compact({
    type: 'post' as const,
    id: d.id as string,
    url: need(webUrl(d.permalink), post('a permalink')),
    title: need(str(d.title), post('a title')),
    text: str(d.selftext),
    score: need(int(d.score), post('a score')),
    comments: need(int(d.num_comments), post('num_comments')),
    isNsfw: need(bool(d.over_18), post('over_18')),
    isVideo: d.is_video === true || d.post_hint === 'hosted:video' || d.post_hint === 'rich:video',
    isPinned: d.stickied === true || d.pinned === true,
    author: author(d),
    subforum: need(str(d.subreddit), post('a subreddit')),
    upvotePercent: typeof ratio === 'number' ? Math.round(ratio * 100) : undefined,
    createdAt: need(isoFromSeconds(d.created_utc), post('created_utc')),
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
  const about_ = (what: string) => `subreddit about without ${what}`;
  return compact({
    type: 'subforum' as const,
    id: about.id,
    url: need(webUrl(about.url), about_('a url')),
    name: need(str(about.display_name), about_('display_name')),
    title: str(about.title),
    description: str(about.public_description) ?? str(about.description),
    avatar: unescapeAmp(str(about.community_icon)) ?? str(about.icon_img),
    isNsfw: need(bool(about.over18), about_('over18')),
    members: need(int(about.subscribers), about_('subscribers')),
    createdAt: need(isoFromSeconds(about.created_utc), about_('created_utc')),
    rules: rules.length > 0 ? rules : undefined,
  });
}
