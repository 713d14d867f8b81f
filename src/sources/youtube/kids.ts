/**
 * YouTube Kids (client WEB_KIDS on www.youtubekids.com) → records. No answer is recorded anywhere we could use: the
 * shapes are those youtubei.js 18.1.0 parses (ytkids Search: an item section of `compactVideoRenderer`s; the player's
 * `videoDetails`), and the tests feed fixtures written from them, named as such. Pure functions.
 */
import type { YOUTUBE_KIDS_VIDEO } from '../../catalogue/endpoints/youtube.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { at, channelUrl, compact, images, int, listEntries, need, obj, rawText, str, text, watchUrl, type ListEntry, type Obj } from './normalise.js';

export type KidsVideo = TypeOf<typeof YOUTUBE_KIDS_VIDEO>;
export const kidsUrl = (id: string) => `https://www.youtubekids.com/watch?v=${id}`;

function asKids(e: ListEntry): KidsVideo | undefined {
  if (e.type !== 'video' || !e.title) return undefined;
  const { type, id, url, title, author, durationSeconds, durationText, views, viewsText, publishedText, description, thumbnails, isLive, isShort } = e;
  return compact({ type, id, url, kidsUrl: kidsUrl(id), title, author, durationSeconds, durationText, views, viewsText, publishedText, description, thumbnails, isLive, isShort });
}

/** A YouTube Kids search answer: its item section's videos. */
export function kidsSearch(answer: Obj): KidsVideo[] {
  const sections = at(answer, 'contents', 'sectionListRenderer', 'contents') ?? at(answer, 'contents', 'twoColumnSearchResultsRenderer', 'primaryContents', 'sectionListRenderer', 'contents');
  if (!sections) throw new QuarryError('sourceChanged', 'youtube: the YouTube Kids search answer has no section list');
  return listEntries(sections).items.flatMap((e) => asKids(e) ?? []);
}

/** A YouTube Kids player answer: the video's details (Kids refuses what it does not allow). */
export function kidsVideo(videoId: string, player: Obj): KidsVideo {
  const d = obj(player.videoDetails);
  if (!d) throw new QuarryError('notFound', `video: ${videoId} is not on YouTube Kids`);
  const channel = str(d.channelId);
  const length = int(d.lengthSeconds);
  const views = int(d.viewCount);
  return compact({
    type: 'video' as const,
    id: need(str(d.videoId), 'the Kids player names no video id'),
    url: watchUrl(videoId),
    kidsUrl: kidsUrl(videoId),
    title: need(text(d.title), 'the Kids player names no title'),
    author: compact({ id: channel, name: str(d.author), url: channel ? channelUrl(channel) : undefined }),
    durationSeconds: length && length > 0 ? length : undefined,
    views,
    description: rawText(d.shortDescription),
    thumbnails: images(d.thumbnail),
    keywords: Array.isArray(d.keywords) ? d.keywords.filter((k): k is string => typeof k === 'string').slice(0, 100) : undefined,
    isLive: d.isLive === true || undefined,
    isLiveContent: d.isLiveContent === true || undefined,
  });
}
