/**
 * Social profile links: which platform an address belongs to, the profile's handle, and one canonical address per
 * profile. Share, intent, post, video and login links are not profiles and are dropped.
 */
import type { SOCIAL_PLATFORMS } from '../../../catalogue/endpoints/web.js';
import type { ContactsRecord } from './types.js';

export type Platform = (typeof SOCIAL_PLATFORMS)[number];

/** A profile as the record gives it (a canonical https address on the platform's main host), without its pages. */
export type SocialProfile = Omit<NonNullable<ContactsRecord['socials']>[number], 'sources'>;

type Matcher = (segments: string[], url: URL) => SocialProfile | undefined;

const HANDLE = /^[A-Za-z0-9_.-]{1,100}$/;
const ok = (h: string | undefined): h is string => !!h && HANDLE.test(h);

/** First path segments that are platform pages, not accounts. */
const RESERVED: Partial<Record<Platform, Set<string>>> = {
  x: new Set(['intent', 'share', 'home', 'hashtag', 'search', 'i', 'explore', 'login', 'signup', 'settings', 'tos', 'privacy', 'messages', 'notifications', 'compose']),
  facebook: new Set(['sharer', 'sharer.php', 'share.php', 'share', 'dialog', 'plugins', 'tr', 'login', 'login.php', 'events', 'groups', 'watch', 'hashtag', 'help', 'policies', 'privacy', 'legal', 'business', 'ads', 'photo.php', 'photo', 'story.php', 'permalink.php', 'l.php', 'home.php', 'search', 'gaming', 'marketplace', 'reel']),
  instagram: new Set(['p', 'reel', 'reels', 'tv', 'explore', 'accounts', 'stories', 'direct', 'about', 'legal', 'developer']),
  github: new Set(['login', 'join', 'features', 'about', 'pricing', 'marketplace', 'explore', 'topics', 'trending', 'collections', 'sponsors', 'orgs', 'settings', 'notifications', 'site', 'security', 'enterprise', 'apps', 'contact', 'customer-stories', 'readme', 'team', 'pulls', 'issues', 'codespaces', 'search']),
  tiktok: new Set(['share', 'embed', 'tag', 'music', 'discover', 'login', 'upload', 'legal', 'foryou']),
  pinterest: new Set(['pin', 'search', 'ideas', 'today', 'login', 'business', 'explore', '_', 'categories']),
  telegram: new Set(['share', 'joinchat', 'addstickers', 'proxy', 'socks', 'iv', 's']),
  medium: new Set(['m', 'p', 'tag', 'topic', 'search', 'plans', 'about', 'membership']),
  twitch: new Set(['videos', 'directory', 'p', 'login', 'signup', 'downloads', 'jobs', 'settings']),
  vimeo: new Set(['channels', 'groups', 'categories', 'ondemand', 'watch', 'features', 'upgrade', 'log_in', 'join', 'blog', 'help', 'about', 'search']),
};

const reserved = (p: Platform, seg: string | undefined): boolean => !seg || RESERVED[p]?.has(seg.toLowerCase()) === true;

/** A profile at `/<handle>`; deeper paths (posts, statuses) are content, not the profile, unless `maxDepth` allows. */
const simple =
  (platform: Platform, base: string, maxDepth = 1): Matcher =>
  (segments) => {
    const [first] = segments;
    const h = segments.length <= maxDepth ? first : undefined;
    if (reserved(platform, first) || !ok(h)) return undefined;
    return { platform, url: `${base}${h}`, handle: h };
  };

const MATCHERS: Record<string, Matcher> = {
  'linkedin.com': ([kind, name]) => {
    const k = kind?.toLowerCase();
    if (!k || !['company', 'in', 'school', 'showcase', 'pub'].includes(k) || !name || !/^[\w%.-]{1,200}$/.test(name)) return undefined;
    return { platform: 'linkedin', url: `https://www.linkedin.com/${k}/${name}`, handle: decodeSafe(name) };
  },
  'twitter.com': simple('x', 'https://x.com/'),
  'x.com': simple('x', 'https://x.com/'),
  'facebook.com': (segs, url) => {
    const [first, second, third] = segs;
    if (first === 'profile.php') {
      const id = url.searchParams.get('id');
      return id && /^\d{1,30}$/.test(id) ? { platform: 'facebook', url: `https://www.facebook.com/profile.php?id=${id}` } : undefined;
    }
    if (first === 'pages' && second && third && /^\d{1,30}$/.test(third)) {
      return { platform: 'facebook', url: `https://www.facebook.com/pages/${second}/${third}` };
    }
    if (first === 'people' || first === 'pages') return undefined;
    return simple('facebook', 'https://www.facebook.com/')(segs, url);
  },
  'fb.com': (segs, url) => MATCHERS['facebook.com'](segs, url),
  'instagram.com': simple('instagram', 'https://www.instagram.com/'),
  'youtube.com': ([first, second]) => {
    if (first?.startsWith('@') && ok(first.slice(1))) return { platform: 'youtube', url: `https://www.youtube.com/${first}`, handle: first.slice(1) };
    if ((first === 'channel' || first === 'user' || first === 'c') && ok(second)) {
      return { platform: 'youtube', url: `https://www.youtube.com/${first}/${second}`, ...(first === 'channel' ? {} : { handle: second }) };
    }
    return undefined;
  },
  // A repository link names its owner's profile.
  'github.com': simple('github', 'https://github.com/', 2),
  'tiktok.com': ([first]) => (first?.startsWith('@') && ok(first.slice(1)) ? { platform: 'tiktok', url: `https://www.tiktok.com/${first}`, handle: first.slice(1) } : undefined),
  'pinterest.com': simple('pinterest', 'https://www.pinterest.com/'),
  't.me': simple('telegram', 'https://t.me/'),
  'telegram.me': simple('telegram', 'https://t.me/'),
  'threads.net': ([first]) => (first?.startsWith('@') && ok(first.slice(1)) ? { platform: 'threads', url: `https://www.threads.net/${first}`, handle: first.slice(1) } : undefined),
  'threads.com': (segs, url) => MATCHERS['threads.net'](segs, url),
  'bsky.app': ([first, second]) => (first === 'profile' && ok(second) ? { platform: 'bluesky', url: `https://bsky.app/profile/${second}`, handle: second } : undefined),
  'snapchat.com': ([first, second]) => (first === 'add' && ok(second) ? { platform: 'snapchat', url: `https://www.snapchat.com/add/${second}`, handle: second } : undefined),
  'wa.me': ([first]) => (first && /^\d{6,15}$/.test(first) ? { platform: 'whatsapp', url: `https://wa.me/${first}` } : undefined),
  'discord.gg': ([first]) => (ok(first) ? { platform: 'discord', url: `https://discord.gg/${first}` } : undefined),
  'discord.com': ([first, second]) => (first === 'invite' && ok(second) ? { platform: 'discord', url: `https://discord.gg/${second}` } : undefined),
  'medium.com': ([first]) => (first?.startsWith('@') && ok(first.slice(1)) ? { platform: 'medium', url: `https://medium.com/${first}`, handle: first.slice(1) } : undefined),
  'twitch.tv': simple('twitch', 'https://www.twitch.tv/'),
  'vimeo.com': ([first]) => (first && !/^\d+$/.test(first) ? simple('vimeo', 'https://vimeo.com/')([first], new URL('https://vimeo.com')) : undefined),
  'reddit.com': ([first, second]) =>
    (first === 'r' || first === 'user' || first === 'u') && ok(second)
      ? { platform: 'reddit', url: `https://www.reddit.com/${first === 'r' ? 'r' : 'user'}/${second}`, handle: second }
      : undefined,
};

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The platform host a link's host belongs to (`www.`, `m.`, country subdomains like `de.linkedin.com`). */
function platformHost(host: string): string | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const known of Object.keys(MATCHERS)) if (h === known || h.endsWith(`.${known}`)) return known;
  return undefined;
}

export function socialProfile(href: string): SocialProfile | undefined {
  if (!URL.canParse(href)) return undefined;
  const url = new URL(href);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = platformHost(url.hostname);
  if (!host) return undefined;
  // YouTube and Facebook app links (`m.`/`mobile.`) map to the same profile; share hosts never do.
  if (/^(?:share|sharer|api|static|help|business|developers|l|lm|about|blog|careers|support)\./i.test(url.hostname)) return undefined;
  const segments = url.pathname.split('/').filter(Boolean);
  return MATCHERS[host](segments, url);
}

/** One key per profile: platform plus the canonical address, case-folded. */
export const profileKey = (p: SocialProfile): string => `${p.platform} ${p.url.toLowerCase()}`;
