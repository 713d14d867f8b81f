/**
 * Telegram preview HTML → the channel and post records (notes §5 selectors). Pure functions over the bounded tree of
 * the open-web toolkit; what a page does not show is left out. A preview page without its channel header, or a
 * message without its date or views, is a changed page (`sourceChanged`), never an empty success.
 */
import type { Element } from 'domhandler';
import type { MESSAGING_CHANNEL, MESSAGING_POST } from '../../catalogue/endpoints/telegram.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { compact, count, isoFromText, readsOf } from '../kit/read.js';
import { parseHtml } from '../kit/web/dom.js';
import { allByClass, attr, backgroundUrl, byClass, byTag, hasClass, inside, ownText, textOf } from './html.js';

export type ChannelRecord = TypeOf<typeof MESSAGING_CHANNEL>;
export type MessagingPost = TypeOf<typeof MESSAGING_POST>;

const WEB = 'https://t.me';
const { need, changed } = readsOf('telegram');

/** `https://t.me/name/123` (or `/s/name/123`, `?single`) → channel and id. */
function tmeRef(href: string | undefined): { channel?: string; id?: string } {
  if (!href || !URL.canParse(href, WEB)) return {};
  const url = new URL(href, WEB);
  if (!/(^|\.)t\.me$/i.test(url.hostname)) return {};
  const parts = url.pathname.split('/').filter(Boolean);
  const [channel, id] = parts[0] === 's' ? parts.slice(1) : parts;
  return { channel, id: id && /^\d{1,10}$/.test(id) ? id : undefined };
}

/** "2:57" or "1:02:03" → seconds. */
function duration(text: string | undefined): number | undefined {
  const m = text ? /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(text.trim()) : null;
  return m ? Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
}

// ---- the channel --------------------------------------------------------------------------------------------------

const COUNTERS = { subscribers: 'followers', photos: 'photos', videos: 'videos', files: 'files', links: 'links' } as const;

/** The channel header of a `t.me/s/{channel}` page. */
export function normaliseChannel(html: string): ChannelRecord {
  return channelOf(parseHtml(html));
}

function channelOf(doc: ReturnType<typeof parseHtml>): ChannelRecord {
  const info = byClass(doc, 'tgme_channel_info');
  if (!info) throw changed('preview page without tgme_channel_info');
  const header = byClass(info, 'tgme_channel_info_header');
  const usernameLink = byTag(byClass(info, 'tgme_channel_info_header_username') ?? info, 'a');
  const username = need(
    textOf(usernameLink)?.replace(/^@/, '') ?? textOf(byClass(info, 'tgme_channel_info_header_username'))?.replace(/^@/, ''),
    'channel header without its username',
  );
  const counts: Partial<Record<(typeof COUNTERS)[keyof typeof COUNTERS], number>> = {};
  for (const counter of allByClass(info, 'tgme_channel_info_counter')) {
    const type = textOf(byClass(counter, 'counter_type'))?.toLowerCase().replace(/s?$/, 's');
    const field = type ? COUNTERS[type as keyof typeof COUNTERS] : undefined;
    if (field) counts[field] = count(textOf(byClass(counter, 'counter_value')));
  }
  const labels = byClass(info, 'tgme_channel_info_header_labels');
  return compact({
    type: 'channel' as const,
    id: username,
    url: `${WEB}/${username}`,
    username,
    name: need(textOf(byClass(info, 'tgme_channel_info_header_title')), 'channel header without its title'),
    bio: textOf(byClass(info, 'tgme_channel_info_description')),
    avatar: attr(byTag(byClass(header ?? info, 'tgme_page_photo_image') ?? info, 'img'), 'src'),
    // The badge sits among the header's labels; with the labels there and no badge, the channel is not verified.
    isVerified: labels ? byClass(labels, 'verified-icon') !== undefined : undefined,
    followers: need(counts.followers, 'channel header without its subscriber count'),
    photos: counts.photos,
    videos: counts.videos,
    files: counts.files,
    links: counts.links,
  });
}

/**
 * The `t.me/{channel}` page a channel without a web preview redirects to: title, description, photo and "N
 * subscribers". A page with no subscriber count is no public channel (a person, a bot, or nobody).
 */
export function normaliseChannelPage(html: string, username: string): ChannelRecord | undefined {
  const doc = parseHtml(html);
  const extra = textOf(byClass(doc, 'tgme_page_extra'));
  const subscribers = extra && /subscriber/i.test(extra) ? count(extra.replace(/(\d)\s+(?=\d)/g, '$1')) : undefined;
  const name = textOf(byClass(doc, 'tgme_page_title'));
  if (subscribers === undefined || !name) return undefined;
  return compact({
    type: 'channel' as const,
    id: username,
    url: `${WEB}/${username}`,
    username,
    name,
    bio: textOf(byClass(doc, 'tgme_page_description')),
    avatar: attr(byClass(doc, 'tgme_page_photo_image'), 'src') ?? attr(byTag(byClass(doc, 'tgme_page_photo') ?? doc, 'img'), 'src'),
    isVerified: byClass(doc, 'verified-icon') !== undefined ? true : undefined,
    followers: subscribers,
  });
}

// ---- posts --------------------------------------------------------------------------------------------------------

/** The post's own text block: the first message text that is not the quoted text of the post it replies to. */
function textBlock(message: Element): Element | undefined {
  return allByClass(message, 'js-message_text').find((el) => !inside(el, 'tgme_widget_message_reply', message));
}

function images(message: Element): MessagingPost['images'] {
  const out = allByClass(message, 'tgme_widget_message_photo_wrap').flatMap((wrap) => {
    const url = backgroundUrl(wrap);
    return url ? [{ url }] : [];
  });
  return out.length > 0 ? out : undefined;
}

function video(message: Element): MessagingPost['video'] {
  const player = byClass(message, 'tgme_widget_message_video_player');
  if (!player) return undefined;
  return compact({
    // A video too big for the preview has no file, only its thumbnail and duration.
    url: attr(byClass(player, 'tgme_widget_message_video'), 'src'),
    durationSeconds: duration(textOf(byClass(player, 'message_video_duration'))),
    thumbnail: backgroundUrl(byClass(player, 'tgme_widget_message_video_thumb')),
  });
}

function audio(message: Element): MessagingPost['audio'] {
  const voice = byClass(message, 'tgme_widget_message_voice');
  if (!voice) return undefined;
  return compact({
    url: attr(voice, 'src'),
    durationSeconds: duration(textOf(byClass(message, 'tgme_widget_message_voice_duration'))),
    isVoice: true,
  });
}

function linkPreview(message: Element): MessagingPost['link'] {
  const a = byClass(message, 'tgme_widget_message_link_preview');
  const url = attr(a, 'href');
  if (!a || !url) return undefined;
  return compact({
    url,
    title: textOf(byClass(a, 'link_preview_title')),
    description: textOf(byClass(a, 'link_preview_description')),
    image: backgroundUrl(byClass(a, 'link_preview_image') ?? byClass(a, 'link_preview_right_image')),
  });
}

function poll(message: Element, voters: number | undefined): MessagingPost['poll'] {
  const box = byClass(message, 'tgme_widget_message_poll');
  if (!box) return undefined;
  const options = allByClass(box, 'tgme_widget_message_poll_option').flatMap((option) => {
    const text = textOf(byClass(option, 'tgme_widget_message_poll_option_text'));
    const percent = textOf(byClass(option, 'tgme_widget_message_poll_option_percent'));
    return text ? [compact({ text, percent: percent && /^\d{1,3}%$/.test(percent) ? Number(percent.slice(0, -1)) : undefined })] : [];
  });
  const kind = textOf(byClass(box, 'tgme_widget_message_poll_type'))?.toLowerCase();
  return compact({
    question: textOf(byClass(box, 'tgme_widget_message_poll_question')),
    options,
    totalVotes: voters,
    isAnonymous: kind ? kind.includes('anonymous') : undefined,
    isClosed: kind ? kind.includes('final') || kind.includes('closed') : undefined,
  });
}

function repostOf(message: Element): MessagingPost['repostOf'] {
  const from = byClass(message, 'tgme_widget_message_forwarded_from');
  if (!from) return undefined;
  const nameEl = byClass(from, 'tgme_widget_message_forwarded_from_name');
  const href = nameEl?.name === 'a' ? attr(nameEl, 'href') : undefined;
  const ref = tmeRef(href);
  const name = textOf(nameEl);
  return compact({
    id: ref.id,
    url: ref.id ? href : undefined,
    // A forward from a hidden account names a person with no address.
    author: compact({ username: ref.channel, name, url: ref.channel ? `${WEB}/${ref.channel}` : undefined }),
  });
}

function replyTo(message: Element): MessagingPost['replyTo'] {
  const reply = byClass(message, 'tgme_widget_message_reply');
  if (!reply) return undefined;
  const href = attr(reply, 'href');
  const ref = tmeRef(href);
  return compact({
    id: ref.id,
    url: ref.id ? `${WEB}/${ref.channel}/${ref.id}` : undefined,
    author: compact({ name: textOf(byClass(reply, 'tgme_widget_message_author_name')) }),
  });
}

function reactions(message: Element): MessagingPost['reactions'] {
  const box = byClass(message, 'tgme_widget_message_reactions');
  if (!box) return undefined;
  const out = allByClass(box, 'tgme_reaction').flatMap((r) => {
    const n = count(ownText(r));
    if (n === undefined) return [];
    const emoji = byTag(r, 'b');
    return [compact({
      count: n,
      emoji: textOf(emoji),
      customEmojiId: attr(byTag(r, 'tg-emoji'), 'emoji-id'),
      isPaid: hasClass(r, 'tgme_reaction_paid') ? true : undefined,
    })];
  });
  return out.length > 0 ? out : undefined;
}

/** Hashtags and mentions as the text links them: `?q=%23tag` search links and `t.me/name` links written `@name`. */
function tags(block: Element | undefined): { hashtags: string[]; mentions: string[] } {
  const hashtags: string[] = [];
  const mentions: string[] = [];
  if (!block) return { hashtags, mentions };
  for (const a of findLinks(block)) {
    const text = textOf(a) ?? '';
    if (/^#[^\s#]+$/u.test(text)) hashtags.push(text.slice(1));
    else if (/^@[A-Za-z][A-Za-z0-9_]{3,31}$/.test(text)) mentions.push(text.slice(1));
  }
  return { hashtags: [...new Set(hashtags)], mentions: [...new Set(mentions)] };
}

/** The links under `root`, in document order. */
function findLinks(root: Element): Element[] {
  const out: Element[] = [];
  const stack = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'tag') {
      if (n.name === 'a') out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
    }
  }
  return out;
}

/** One `div.tgme_widget_message` (a preview page's or a widget's) → the post record. */
export function normaliseMessage(message: Element): MessagingPost {
  const ref = tmeRef(`${WEB}/${attr(message, 'data-post') ?? ''}`);
  const id = need(ref.id, 'message without a data-post id');
  const channel = need(ref.channel, `message ${id} without its channel`);
  const what = (w: string) => `message ${channel}/${id} without ${w}`;
  const date = byClass(message, 'tgme_widget_message_date');
  const owner = byClass(message, 'tgme_widget_message_owner_name');
  const block = textBlock(message);
  const v = video(message);
  const voters = count(textOf(byClass(message, 'tgme_widget_message_voters')));
  const { hashtags, mentions } = tags(block);
  return compact({
    type: 'post' as const,
    id,
    url: `${WEB}/${channel}/${id}`,
    createdAt: need(isoFromText(attr(byTag(date ?? message, 'time'), 'datetime')), what('its date')),
    views: need(count(textOf(byClass(message, 'tgme_widget_message_views'))), what('its views')),
    author: compact({
      username: channel,
      name: textOf(owner),
      url: `${WEB}/${channel}`,
      avatar: attr(byTag(byClass(message, 'tgme_widget_message_user_photo') ?? message, 'img'), 'src'),
    }),
    text: textOf(block),
    isVideo: v ? true : undefined,
    hashtags,
    mentions,
    link: linkPreview(message),
    images: images(message),
    video: v && Object.keys(v).length > 0 ? v : undefined,
    audio: audio(message),
    poll: poll(message, voters),
    repostOf: repostOf(message),
    replyTo: replyTo(message),
    reactions: reactions(message),
  });
}

/** Messages of a page; service messages ("channel created", "pinned …") are not posts. */
function messagesOf(root: ReturnType<typeof parseHtml>): Element[] {
  return allByClass(root, 'tgme_widget_message').filter((m) => attr(m, 'data-post') && !hasClass(m, 'service_message'));
}

export interface PreviewPage {
  channel: ChannelRecord;
  /** Newest first. */
  posts: MessagingPost[];
  /** The `before` of the page of older posts, when the page links one. */
  older?: number;
}

/** A `t.me/s/{channel}` page: its channel, its posts newest first, and the link to older posts. */
export function normalisePreview(html: string): PreviewPage {
  const doc = parseHtml(html);
  const channel = channelOf(doc);
  const posts = messagesOf(doc).map(normaliseMessage).sort((a, b) => Number(b.id) - Number(a.id));
  const more = byClass(doc, 'tme_messages_more');
  const before = attr(more, 'data-before') ?? /[?&]before=(\d+)/.exec(attr(more, 'href') ?? '')?.[1];
  const older = before && /^[1-9]\d{0,9}$/.test(before) ? Number(before) : undefined;
  return older === undefined ? { channel, posts } : { channel, posts, older };
}

/** A widget page (`?embed=1`): its one post, or notFound when Telegram says there is none. */
export function normaliseEmbed(html: string, channel: string, id: number): MessagingPost {
  const doc = parseHtml(html);
  const error = byClass(doc, 'tgme_widget_message_error');
  if (error) throw new QuarryError('notFound', `post: no such post ${channel}/${id} (${textOf(error) ?? 'not found'})`);
  const wanted = `${channel}/${id}`.toLowerCase();
  const message = messagesOf(doc).find((m) => attr(m, 'data-post')?.toLowerCase() === wanted);
  if (!message) throw changed(`widget page without message ${wanted}`);
  return normaliseMessage(message);
}
