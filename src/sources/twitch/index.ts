/**
 * The twitch source, on the web app's public GraphQL endpoint (persisted queries, its public Client-Id) and Helix's
 * keyless iCalendar export for schedules: channels, their videos, clips, schedule, one video or clip, search, a
 * category's live streams and the top categories.
 */
import { TWITCH } from '../../catalogue/endpoints/twitch.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor, type Page } from '../kit/paging.js';
import { obj, type Obj } from '../kit/read.js';
import type { SourceContext, SourceModule } from '../types.js';
import { categorySlug, clipSlug, fetchICalendar, gql, loginOf, videoId } from './client.js';
import {
  categoryOf,
  clipOf,
  connection,
  missingChannel,
  personOf,
  profileOf,
  scheduleOf,
  searchChannelOf,
  streamOf,
  videoOf,
} from './normalise.js';
import categoriesSamples from './samples/categories.json' with { type: 'json' };
import clipSamples from './samples/clip.json' with { type: 'json' };
import clipsSamples from './samples/clips.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import scheduleSamples from './samples/schedule.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import streamsSamples from './samples/streams.json' with { type: 'json' };
import videoSamples from './samples/video.json' with { type: 'json' };
import videosSamples from './samples/videos.json' with { type: 'json' };

/** Twitch's page tokens: base64 offsets, `id|n|time|n` video cursors. */
const TOKEN = /^[A-Za-z0-9|:._+/=-]{1,512}$/;

/** One Twitch page from the cursor on (one request per call), at most `limit` items. */
async function pages<T>(cursor: string | undefined, limit: number, fetchPage: (token: string | undefined, size: number) => Promise<Page<T>>) {
  return collectPages(readSkipCursor(cursor, TOKEN), limit, (token, want) => fetchPage(token, Math.min(100, Math.max(1, want))), 1);
}

function listed<K extends string, T>(field: K, page: { items: T[]; cursor?: string }, extra: Record<string, unknown> = {}) {
  return {
    data: { ...extra, [field]: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) } as Record<K, T[]> & { cursor?: string },
    items: page.items.length,
    ...(page.items.length === 0 ? { free: true } : {}),
  };
}

const withCursor = (token: string | undefined) => (token ? { cursor: token } : {});

/** The channel's ChannelShell answer, or notFound with Twitch's reason (unknown, or suspended for DMCA or its rules). */
async function shellOf(ctx: SourceContext, login: string): Promise<Obj> {
  const shell = await gql(ctx, 'ChannelShell', { login });
  const reason = missingChannel(shell);
  if (reason) throw new QuarryError('notFound', reason === 'UNKNOWN' ? `channel: no Twitch channel ${login}` : `channel: Twitch suspended ${login} (${reason})`);
  return shell;
}

const profile = operation(TWITCH.profile, {
  async run(input, ctx) {
    const login = loginOf(input.channel);
    const [shell, about, meta] = await Promise.all([
      shellOf(ctx, login),
      gql(ctx, 'ChannelRoot_AboutPanel', { channelLogin: login, skipSchedule: false, includeIsDJ: true }),
      gql(ctx, 'StreamMetadata', { channelLogin: login, includeIsDJ: true }),
    ]);
    return { data: { profile: profileOf(shell, about, meta) } };
  },
  samples: profileSamples,
});

const BROADCAST_TYPES = { archive: 'ARCHIVE', highlight: 'HIGHLIGHT', upload: 'UPLOAD', all: null } as const;

const videos = operation(TWITCH.videos, {
  async run(input, ctx) {
    const login = loginOf(input.channel);
    const page = await pages(input.cursor, input.limit, async (token, size) => {
      const data = await gql(ctx, 'FilterableVideoTower_Videos', {
        includePreviewBlur: false,
        limit: size,
        channelOwnerLogin: login,
        broadcastType: BROADCAST_TYPES[input.type],
        videoSort: input.sort === 'views' ? 'VIEWS' : 'TIME',
        ...withCursor(token),
      });
      const user = obj(data.user);
      if (!user) throw new QuarryError('notFound', `channel: no Twitch channel ${login}`);
      return connection(user.videos, (node) => videoOf(node, input.type === 'all' ? undefined : input.type));
    });
    return listed('videos', page);
  },
  samples: videosSamples,
});

const CLIP_WINDOWS = { day: 'LAST_DAY', week: 'LAST_WEEK', month: 'LAST_MONTH', all: 'ALL_TIME' } as const;

const clips = operation(TWITCH.clips, {
  async run(input, ctx) {
    if (Boolean(input.channel) === Boolean(input.category)) {
      throw new QuarryError('invalidRequest', 'channel: give either a channel or a category', { retryable: false });
    }
    const filter = CLIP_WINDOWS[input.within];
    const page = await pages(input.cursor, input.limit, async (token, size) => {
      if (input.channel) {
        const login = loginOf(input.channel);
        const data = await gql(ctx, 'ClipsCards__User', { login, limit: size, criteria: { filter, shouldFilterByDiscoverySetting: true }, ...withCursor(token) });
        const user = obj(data.user);
        if (!user) throw new QuarryError('notFound', `channel: no Twitch channel ${login}`);
        return connection(user.clips, clipOf);
      }
      const slug = categorySlug(input.category!);
      const data = await gql(ctx, 'ClipsCards__Game', { categorySlug: slug, limit: size, criteria: { languages: [], filter, shouldFilterByDiscoverySetting: true }, ...withCursor(token) });
      const game = obj(data.game);
      if (!game) throw new QuarryError('notFound', `category: no Twitch category ${slug}`);
      return connection(game.clips, clipOf);
    });
    return listed('clips', page);
  },
  samples: clipsSamples,
});

const schedule = operation(TWITCH.schedule, {
  async run(input, ctx) {
    const login = loginOf(input.channel);
    const channel = personOf(obj((await shellOf(ctx, login)).userOrError));
    if (!channel?.id) throw new QuarryError('sourceChanged', `twitch: ChannelShell of ${login} without id`);
    const ics = await fetchICalendar(ctx, channel.id);
    const segments = ics ? scheduleOf(ics) : [];
    // A channel without a schedule is an answer, but nothing worth paying for.
    return { data: { channel, ...(segments.length ? { segments } : {}) }, ...(segments.length ? {} : { free: true }) };
  },
  samples: scheduleSamples,
});

const video = operation(TWITCH.video, {
  async run(input, ctx) {
    const id = videoId(input.video);
    // The web app names the owner too; an empty login still answers the video (its owner then comes with it).
    const data = await gql(ctx, 'VideoMetadata', { channelLogin: '', videoID: id });
    if (!obj(data.video)) throw new QuarryError('notFound', `video: no Twitch video ${id}`);
    return { data: { video: videoOf(data.video) } };
  },
  samples: videoSamples,
});

const clip = operation(TWITCH.clip, {
  async run(input, ctx) {
    const slug = clipSlug(input.clip);
    const data = await gql(ctx, 'ShareClipRenderStatus', { slug });
    if (!obj(data.clip)) throw new QuarryError('notFound', `clip: no Twitch clip ${slug}`);
    return { data: { clip: clipOf(data.clip) } };
  },
  samples: clipSamples,
});

const TARGETS = { channels: ['CHANNEL', 'channels', searchChannelOf], categories: ['GAME', 'games', categoryOf], videos: ['VOD', 'videos', videoOf] } as const;

const search = operation(TWITCH.search, {
  async run(input, ctx) {
    const [index, key, read] = TARGETS[input.type];
    const data = await gql(ctx, 'SearchResultsPage_SearchResults', {
      platform: 'web',
      query: input.query,
      options: { targets: [{ index }], shouldSkipDiscoveryControl: false },
      includeIsDJ: true,
    });
    const found = obj(data.searchFor);
    if (!found) throw new QuarryError('sourceChanged', 'twitch: search answered no searchFor');
    const items = connection(found[key], read as (n: unknown) => unknown, 'item').items;
    return { data: { [input.type]: items }, items: items.length, ...(items.length === 0 ? { free: true } : {}) };
  },
  samples: searchSamples,
});

const STREAM_SORTS = { relevance: 'RELEVANCE', viewers: 'VIEWER_COUNT', newest: 'RECENT' } as const;

const streams = operation(TWITCH.streams, {
  async run(input, ctx) {
    const slug = categorySlug(input.category);
    let game: Obj | undefined;
    const page = await pages(input.cursor, input.limit, async (token, size) => {
      const data = await gql(ctx, 'DirectoryPage_Game', {
        imageWidth: 50,
        slug,
        options: { sort: STREAM_SORTS[input.sort], recommendationsContext: { platform: 'web' }, freeformTags: null, tags: [], broadcasterLanguages: [], systemFilters: [] },
        sortTypeIsRecency: input.sort === 'newest',
        limit: size,
        includeIsDJ: true,
        ...withCursor(token),
      });
      game = obj(data.game);
      if (!game) throw new QuarryError('notFound', `category: no Twitch category ${slug}`);
      return connection(game.streams, streamOf);
    });
    return listed('streams', page, { category: categoryOf({ ...game, slug: (game as Obj).slug ?? slug }) });
  },
  samples: streamsSamples,
});

const categories = operation(TWITCH.categories, {
  async run(input, ctx) {
    const page = await pages(input.cursor, input.limit, async (token, size) => {
      const data = await gql(ctx, 'BrowsePage_AllDirectories', {
        limit: size,
        options: { recommendationsContext: { platform: 'web' }, sort: input.sort === 'viewers' ? 'VIEWER_COUNT' : 'RELEVANCE', tags: [] },
        ...withCursor(token),
      });
      return connection(data.directoriesWithTags, categoryOf);
    });
    return listed('categories', page);
  },
  samples: categoriesSamples,
});

const twitch: SourceModule = {
  id: 'twitch',
  needs: {
    settings: [
      { name: 'CLIENT_ID', required: false, purpose: "the Client-Id sent to Twitch's web GraphQL endpoint (default: twitch.tv's own public one)" },
      { name: 'QUERY_HASHES', required: false, purpose: 'JSON object of GraphQL operation names to the persisted-query sha256 hashes Twitch now expects (they rotate)' },
    ],
    proxy: 'advised',
  },
  operations: [profile, videos, clips, schedule, video, clip, search, streams, categories],
};

export default twitch;
