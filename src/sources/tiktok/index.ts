/**
 * The tiktok source: profiles, their videos, one video, comments, search, the For You feed and the EU ad library (its
 * search through the web library, one ad through the Commercial Content API).
 */
import { TIKTOK } from '../../catalogue/endpoints/tiktok.js';
import { isQuarryError, QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { need, obj, str } from '../kit/read.js';
import type { SourceContext, SourceModule } from '../types.js';
import { fetchAds, fetchComments, fetchOembed, fetchPostList, fetchProfilePage, fetchSearch, fetchTrending, fetchVideoPage, resolveShortLink } from './client.js';
import { adDetailRecord, adRecord, commentRecord, oembedVideo, profileRecord, videoRecord, videoRecords, WEB, type TiktokVideo } from './normalise.js';
import { adOf, postsCursor, usernameOf, videoOf, type VideoRef } from './refs.js';
import { CLIENT_KEY_SETTING, CLIENT_SECRET_SETTING, fetchAdDetail } from './research.js';
import { SIGNER_SETTING } from './signer.js';
import adsAdSamples from './samples/ads.ad.json' with { type: 'json' };
import adsSearchSamples from './samples/ads.search.json' with { type: 'json' };
import commentsSamples from './samples/comments.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import trendingSamples from './samples/trending.json' with { type: 'json' };
import videoSamples from './samples/video.json' with { type: 'json' };

/** TikTok's "more": a boolean on some answers, 0/1 on others. */
const more = (v: unknown): boolean => v === true || v === 1 || v === '1';

/** A list TikTok may leave out or null when it is empty, as long as it says there is nothing more. */
function listOf(body: Record<string, unknown>, key: string, hasMore: boolean, what: string): unknown[] {
  const list = body[key];
  if (Array.isArray(list)) return list;
  if ((list === undefined || list === null) && !hasMore) return [];
  throw new QuarryError('sourceChanged', `tiktok: ${what} answer without ${key}`);
}

const profile = operation(TIKTOK.profile, {
  async run(input, ctx) {
    return { data: { profile: profileRecord(await fetchProfilePage(usernameOf(input.profile), ctx)) } };
  },
  samples: profileSamples,
});

const posts = operation(TIKTOK.posts, {
  async run(input, ctx) {
    let secUid: string;
    let cursor = '0';
    if (input.cursor) ({ secUid, cursor } = postsCursor(input.cursor));
    else {
      const info = await fetchProfilePage(usernameOf(input.profile), ctx);
      secUid = need(str(obj(info.user)?.secUid), 'tiktok', 'a profile without secUid');
    }
    const body = await fetchPostList(secUid, input.limit, cursor, ctx);
    const hasMore = more(body.hasMore);
    const videos = videoRecords(listOf(body, 'itemList', hasMore, "an account's videos")).slice(0, input.limit);
    const next = hasMore ? str(String(body.cursor ?? '')) : undefined;
    return { data: { videos, ...(next && /^[0-9]{1,20}$/.test(next) ? { cursor: `${secUid}:${next}` } : {}) }, ...(videos.length ? {} : { free: true }) };
  },
  samples: postsSamples,
});

async function resolve(ref: VideoRef, ctx: SourceContext): Promise<{ id: string; username?: string }> {
  if (!ref.shortLink) return { id: ref.id!, username: ref.username };
  const landed = videoOf(await resolveShortLink(ref.shortLink, ctx));
  if (!landed.id) throw new QuarryError('notFound', `tiktok: the short link ${ref.shortLink} does not lead to a video`);
  return { id: landed.id, username: landed.username };
}

const video = operation(TIKTOK.video, {
  async run(input, ctx) {
    const { id, username } = await resolve(videoOf(input.video), ctx);
    // TikTok serves a video's page under any handle; "_" stands in when the caller gave none (as yt-dlp does).
    const handle = username ?? '_';
    let record: TiktokVideo;
    try {
      record = videoRecord(await fetchVideoPage(handle, id, ctx));
    } catch (e) {
      // A walled page: the keyless oEmbed still names the video, its author and cover (no time or counts).
      if (!(isQuarryError(e) && e.code === 'sourceRefused')) throw e;
      record = oembedVideo(await fetchOembed(`${WEB}/@${handle}/video/${id}`, ctx), id);
    }
    return { data: { video: record } };
  },
  samples: videoSamples,
});

const comments = operation(TIKTOK.comments, {
  async run(input, ctx) {
    const { id } = await resolve(videoOf(input.video), ctx);
    const body = await fetchComments(id, input.limit, input.cursor ?? '0', ctx);
    const hasMore = more(body.has_more);
    const list = listOf(body, 'comments', hasMore, 'comments').map(commentRecord).slice(0, input.limit);
    const next = hasMore && body.cursor !== undefined ? String(body.cursor) : undefined;
    const total = typeof body.total === 'number' ? body.total : undefined;
    return {
      data: { comments: list, ...(next && /^[0-9]{1,20}$/.test(next) ? { cursor: next } : {}), ...(total !== undefined ? { total } : {}) },
      ...(list.length ? {} : { free: true }),
    };
  },
  samples: commentsSamples,
});

const search = operation(TIKTOK.search, {
  async run(input, ctx) {
    const body = await fetchSearch(input.query, input.limit, input.cursor ?? '0', ctx);
    const hasMore = more(body.has_more);
    const videos = videoRecords(listOf(body, 'item_list', hasMore, 'search')).slice(0, input.limit);
    const next = hasMore && body.cursor !== undefined ? String(body.cursor) : undefined;
    return { data: { videos, ...(next && /^[0-9]{1,20}$/.test(next) ? { cursor: next } : {}) }, ...(videos.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const trending = operation(TIKTOK.trending, {
  async run(input, ctx) {
    const body = await fetchTrending(input.country.toUpperCase(), input.limit, ctx);
    const videos = videoRecords(listOf(body, 'itemList', more(body.hasMore), 'the For You feed')).slice(0, input.limit);
    return { data: { videos }, ...(videos.length ? {} : { free: true }) };
  },
  samples: trendingSamples,
});

const DAY = 86_400;
const seconds = (date: string, endOfDay: boolean) => Date.parse(`${date}T00:00:00Z`) / 1000 + (endOfDay ? DAY - 1 : 0);

const adsSearch = operation(TIKTOK.adsSearch, {
  async run(input, ctx) {
    const to = input.to ? seconds(input.to, true) : Math.floor(Date.now() / 1000);
    const from = input.from ? seconds(input.from, false) : to - 365 * DAY;
    if (from > to) throw new QuarryError('invalidRequest', 'from: must not be after to');
    const body = await fetchAds({ query: input.query, region: input.country.toUpperCase(), from, to, cursor: input.cursor }, ctx);
    if (!Array.isArray(body.data)) throw new QuarryError('sourceChanged', 'tiktok: ad library answer without data');
    const ads = body.data.map((a) => adRecord(a, input.country)).slice(0, input.limit);
    const next = more(body.has_more) ? str(body.search_id) : undefined;
    const total = typeof body.total === 'number' ? body.total : undefined;
    return { data: { ads, ...(next ? { cursor: next } : {}), ...(total !== undefined ? { total } : {}) }, ...(ads.length ? {} : { free: true }) };
  },
  samples: adsSearchSamples,
});

const adsAd = operation(TIKTOK.adsAd, {
  async run(input, ctx) {
    const { id, region } = adOf(input.ad);
    return { data: { ad: adDetailRecord(await fetchAdDetail(id, ctx), id, region) } };
  },
  samples: adsAdSamples,
});

const tiktok: SourceModule = {
  id: 'tiktok',
  needs: {
    settings: [
      {
        name: 'SIGNER_URL',
        required: false,
        purpose: `a request-signing service (contract in src/sources/tiktok/signer.ts); without it tiktok.posts, comments, search, trending and ads.search answer sourceUnavailable naming ${SIGNER_SETTING}`,
      },
      {
        name: 'CLIENT_KEY',
        required: false,
        purpose: `the client key of an approved TikTok Commercial Content API research client; tiktok.ads.ad answers sourceUnavailable naming ${CLIENT_KEY_SETTING} without it`,
      },
      {
        name: 'CLIENT_SECRET',
        required: false,
        purpose: `that client's secret (${CLIENT_SECRET_SETTING}), with which Quarry asks TikTok's client access tokens`,
      },
    ],
    proxy: 'advised',
  },
  operations: [profile, posts, video, comments, search, trending, adsSearch, adsAd],
};

export default tiktok;
