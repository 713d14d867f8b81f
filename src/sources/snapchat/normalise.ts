/**
 * Snapchat's profile page → records. The page is a Next.js app whose whole state is `__NEXT_DATA__`
 * (`props.pageProps`): `userProfile` (a oneof: `publicProfileInfo` or `userInfo`), and the Spotlight videos as two
 * parallel lists joined by index (`spotlightHighlights`: ids and media; `spotlightStoryMetadata`: titles and counts).
 * Optional scalars are protobuf wrappers (`{"value": …}`) and 64-bit numbers arrive as strings. Pure functions.
 */
import type { SNAPCHAT_PROFILE, SPOTLIGHT_VIDEO } from '../../catalogue/endpoints/snapchat.js';
import type { TypeOf } from '../../catalogue/types.js';
import { arr, changed, compact, int, isObj, isoFromMillis, isoFromSeconds, isoFromText, need, obj, objs, str, type Obj } from '../kit/read.js';

export type SnapchatProfile = TypeOf<typeof SNAPCHAT_PROFILE>;
export type SpotlightVideo = TypeOf<typeof SPOTLIGHT_VIDEO>;

export const WEB = 'https://www.snapchat.com';
const SOURCE = 'snapchat';

/** A protobuf wrapper's value (`{"value": "x"}` → "x"). */
const value = (v: unknown): unknown => (isObj(v) && Object.keys(v).length === 1 && 'value' in v ? v.value : v);
const text = (v: unknown) => str(value(v));
const count = (v: unknown) => int(value(v));
/** Snapchat's own filler, which a title or description column must not carry as data. */
const FILLER = new Set(['Spotlight Snap', 'Another Spotlight Snap brought to you by Snapchat']);
const real = (v: unknown) => {
  const s = text(v);
  return s && !FILLER.has(s) ? s : undefined;
};

export const profileUrl = (username: string) => `${WEB}/@${username}`;

/** The account of a profile page: its oneof case and fields. */
export function accountOf(props: Obj): { kind: 'publicProfileInfo' | 'userInfo'; info: Obj } {
  const up = obj(props.userProfile);
  const kind = up?.$case;
  const info = typeof kind === 'string' ? obj(up?.[kind]) : undefined;
  if ((kind !== 'publicProfileInfo' && kind !== 'userInfo') || !info) throw changed(SOURCE, 'a profile page without userProfile');
  return { kind, info };
}

/** The ProfilePage JSON-LD's FollowAction counter, or undefined when it states none (Snapchat hides the count). */
function ldFollowers(ld: Obj | undefined): number | undefined {
  for (const stat of objs(obj(ld?.mainEntity)?.interactionStatistic)) {
    const kind = isObj(stat.interactionType) ? stat.interactionType['@type'] : stat.interactionType;
    if (kind === 'FollowAction') return int(stat.userInteractionCount);
  }
  return undefined;
}

export function profileRecord(props: Obj, ld: Obj | undefined): SnapchatProfile {
  const { kind, info } = accountOf(props);
  const username = need(text(info.username), SOURCE, 'a profile without a username').toLowerCase();
  if (kind === 'userInfo') {
    return compact({
      type: 'profile' as const,
      username,
      url: profileUrl(username),
      isPublic: false,
      name: text(info.displayName),
      avatar: str(obj(obj(info.bitmoji3d)?.avatarImage)?.url),
      snapcode: text(info.snapcodeImageUrl),
    });
  }
  const subscribers = count(info.subscriberCount);
  return compact({
    type: 'profile' as const,
    username,
    url: profileUrl(username),
    isPublic: true,
    id: text(info.businessProfileId),
    name: text(info.title),
    bio: text(info.bio),
    avatar: text(info.profilePictureUrl),
    banner: text(info.squareHeroImageUrl),
    // "0" beside a JSON-LD that states no counter is a hidden count, not zero.
    followers: subscribers === 0 && ldFollowers(ld) === undefined ? undefined : subscribers,
    website: text(info.websiteUrl),
    location: text(info.address),
    createdAt: isoFromText(ld?.dateCreated),
    category: text(info.categoryStringId),
    snapcode: text(info.snapcodeImageUrl),
  });
}

/** The Spotlight videos the page lists; empty slots (no story id) are placeholders and left out. */
export function spotlightVideos(props: Obj, username: string): SpotlightVideo[] {
  const highlights = props.spotlightHighlights;
  if (!Array.isArray(highlights)) throw changed(SOURCE, 'a public profile page without spotlightHighlights');
  const metas = arr(props.spotlightStoryMetadata);
  return highlights.flatMap((h, i): SpotlightVideo[] => {
    if (!isObj(h)) return [];
    const id = text(h.storyId);
    if (!id) return [];
    const meta = obj(metas[i]) ?? {};
    const vm = obj(meta.videoMetadata) ?? {};
    const stats = obj(meta.engagementStats);
    const snap = obj(arr(h.snapList)[0]);
    const creator = obj(vm.creator);
    const person = typeof creator?.$case === 'string' ? obj(creator[creator.$case]) : undefined;
    const author = text(person?.username) ?? username;
    const ms = count(vm.durationMs);
    const thumb = text(vm.thumbnailUrl) ?? text(h.thumbnailUrl);
    const mediaUrl = text(vm.contentUrl) ?? text(obj(snap?.snapUrls)?.mediaUrl);
    const width = count(vm.width) || undefined;
    const height = count(vm.height) || undefined;
    const uploaded = count(vm.uploadDateMs);
    const tags = arr(meta.hashtags).flatMap((t) => (str(t) ? [str(t)!.replace(/^#/, '')] : []));
    return [
      compact({
        type: 'video' as const,
        id,
        url: `${WEB}/spotlight/${encodeURIComponent(id)}`,
        title: text(meta.llmTitle) ?? real(vm.name),
        description: real(vm.description) ?? real(meta.description),
        publishedAt: uploaded ? isoFromMillis(uploaded) : (count(snap?.timestampInSec) ?? 0) > 0 ? isoFromSeconds(count(snap?.timestampInSec)) : undefined,
        durationSeconds: ms ? Math.round(ms / 1000) : undefined,
        // An engagement block that did not arrive leaves the counts unknown rather than zero.
        views: stats ? count(stats.viewCount) : undefined,
        comments: stats ? count(stats.commentCount) : undefined,
        shares: stats ? count(stats.shareCount) : undefined,
        author: compact({ username: author, name: text(person?.name), url: profileUrl(author) }),
        thumbnails: thumb ? [{ url: thumb }] : undefined,
        hashtags: tags.length > 0 ? tags : undefined,
        video: mediaUrl || width ? compact({ url: mediaUrl, width, height, durationSeconds: ms ? Math.round(ms / 1000) : undefined, thumbnail: thumb }) : undefined,
      }),
    ];
  });
}
