/**
 * X GraphQL answers → the microblog post record (notes §4 mapping). A tweet result is read the same way whether it
 * came from TweetDetail, SearchTimeline or TweetResultByRestId; users are read in both of X's shapes (2025+ `core`
 * and `avatar`, older `legacy`). Pure functions; what the answer does not carry is left out.
 */
import type { MICROBLOG_POST } from '../../catalogue/endpoints/x.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { bool, compact, int, isObj, isoFromText, readsOf, obj, objs, str, type Obj } from '../kit/read.js';

export type MicroblogPost = TypeOf<typeof MICROBLOG_POST>;
type Person = NonNullable<MicroblogPost['author']>;

const WEB = 'https://x.com';
const { need, changed } = readsOf('x');

/** A tweet result, unwrapped from X's visibility wrapper; undefined for a tombstone or an unavailable post. */
export function unwrapTweet(result: unknown): Obj | undefined {
  const r = obj(result);
  if (!r) return undefined;
  if (r.__typename === 'TweetWithVisibilityResults') return unwrapTweet(r.tweet);
  if (r.__typename === 'Tweet' || (r.__typename === undefined && typeof r.rest_id === 'string')) return r;
  return undefined;
}

/** A user result (`user_results.result`) as the post author, in either of X's user shapes. */
export function normaliseAuthor(userResult: unknown): Person | undefined {
  const u = obj(userResult);
  if (!u) return undefined;
  const legacy = obj(u.legacy);
  const core = obj(u.core);
  const username = str(core?.screen_name) ?? str(legacy?.screen_name);
  return compact({
    id: str(u.rest_id),
    username,
    name: str(core?.name) ?? str(legacy?.name),
    url: username ? `${WEB}/${username}` : undefined,
    avatar: str(obj(u.avatar)?.image_url) ?? str(legacy?.profile_image_url_https),
    isVerified: u.is_blue_verified === true || obj(u.verification)?.verified === true || legacy?.verified === true ? true : undefined,
  });
}

const postUrl = (username: string | undefined, id: string): string => `${WEB}/${username ?? 'i/web'}/status/${id}`;

/** X escapes these three in `full_text`. */
const unescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The text as X shows it: t.co links expanded, the trailing link of attached media dropped. */
function text(t: Obj, legacy: Obj): string | undefined {
  const note = str(obj(obj(obj(t.note_tweet)?.note_tweet_results)?.result)?.text);
  let out = note ?? (typeof legacy.full_text === 'string' ? unescape(legacy.full_text) : undefined);
  if (out === undefined) return undefined;
  const entities = obj(legacy.entities);
  for (const u of objs(entities?.urls)) {
    const short = str(u.url);
    const long = str(u.expanded_url);
    if (short && long) out = out.split(short).join(long);
  }
  for (const m of objs(obj(legacy.extended_entities)?.media ?? entities?.media)) {
    const short = str(m.url);
    if (short) out = out.split(short).join('');
  }
  return str(out);
}

function media(legacy: Obj): Obj[] {
  return objs(obj(legacy.extended_entities)?.media ?? obj(legacy.entities)?.media);
}

function images(legacy: Obj): MicroblogPost['images'] {
  const out = media(legacy).flatMap((m) => {
    const url = m.type === 'photo' ? str(m.media_url_https) : undefined;
    if (!url) return [];
    const size = obj(m.original_info);
    return [compact({ url, width: int(size?.width), height: int(size?.height), alt: str(m.ext_alt_text) })];
  });
  return out.length > 0 ? out : undefined;
}

function video(legacy: Obj): MicroblogPost['video'] {
  const m = media(legacy).find((x) => x.type === 'video' || x.type === 'animated_gif');
  if (!m) return undefined;
  const info = obj(m.video_info);
  const variants = objs(info?.variants);
  const mp4 = variants
    .filter((v) => v.content_type === 'video/mp4' && typeof v.url === 'string')
    .sort((a, b) => (int(b.bitrate) ?? 0) - (int(a.bitrate) ?? 0))[0];
  const hls = variants.find((v) => v.content_type === 'application/x-mpegURL');
  const millis = int(info?.duration_millis);
  const size = obj(m.original_info);
  return compact({
    url: str(mp4?.url),
    hls: str(hls?.url),
    durationSeconds: millis === undefined ? undefined : Math.round(millis / 1000),
    width: int(size?.width),
    height: int(size?.height),
    thumbnail: str(m.media_url_https),
  });
}

/** A card's binding values as a map of name → string (or boolean) value. */
function bindings(card: Obj | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const b of objs(obj(card?.legacy)?.binding_values)) {
    const key = str(b.key);
    const value = obj(b.value);
    if (!key || !value) continue;
    out.set(key, value.string_value ?? value.boolean_value ?? str(obj(value.image_value)?.url));
  }
  return out;
}

function poll(card: Obj | undefined): MicroblogPost['poll'] {
  const name = str(obj(card?.legacy)?.name);
  if (!name?.startsWith('poll')) return undefined;
  const b = bindings(card);
  const options: NonNullable<MicroblogPost['poll']>['options'] = [];
  for (let i = 1; i <= 4; i++) {
    const label = b.get(`choice${i}_label`);
    if (typeof label === 'string') options.push(compact({ text: label, votes: int(b.get(`choice${i}_count`)) }));
  }
  if (options.length === 0) return undefined;
  const votes = options.map((o) => o.votes);
  return compact({
    options,
    totalVotes: votes.every((v) => v !== undefined) ? (votes as number[]).reduce((a, v) => a + v, 0) : undefined,
    endsAt: isoFromText(b.get('end_datetime_utc')),
    isClosed: bool(b.get('counts_are_final')),
  });
}

function link(card: Obj | undefined, legacy: Obj): MicroblogPost['link'] {
  const urls = objs(obj(legacy.entities)?.urls);
  if (card && !str(obj(card.legacy)?.name)?.startsWith('poll')) {
    const b = bindings(card);
    const short = str(b.get('card_url')) ?? str(obj(card.legacy)?.url);
    const url = urls.find((u) => u.url === short)?.expanded_url ?? short;
    if (typeof url === 'string' && url.startsWith('http')) {
      return compact({
        url,
        title: str(b.get('title')),
        description: str(b.get('description')),
        image: str(b.get('thumbnail_image_original')) ?? str(b.get('thumbnail_image_large')) ?? str(b.get('thumbnail_image')),
      });
    }
  }
  const first = str(urls[0]?.expanded_url);
  return first ? { url: first } : undefined;
}

const LANG_UNKNOWN = new Set(['und', 'zxx', 'qme', 'qam', 'qct', 'qht', 'qst']);

/** A post that another quotes or reposts, as far as the answer embeds it. */
function embedded(result: unknown): { id: string; url: string; text?: string; author?: Person } | undefined {
  const t = unwrapTweet(result);
  const legacy = obj(t?.legacy);
  const id = str(t?.rest_id);
  if (!t || !legacy || !id) return undefined;
  const author = normaliseAuthor(obj(obj(t.core)?.user_results)?.result);
  return compact({ id, url: postUrl(author?.username, id), text: text(t, legacy), author });
}

/** One tweet result (`tweet_results.result`, unwrapped) → the post record. */
export function normaliseTweet(result: unknown): MicroblogPost {
  const t = unwrapTweet(result);
  if (!t) throw changed('tweet result that is not a Tweet');
  const id = need(str(t.rest_id), 'tweet without rest_id');
  const legacy = obj(t.legacy);
  if (!legacy) throw changed(`tweet ${id} without legacy`);
  const author = need(normaliseAuthor(obj(obj(t.core)?.user_results)?.result), `tweet ${id} without its user`);
  const what = (w: string) => `tweet ${id} without ${w}`;
  need(author.username, what("its user's screen_name"));
  const card = obj(t.card);
  const v = video(legacy);
  const lang = str(legacy.lang);
  const replyId = str(legacy.in_reply_to_status_id_str);
  const replyUser = str(legacy.in_reply_to_screen_name);
  const repost = embedded(obj(legacy.retweeted_status_result)?.result);
  const quote = embedded(obj(t.quoted_status_result)?.result);
  const quotedId = str(legacy.quoted_status_id_str);
  return compact({
    type: 'post' as const,
    id,
    url: postUrl(author.username, id),
    createdAt: need(isoFromText(legacy.created_at), what('created_at')),
    author,
    text: text(t, legacy),
    language: lang && !LANG_UNKNOWN.has(lang) ? lang : undefined,
    likes: need(int(legacy.favorite_count), what('favorite_count')),
    reposts: need(int(legacy.retweet_count), what('retweet_count')),
    quotes: need(int(legacy.quote_count), what('quote_count')),
    comments: need(int(legacy.reply_count), what('reply_count')),
    views: int(obj(t.views)?.count),
    bookmarks: int(legacy.bookmark_count),
    isNsfw: bool(legacy.possibly_sensitive),
    isVideo: v ? true : undefined,
    hashtags: objs(obj(legacy.entities)?.hashtags).flatMap((h) => str(h.text) ?? []),
    mentions: objs(obj(legacy.entities)?.user_mentions).flatMap((m) => str(m.screen_name) ?? []),
    link: repost ? undefined : link(card, legacy),
    images: images(legacy),
    video: v && Object.keys(v).length > 0 ? v : undefined,
    poll: poll(card),
    replyTo: replyId
      ? compact({ id: replyId, url: postUrl(replyUser, replyId), author: replyUser ? compact({ id: str(legacy.in_reply_to_user_id_str), username: replyUser, url: `${WEB}/${replyUser}` }) : undefined })
      : undefined,
    repostOf: repost ? compact({ id: repost.id, url: repost.url, author: repost.author }) : undefined,
    quoteOf: quote ?? (quotedId ? { id: quotedId } : undefined),
    conversationId: str(legacy.conversation_id_str),
  });
}

export interface Conversation {
  post?: MicroblogPost;
  replies: MicroblogPost[];
  cursor?: string;
}

/** A timeline entry's tweet result, when it holds one. */
const entryTweet = (itemContent: unknown): unknown => obj(obj(obj(itemContent)?.tweet_results))?.result;

/** A cursor entry's value: X sends it as the entry's content or inside an item. */
function cursorOf(content: Obj): { type?: string; value?: string } {
  const c = content.__typename === 'TimelineTimelineCursor' || content.entryType === 'TimelineTimelineCursor' ? content : obj(content.itemContent);
  return { type: str(c?.cursorType), value: str(c?.value) };
}

/**
 * GraphQL errors answered with HTTP 200: "No status found" is an unknown post; anything else without data is a
 * refusal we cannot read past.
 */
function errorsOf(answer: Obj, postId?: string): void {
  const errors = objs(answer.errors);
  if (errors.length === 0) return;
  const messages = errors.map((e) => str(e.message) ?? '').join('; ');
  if (postId && (/no status found/i.test(messages) || errors.some((e) => e.code === 144))) {
    throw new QuarryError('notFound', `post: no such post ${postId}`);
  }
  if (!obj(answer.data) || Object.keys(obj(answer.data)!).length === 0) {
    throw new QuarryError('sourceRefused', `x: X answered with errors: ${messages.slice(0, 200)}`);
  }
}

/**
 * A TweetDetail answer: the focal post (absent on a later page of replies), its replies in X's order (each thread's
 * replies one after the other, with `replyTo` naming the post answered), and the cursor of more replies. Parent posts
 * above the focal one and "you might also like" modules are not replies and are left out.
 */
export function normaliseConversation(answer: unknown, focalId: string, continuation: boolean): Conversation {
  if (!isObj(answer)) throw changed('TweetDetail answer is not an object');
  errorsOf(answer, focalId);
  const instructions = obj(obj(answer.data)?.threaded_conversation_with_injections_v2)?.instructions;
  if (!Array.isArray(instructions)) throw changed('TweetDetail answer without instructions');
  const out: Conversation = { replies: [] };
  let bottom: string | undefined;
  let moreThreads: string | undefined;
  const reply = (itemContent: unknown) => {
    const t = unwrapTweet(entryTweet(itemContent));
    if (t && t.rest_id !== focalId) out.replies.push(normaliseTweet(t));
  };
  for (const instruction of objs(instructions)) {
    const entries = [...objs(instruction.entries), ...(isObj(instruction.entry) ? [instruction.entry] : [])];
    for (const entry of entries) {
      const entryId = str(entry.entryId) ?? '';
      const content = obj(entry.content);
      if (!content) continue;
      if (entryId.startsWith('tweet-')) {
        const t = unwrapTweet(entryTweet(content.itemContent));
        // The focal post; other single tweets are the posts it answers (its thread above it), not replies.
        if (t?.rest_id === focalId) out.post = normaliseTweet(t);
      } else if (entryId.startsWith('conversationthread-')) {
        for (const item of objs(content.items)) reply(obj(item.item)?.itemContent);
      } else if (entryId.startsWith('cursor-')) {
        const c = cursorOf(content);
        if (c.type === 'Bottom') bottom = c.value;
        else if (c.type === 'ShowMoreThreads') moreThreads = c.value;
      }
    }
    // A later page can add replies to an open thread.
    for (const item of objs(instruction.moduleItems)) reply(obj(item.item)?.itemContent);
  }
  if (!continuation && !out.post) {
    // The focal post is missing: deleted, protected or withheld posts come back as a tombstone or nothing at all.
    throw new QuarryError('notFound', `post: no such post ${focalId} (deleted, protected or withheld)`);
  }
  const cursor = bottom ?? moreThreads;
  // A continuation that brought nothing new ends the thread (X repeats its last cursor at the end).
  if (cursor && !(continuation && out.replies.length === 0)) out.cursor = cursor;
  return out;
}

/** A TweetResultByRestId answer: the one post, or notFound for a tombstone, an unavailable post or nothing. */
export function normaliseTweetResult(answer: unknown, id: string): MicroblogPost {
  if (!isObj(answer)) throw changed('TweetResultByRestId answer is not an object');
  errorsOf(answer, id);
  const data = obj(answer.data);
  if (!data) throw changed('TweetResultByRestId answer without data');
  const result = obj(obj(data.tweetResult)?.result);
  if (!result) throw new QuarryError('notFound', `post: no such post ${id}`);
  if (result.__typename === 'TweetUnavailable') {
    const reason = str(result.reason) ?? 'unavailable';
    // Adult or protected posts are shown to logged-in accounts only: a wall, not an absence.
    if (/nsfw|loggedout|protected/i.test(reason)) throw new QuarryError('sourceRefused', `x: X shows post ${id} to logged-in accounts only (${reason})`);
    throw new QuarryError('notFound', `post: no such post ${id} (${reason})`);
  }
  if (result.__typename === 'TweetTombstone') throw new QuarryError('notFound', `post: no such post ${id} (deleted or withheld)`);
  return normaliseTweet(result);
}

/** A SearchTimeline answer: its posts in X's order (newest first for the Latest product), promoted entries left out. */
export function normaliseSearch(answer: unknown): MicroblogPost[] {
  if (!isObj(answer)) throw changed('SearchTimeline answer is not an object');
  errorsOf(answer);
  const timeline = obj(obj(obj(obj(answer.data)?.search_by_raw_query)?.search_timeline)?.timeline);
  if (!timeline || !Array.isArray(timeline.instructions)) throw changed('SearchTimeline answer without timeline instructions');
  const posts: MicroblogPost[] = [];
  for (const instruction of objs(timeline.instructions)) {
    for (const entry of objs(instruction.entries)) {
      if (!str(entry.entryId)?.startsWith('tweet-')) continue;
      const t = unwrapTweet(entryTweet(obj(entry.content)?.itemContent));
      if (t) posts.push(normaliseTweet(t));
    }
  }
  return posts;
}
