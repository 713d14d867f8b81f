/**
 * Telegram's public web previews (notes §5), no account and no key:
 * - `https://t.me/s/{channel}[?before={id}]`: the channel's header and about 20 posts before `id` (oldest first);
 * - `https://t.me/{channel}/{id}?embed=1&mode=tme`: the widget of one post;
 * - `https://t.me/{channel}`: where `/s/` redirects when the channel has no web preview (or is no channel at all).
 * The host is fixed; only the channel name and post id come from the caller, checked before any request.
 */
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { decodePage } from '../kit/web/page.js';
import type { SourceContext } from '../types.js';

const WEB = 'https://t.me';
/** Preview pages are ~100 kB; far more is not a preview. */
const MAX_PAGE_BYTES = 4 * 1024 * 1024;
/** Telegram's public usernames: 4-32 of letters, digits and _, starting with a letter (notes §5, t.me rules). */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{3,31}$/;
const TME_HOST = /^(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)$/i;

const bad = (field: string, what: string) => new QuarryError('invalidRequest', `${field}: ${what}`, { retryable: false });

/** The path parts of a t.me address, or undefined when the input is not one. */
function tmePath(input: string): string[] | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`;
  if (!/^(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\//i.test(withScheme) || !URL.canParse(withScheme)) return undefined;
  const url = new URL(withScheme);
  if (!TME_HOST.test(url.hostname)) return undefined;
  return url.pathname.split('/').filter(Boolean);
}

/** A channel's username from `durov`, `@durov`, `t.me/durov`, `https://t.me/s/durov`, `telegram.me/durov`. */
export function channelName(input: string): string {
  const raw = input.trim();
  const parts = tmePath(raw);
  let name = parts ? (parts[0] === 's' ? parts[1] : parts[0]) : raw.replace(/^@/, '');
  if (parts && (parts[0] === 'c' || parts[0] === 'joinchat' || name?.startsWith('+'))) {
    throw bad('channel', 'private channels and invite links have no public preview');
  }
  name = name ?? '';
  if (!USERNAME.test(name)) throw bad('channel', 'not a public channel username or t.me address');
  return name;
}

export interface PostRef {
  channel: string;
  id: number;
}

/** A post from `https://t.me/durov/1`, `t.me/s/durov/1`, `durov/1` or `@durov/1`. */
export function postRef(input: string): PostRef {
  const raw = input.trim();
  const parts = tmePath(raw) ?? raw.replace(/^@/, '').split('/').filter(Boolean);
  const [channel, id] = parts[0] === 's' ? parts.slice(1) : parts;
  if (parts[0] === 'c') throw bad('post', 'posts of private channels have no public preview');
  if (!channel || !USERNAME.test(channel) || !id || !/^[1-9][0-9]{0,9}$/.test(id)) {
    throw bad('post', 'not a public post address such as https://t.me/durov/1');
  }
  return { channel, id: Number(id) };
}

export interface Page {
  /** The address that answered, after redirects. */
  url: string;
  html: string;
}

async function get(url: string, ctx: SourceContext): Promise<Page> {
  const res: UpstreamResponse = await ctx.http.request(
    { url, headers: { accept: 'text/html,application/xhtml+xml', 'accept-language': 'en' }, maxBytes: MAX_PAGE_BYTES, passStatuses: [404] },
    ctx.signal,
  );
  if (res.status === 404) throw new QuarryError('notFound', `telegram: t.me answered 404 for ${new URL(url).pathname}`);
  return { url: res.url, html: decodePage(res.body, res.headers['content-type']) };
}

/** The channel's preview page, posts before `before` (the newest when absent). */
export function fetchPreview(channel: string, before: number | undefined, ctx: SourceContext): Promise<Page> {
  return get(`${WEB}/s/${encodeURIComponent(channel)}${before === undefined ? '' : `?before=${before}`}`, ctx);
}

/** The widget page of one post. */
export function fetchEmbed(ref: PostRef, ctx: SourceContext): Promise<Page> {
  return get(`${WEB}/${encodeURIComponent(ref.channel)}/${ref.id}?embed=1&mode=tme`, ctx);
}

/** Whether a preview request ended elsewhere than on `/s/` (Telegram's redirect for channels without a preview). */
export const redirectedAway = (page: Page): boolean => !new URL(page.url).pathname.startsWith('/s/');
