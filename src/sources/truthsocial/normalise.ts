/** Pure functions from Truth Social's Mastodon entities (Account, Status, Tag) to the shared records. */
import type { TRUTHSOCIAL_ACCOUNT, TRUTHSOCIAL_HASHTAG, TRUTHSOCIAL_POST, TRUTHSOCIAL_PROFILE } from '../../catalogue/endpoints/truthsocial.js';
import type { TypeOf } from '../../catalogue/types.js';
import type { PERSON } from '../../catalogue/vocabulary.js';
import { htmlText } from '../kit/html-text.js';
import { compact, int, isoFromText, readsOf, obj, objs, str, type Obj } from '../kit/read.js';
import { findTags } from '../kit/web/index.js';

export type TruthPost = TypeOf<typeof TRUTHSOCIAL_POST>;
export type TruthProfile = TypeOf<typeof TRUTHSOCIAL_PROFILE>;
export type TruthAccount = TypeOf<typeof TRUTHSOCIAL_ACCOUNT>;
export type TruthHashtag = TypeOf<typeof TRUTHSOCIAL_HASHTAG>;
type Person = TypeOf<typeof PERSON>;

const WEB = 'https://truthsocial.com';
export const { need, changed } = readsOf('truthsocial');

/** Mastodon's placeholder for an account without a picture is not a picture. */
const picture = (v: unknown): string | undefined => {
  const url = str(v);
  return url && !/\/missing\.png$/.test(url) ? url : undefined;
};

const profileUrl = (a: Obj, username: string) => str(a.url) ?? `${WEB}/@${username}`;

export function personOf(v: unknown): Person | undefined {
  const a = obj(v);
  const id = str(a?.id);
  const username = str(a?.acct) ?? str(a?.username);
  if (!a || !id || !username) return undefined;
  return compact({ id, username, name: str(a.display_name), url: profileUrl(a, username), avatar: picture(a.avatar), isVerified: a.verified === true || undefined });
}

/** A profile field's address: the link its HTML value holds, if any. */
function fieldLink(field: Obj): { url: string; title?: string } | undefined {
  const value = str(field.value);
  const href = value ? str(findTags(value, { names: ['a'] })[0]?.attrs.href) : undefined;
  return href && /^https?:\/\//.test(href) ? compact({ url: href, title: str(field.name) }) : undefined;
}

export function profileOf(v: unknown): TruthProfile {
  const a = obj(v);
  if (!a) throw changed('account answer that is not an object');
  const id = need(str(a.id), 'account without id');
  const username = need(str(a.acct) ?? str(a.username), `account ${id} without username`);
  const what = (w: string) => `account ${username} without ${w}`;
  const lastPost = str(a.last_status_at);
  return compact({
    type: 'profile' as const,
    id,
    username,
    url: profileUrl(a, username),
    followers: need(int(a.followers_count), what('followers_count')),
    following: need(int(a.following_count), what('following_count')),
    posts: need(int(a.statuses_count), what('statuses_count')),
    name: str(a.display_name),
    bio: htmlText(str(a.note)),
    avatar: picture(a.avatar),
    banner: picture(a.header),
    isVerified: a.verified === true || undefined,
    isPrivate: a.locked === true || undefined,
    createdAt: isoFromText(a.created_at),
    location: str(a.location),
    website: str(a.website),
    links: objs(a.fields).flatMap((f) => fieldLink(f) ?? []),
    lastPostOn: lastPost && /^\d{4}-\d{2}-\d{2}/.test(lastPost) ? lastPost.slice(0, 10) : undefined,
  });
}

export function accountOf(v: unknown): TruthAccount {
  const a = obj(v);
  const id = need(str(a?.id), 'account without id');
  const username = need(str(a!.acct) ?? str(a!.username), `account ${id} without username`);
  return compact({
    type: 'profile' as const,
    id,
    username,
    url: profileUrl(a!, username),
    name: str(a!.display_name),
    bio: htmlText(str(a!.note)),
    avatar: picture(a!.avatar),
    isVerified: a!.verified === true || undefined,
    followers: int(a!.followers_count),
    following: int(a!.following_count),
    posts: int(a!.statuses_count),
  });
}

const postUrl = (s: Obj, id: string, author: Person) => str(s.url) ?? `${WEB}/@${author.username}/${id}`;

type Media = Pick<TruthPost, 'images' | 'video' | 'isVideo'>;

function mediaOf(attachments: Obj[]): Media {
  const images = attachments.flatMap((m) => {
    const url = str(m.url);
    const size = obj(obj(m.meta)?.original);
    return m.type === 'image' && url ? [compact({ url, alt: str(m.description), width: int(size?.width), height: int(size?.height) })] : [];
  });
  const clip = attachments.find((m) => m.type === 'video' || m.type === 'gifv');
  const size = obj(obj(clip?.meta)?.original);
  const video = clip
    ? compact({ url: str(clip.url), thumbnail: str(clip.preview_url), durationSeconds: int(size?.duration), width: int(size?.width), height: int(size?.height) })
    : undefined;
  return { images, ...(video ? { video, isVideo: true } : {}) };
}

/** A status → the post record; a ReTruth (a status wrapping `reblog`) is the reposted post with who reposted it. */
export function postOf(v: unknown): TruthPost {
  const s = obj(v);
  if (!s) throw changed('status that is not an object');
  const reblog = obj(s.reblog);
  if (reblog) return { ...postOf(reblog), ...compact({ repostedBy: personOf(s.account), repostedAt: isoFromText(s.created_at) }) };
  const id = need(str(s.id), 'status without id');
  const what = (w: string) => `status ${id} without ${w}`;
  const author = need(personOf(s.account), what('its account'));
  const card = obj(s.card);
  const cardUrl = str(card?.url);
  const poll = obj(s.poll);
  const options = objs(poll?.options).flatMap((o) => (str(o.title) ? [compact({ text: str(o.title)!, votes: int(o.votes_count) })] : []));
  const quote = obj(s.quote);
  const quoted = quote ? personOf(quote.account) : undefined;
  const quoteId = str(quote?.id) ?? str(s.quote_id);
  const parent = obj(s.in_reply_to);
  const parentAuthor = parent ? personOf(parent.account) : undefined;
  const parentId = str(s.in_reply_to_id);
  const warning = str(s.spoiler_text);
  const text = htmlText(str(s.content));
  return compact({
    type: 'post' as const,
    id,
    url: postUrl(s, id, author),
    createdAt: need(isoFromText(s.created_at), what('created_at')),
    author,
    likes: need(int(s.favourites_count), what('favourites_count')),
    reposts: need(int(s.reblogs_count), what('reblogs_count')),
    comments: need(int(s.replies_count), what('replies_count')),
    text: warning && text ? `${warning}\n\n${text}` : warning ?? text,
    language: str(s.language),
    isNsfw: s.sensitive === true || undefined,
    isPinned: s.pinned === true || undefined,
    hashtags: objs(s.tags).flatMap((t) => str(t.name) ?? []),
    mentions: objs(s.mentions).flatMap((m) => str(m.acct) ?? str(m.username) ?? []),
    link: cardUrl ? compact({ url: cardUrl, title: str(card!.title), description: str(card!.description), image: str(card!.image) }) : undefined,
    ...mediaOf(objs(s.media_attachments)),
    poll: options.length ? compact({ options, totalVotes: int(poll!.votes_count), endsAt: isoFromText(poll!.expires_at), isClosed: poll!.expired === true || undefined }) : undefined,
    editedAt: isoFromText(s.edited_at),
    replyTo: parentId ? compact({ id: parentId, url: parent && parentAuthor ? postUrl(parent, parentId, parentAuthor) : undefined, author: parentAuthor }) : undefined,
    quoteOf: quoteId ? compact({ id: quoteId, url: quote && quoted ? postUrl(quote, quoteId, quoted) : undefined, text: quote ? htmlText(str(quote.content)) : undefined, author: quoted }) : undefined,
  });
}

/** A list of statuses (a timeline, a thread's replies). */
export function postsOf(answer: unknown, what: string): TruthPost[] {
  if (!Array.isArray(answer)) throw changed(`${what} is not a list`);
  return objs(answer).map(postOf);
}

export function hashtagOf(v: unknown): TruthHashtag {
  const t = obj(v);
  const name = need(str(t?.name), 'hashtag without name');
  // `history` counts uses and accounts per day, newest first; the answer is what it says of the last days.
  const history = objs(t!.history);
  const sum = (k: string) => (history.length ? history.reduce((n, h) => n + (int(h[k]) ?? 0), 0) : undefined);
  return compact({ type: 'hashtag' as const, name, url: str(t!.url) ?? `${WEB}/tags/${encodeURIComponent(name)}`, posts: sum('uses'), accounts: sum('accounts') });
}
