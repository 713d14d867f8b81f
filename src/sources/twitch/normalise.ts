/** Pure functions from Twitch's GraphQL answers and its iCalendar schedule to the shared records. */
import type { TWITCH_CATEGORY, TWITCH_CLIP, TWITCH_PROFILE, TWITCH_SEGMENT, TWITCH_STREAM, TWITCH_VIDEO } from '../../catalogue/endpoints/twitch.js';
import type { TypeOf } from '../../catalogue/types.js';
import type { PERSON } from '../../catalogue/vocabulary.js';
import { bool, compact, int, isoFromText, readsOf, obj, objs, str, type Obj } from '../kit/read.js';

export type TwitchProfile = TypeOf<typeof TWITCH_PROFILE>;
export type TwitchVideo = TypeOf<typeof TWITCH_VIDEO>;
export type TwitchClip = TypeOf<typeof TWITCH_CLIP>;
export type TwitchStream = TypeOf<typeof TWITCH_STREAM>;
export type TwitchCategory = TypeOf<typeof TWITCH_CATEGORY>;
export type TwitchSegment = TypeOf<typeof TWITCH_SEGMENT>;
type Person = TypeOf<typeof PERSON>;

const WEB = 'https://www.twitch.tv';
export const { need, changed } = readsOf('twitch');

export const channelUrl = (login: string) => `${WEB}/${login}`;
export const categoryUrl = (slug: string) => `${WEB}/directory/category/${slug}`;

/** A user as a video, clip or stream names it → the shared person; the partner badge is Twitch's verified mark. */
export function personOf(v: unknown): Person | undefined {
  const u = obj(v);
  const id = str(u?.id);
  if (!u || !id) return undefined;
  const login = str(u.login);
  return compact({
    id,
    username: login,
    name: str(u.displayName),
    url: login ? channelUrl(login) : undefined,
    avatar: str(u.profileImageURL),
    isVerified: (bool(obj(u.roles)?.isPartner) ?? bool(u.isPartner)) || undefined,
  });
}

const displayName = (game: unknown): string | undefined => str(obj(game)?.displayName) ?? str(obj(game)?.name);

// ---- Channels --------------------------------------------------------------------------------------------------------

/** ChannelShell's `userOrError` when the channel does not exist or is banned: its reason (UNKNOWN, DMCA, TOS_…). */
export function missingChannel(shell: Obj): string | undefined {
  const u = obj(shell.userOrError);
  if (!u) throw changed('ChannelShell without userOrError');
  return u.__typename === 'UserDoesNotExist' || u.userDoesNotExist !== undefined ? str(u.reason) ?? 'UNKNOWN' : undefined;
}

/**
 * A channel from its three web-app answers: ChannelShell (who, live viewers, banner), ChannelRoot_AboutPanel (bio,
 * followers, badges, links, team, next scheduled stream) and StreamMetadata (the live stream's title, category and
 * start).
 */
export function profileOf(shell: Obj, about: Obj, meta: Obj): TwitchProfile {
  const u = need(obj(shell.userOrError), 'ChannelShell without userOrError');
  const id = need(str(u.id), 'channel without id');
  const login = need(str(u.login), `channel ${id} without login`);
  const a = obj(about.user) ?? {};
  const m = obj(meta.user) ?? {};
  const roles = obj(a.roles);
  const stream = obj(u.stream);
  const metaStream = obj(m.stream);
  const links = objs(obj(a.channel)?.socialMedias).flatMap((s) => {
    const url = str(s.url);
    return url ? [compact({ url, title: str(s.title) ?? str(s.name) })] : [];
  });
  return compact({
    type: 'profile' as const,
    id,
    username: login,
    url: channelUrl(login),
    name: str(u.displayName) ?? login,
    followers: need(int(obj(a.followers)?.totalCount), `channel ${login} without followers`),
    bio: str(a.description),
    avatar: str(a.profileImageURL) ?? str(u.profileImageURL),
    banner: str(u.bannerImageURL),
    isVerified: bool(roles?.isPartner) || undefined,
    isAffiliate: bool(roles?.isAffiliate) || undefined,
    links,
    team: str(obj(a.primaryTeam)?.displayName),
    isLive: Boolean(stream ?? metaStream),
    live:
      stream || metaStream
        ? compact({
            id: need(str(stream?.id) ?? str(metaStream?.id), `channel ${login}: a live stream without id`),
            title: str(obj(m.lastBroadcast)?.id) === (str(stream?.id) ?? str(metaStream?.id)) ? str(obj(m.lastBroadcast)?.title) : undefined,
            viewers: int(stream?.viewersCount),
            startedAt: isoFromText(metaStream?.createdAt),
            category: displayName(metaStream?.game),
          })
        : undefined,
    lastStreamTitle: stream || metaStream ? undefined : str(obj(m.lastBroadcast)?.title),
    lastStreamCategory: displayName(obj(a.lastBroadcast)?.game),
    nextStreamAt: isoFromText(obj(obj(obj(a.channel)?.schedule)?.nextSegment)?.startAt),
  });
}

/** A channel as the search page lists it (with its followers, live stream and next scheduled stream). */
export function searchChannelOf(item: Obj): TwitchProfile {
  const id = need(str(item.id), 'search channel without id');
  const login = need(str(item.login), `search channel ${id} without login`);
  const stream = obj(item.stream);
  return compact({
    type: 'profile' as const,
    id,
    username: login,
    url: channelUrl(login),
    name: str(item.displayName) ?? login,
    followers: need(int(obj(item.followers)?.totalCount), `search channel ${login} without followers`),
    bio: str(item.description),
    avatar: str(item.profileImageURL),
    isVerified: bool(obj(item.roles)?.isPartner) || undefined,
    isLive: Boolean(stream),
    live: stream
      ? compact({
          id: need(str(stream.id), `search channel ${login}: a stream without id`),
          title: str(obj(item.broadcastSettings)?.title),
          viewers: int(stream.viewersCount),
          category: displayName(stream.game),
          thumbnail: str(stream.previewImageURL),
        })
      : undefined,
    nextStreamAt: isoFromText(obj(obj(obj(item.channel)?.schedule)?.nextSegment)?.startAt),
  });
}

/** A broadcast a channel or a shelf lists (UseLive's, ChannelShell's): whether it is live, since when. */
export const liveSince = (user: unknown): string | undefined => isoFromText(obj(obj(user)?.stream)?.createdAt);

// ---- Videos and clips ------------------------------------------------------------------------------------------------

const KINDS: Record<string, TwitchVideo['kind']> = { ARCHIVE: 'archive', HIGHLIGHT: 'highlight', UPLOAD: 'upload', PAST_PREMIERE: 'premiere', PREMIERE_UPLOAD: 'premiere' };

/** A video node; `kind` is what the request asked for, when the answer does not say (the video tower's nodes). */
export function videoOf(v: unknown, kind?: TwitchVideo['kind']): TwitchVideo {
  const n = obj(v);
  const id = need(str(n?.id), 'video without id');
  const what = (w: string) => `video ${id} without ${w}`;
  const thumb = str(n!.previewThumbnailURL);
  return compact({
    type: 'video' as const,
    id,
    url: `${WEB}/videos/${id}`,
    publishedAt: need(isoFromText(n!.publishedAt) ?? isoFromText(n!.createdAt), what('publishedAt')),
    durationSeconds: need(int(n!.lengthSeconds), what('lengthSeconds')),
    views: need(int(n!.viewCount), what('viewCount')),
    title: str(n!.title),
    description: str(n!.description),
    author: personOf(n!.owner),
    thumbnails: thumb ? [{ url: thumb }] : undefined,
    category: displayName(n!.game),
    kind: KINDS[str(n!.broadcastType) ?? ''] ?? kind,
    isSubscriberOnly: str(obj(n!.resourceRestriction)?.type)?.startsWith('SUB_ONLY') || undefined,
  });
}

/** A clip's playable MP4: its first quality's address, signed with the playback token the answer carries. */
export function signedClipUrl(clip: Obj): string | undefined {
  const source = str(objs(clip.videoQualities)[0]?.sourceURL);
  const token = obj(clip.playbackAccessToken);
  const sig = str(token?.signature);
  const value = str(token?.value);
  if (!source || !sig || !value || !/^https:\/\//.test(source)) return undefined;
  return `${source}${source.includes('?') ? '&' : '?'}sig=${encodeURIComponent(sig)}&token=${encodeURIComponent(value)}`;
}

/** A clip (ClipsCards' cards, ShareClipRenderStatus, a channel shelf's clips with their aliased fields). */
export function clipOf(c: unknown): TwitchClip {
  const n = obj(c);
  const slug = need(str(n?.slug), 'clip without slug');
  const what = (w: string) => `clip ${slug} without ${w}`;
  const author = personOf(n!.broadcaster);
  const thumb = str(n!.thumbnailURL);
  const mp4 = signedClipUrl(n!);
  const duration = int(n!.durationSeconds);
  return compact({
    type: 'clip' as const,
    id: slug,
    url: str(n!.url) ?? (author?.username ? `${WEB}/${author.username}/clip/${slug}` : `https://clips.twitch.tv/${slug}`),
    publishedAt: need(isoFromText(n!.createdAt), what('createdAt')),
    durationSeconds: need(duration, what('durationSeconds')),
    views: need(int(n!.viewCount) ?? int(n!.clipViewCount), what('viewCount')),
    title: str(n!.title) ?? str(n!.clipTitle),
    author,
    clippedBy: personOf(n!.curator),
    thumbnails: thumb ? [{ url: thumb }] : undefined,
    category: displayName(n!.game) ?? displayName(n!.clipGame),
    language: str(n!.language)?.toLowerCase(),
    isFeatured: bool(n!.isFeatured) || undefined,
    videoId: str(obj(n!.video)?.id),
    videoOffsetSeconds: int(n!.videoOffsetSeconds),
    video: mp4 ? compact({ url: mp4, durationSeconds: duration, thumbnail: thumb }) : undefined,
  });
}

// ---- Directories -----------------------------------------------------------------------------------------------------

export function streamOf(s: unknown): TwitchStream {
  const n = obj(s);
  const id = need(str(n?.id), 'stream without id');
  const author = need(personOf(n!.broadcaster), `stream ${id} without its broadcaster`);
  return compact({
    type: 'stream' as const,
    id,
    url: need(author.url, `stream ${id}: a broadcaster without login`),
    viewers: need(int(n!.viewersCount), `stream ${id} without viewersCount`),
    author,
    title: str(n!.title),
    category: displayName(n!.game),
    thumbnail: str(n!.previewImageURL),
    tags: objs(n!.freeformTags).flatMap((t) => str(t.name) ?? []),
  });
}

export function categoryOf(g: unknown): TwitchCategory {
  const n = obj(g);
  const id = need(str(n?.id), 'category without id');
  const slug = str(n!.slug);
  const image = str(n!.avatarURL) ?? str(n!.boxArtURL);
  return compact({
    type: 'category' as const,
    id,
    name: need(displayName(n), `category ${id} without name`),
    url: slug ? categoryUrl(slug) : `${WEB}/directory/category/${id}`,
    slug,
    image: image ? { url: image } : undefined,
    viewers: int(n!.viewersCount),
    followers: int(obj(n!.followers)?.totalCount),
    tags: objs(n!.tags).flatMap((t) => str(t.localizedName) ?? str(t.tagName) ?? []),
  });
}

/** A connection's nodes (or search's items) and the cursor of its last edge, when Twitch says more follow. */
export function connection<T>(c: unknown, read: (node: unknown) => T, key = 'node'): { items: T[]; token?: string } {
  const conn = obj(c);
  if (!conn || !Array.isArray(conn.edges)) throw changed('a connection without edges');
  const edges = objs(conn.edges);
  const more = bool(obj(conn.pageInfo)?.hasNextPage);
  const last = str(edges.at(-1)?.cursor);
  return { items: edges.flatMap((e) => (obj(e[key]) ? [read(e[key])] : [])), ...(more !== false && last ? { token: last } : {}) };
}

// ---- The schedule (iCalendar) ----------------------------------------------------------------------------------------

/** Content lines, unfolded (RFC 5545 §3.1: a line starting with a space or tab continues the previous one). */
function contentLines(ics: string): string[] {
  const out: string[] = [];
  for (const raw of ics.split(/\r?\n/)) {
    if (/^[ \t]/.test(raw) && out.length) out[out.length - 1] += raw.slice(1);
    else if (raw) out.push(raw);
  }
  return out;
}

const unescape = (v: string) => v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

/** Milliseconds a zone is ahead of UTC at an instant (Intl's view of the zone database). */
function offsetMs(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - ms;
}

/** A DATE-TIME value (`20210701T140000`, with `Z` or a TZID parameter) as ISO 8601 UTC; undefined when unreadable. */
function instant(params: string, value: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return undefined;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  if (Number.isNaN(wall)) return undefined;
  if (m[7]) return new Date(wall).toISOString();
  // Twitch writes its zone ids with a leading slash (TZID=/America/New_York); a floating time is taken as UTC.
  const zone = /;TZID=\/?([^;:]+)/i.exec(params)?.[1];
  if (!zone) return new Date(wall).toISOString();
  try {
    const first = wall - offsetMs(wall, zone);
    return new Date(wall - offsetMs(first, zone)).toISOString();
  } catch {
    return undefined;
  }
}

/** The VEVENTs of a channel's iCalendar → its scheduled streams, in the calendar's order. */
export function scheduleOf(ics: string): TwitchSegment[] {
  const segments: TwitchSegment[] = [];
  let event: Record<string, { params: string; value: string }> | undefined;
  for (const line of contentLines(ics)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const head = line.slice(0, colon);
    const value = line.slice(colon + 1);
    const name = head.split(';')[0].toUpperCase();
    if (name === 'BEGIN' && value.toUpperCase() === 'VEVENT') event = {};
    else if (name === 'END' && value.toUpperCase() === 'VEVENT' && event) {
      const id = event.UID?.value;
      const startsAt = event.DTSTART ? instant(event.DTSTART.params, event.DTSTART.value) : undefined;
      if (id && startsAt) {
        const rule = event.RRULE?.value;
        segments.push(
          compact({
            type: 'segment' as const,
            id: unescape(id),
            startsAt,
            title: event.SUMMARY ? unescape(event.SUMMARY.value) : undefined,
            endsAt: event.DTEND ? instant(event.DTEND.params, event.DTEND.value) : undefined,
            category: event.CATEGORIES ? unescape(event.CATEGORIES.value) : undefined,
            isRecurring: rule ? true : undefined,
            recurrence: rule,
          }),
        );
      }
      event = undefined;
    } else if (event && !(name in event)) event[name] = { params: head.slice(name.length), value };
  }
  return segments;
}
