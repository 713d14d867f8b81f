/** POST /v1/video: a video's details, transcript, comments, a comment's replies, or its live chat. */
import { choice, language, plainCursor, text } from '../../catalogue/fields.js';
import { orNull, paging } from '../format.js';
import { legacyBody, requiredFor, type LegacyPath } from '../types.js';
import { legacyChatMessage, legacyComment, legacyListVideo, legacyVideo } from '../youtube-views.js';

const TYPES = ['details', 'transcript', 'comments', 'replies', 'livechat'] as const;

interface VideoBody {
  videoUrl: string;
  type: (typeof TYPES)[number];
  continuationToken?: string;
  language?: string;
  sortBy?: 'top' | 'newest';
}

export const videoPath: LegacyPath<VideoBody> = {
  name: 'video',
  summary: 'A YouTube video: its details and related videos, its timestamped transcript, its comments, one comment’s replies, or its live chat (`type`).',
  input: legacyBody(
    {
      videoUrl: text(1, 2048, 'the video: an id or any YouTube address of it'),
      type: { ...choice(TYPES, 'details'), description: 'what to return: details, transcript, comments, replies or livechat' },
      continuationToken: { ...plainCursor(1, 4096), description: 'comments and livechat: the next page; replies: the comment’s repliesToken' },
      language: { ...language(), description: 'transcript: the caption language' },
      sortBy: { ...choice(['top', 'newest']), description: 'comments: the order' },
    },
    ['videoUrl'],
  ),
  endpoints: ['youtube.video', 'youtube.transcript', 'youtube.comments', 'youtube.comments.replies', 'youtube.livechat'],
  fieldNames: { video: 'videoUrl', cursor: 'continuationToken', sort: 'sortBy' },
  route(b) {
    const video = b.videoUrl;
    const cursor = b.continuationToken === undefined ? {} : { cursor: b.continuationToken };
    switch (b.type) {
      case 'details':
        return { endpoint: 'youtube.video', input: { video } };
      case 'transcript':
        return { endpoint: 'youtube.transcript', input: { video, includeTimestamps: true, ...(b.language ? { language: b.language } : {}) } };
      case 'comments':
        return { endpoint: 'youtube.comments', input: { video, ...cursor, ...(b.sortBy ? { sort: b.sortBy } : {}) } };
      case 'replies':
        if (b.continuationToken === undefined) throw requiredFor('continuationToken', 'replies (send the comment’s repliesToken)');
        return { endpoint: 'youtube.comments.replies', input: { video, ...cursor } };
      case 'livechat':
        return { endpoint: 'youtube.livechat', input: { video, ...cursor } };
    }
  },
  view(data, b) {
    switch (b.type) {
      case 'details':
        return {
          video: legacyVideo(data.video),
          related: (data.related ?? []).filter((e: { type: string }) => e.type === 'video').map(legacyListVideo),
        };
      case 'transcript':
        return {
          videoId: data.video,
          language: data.language,
          languageName: data.languageName,
          isGenerated: data.isGenerated,
          text: data.text,
          segments: (data.segments ?? []).map((s: { start: number; duration: number; text: string }) => ({
            start: s.start,
            duration: s.duration,
            end: Math.round((s.start + s.duration) * 1000) / 1000,
            text: s.text,
          })),
          languages: data.languages,
        };
      case 'comments':
        return { comments: (data.comments ?? []).map(legacyComment), commentCount: orNull(data.total), ...paging(data.cursor) };
      case 'replies':
        return { replies: (data.replies ?? []).map(legacyComment), ...paging(data.cursor) };
      case 'livechat':
        return { isReplay: data.isReplay, messages: (data.messages ?? []).map(legacyChatMessage), ...paging(data.cursor) };
    }
  },
};
