/**
 * The bluesky source: profiles, an account's posts, one post with its thread, followers and custom feeds from the
 * official AppView (keyless); search of accounts there too, and of posts as the operator's account.
 */
import { BLUESKY } from '../../catalogue/endpoints/bluesky.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor, type Page } from '../kit/paging.js';
import { objs, str, type Obj } from '../kit/read.js';
import { answerFromSamples, type SampleSet } from '../kit/samples.js';
import type { SourceContext, SourceModule } from '../types.js';
import { actorOf, appview, didOf, feedRef, postRef, signedIn } from './client.js';
import { accountOf, feedOf, postOf, profileOf, threadMissing, threadOf, type BlueskyAccount, type BlueskyPost } from './normalise.js';
import feedSamples from './samples/feed.json' with { type: 'json' };
import followersSamples from './samples/followers.json' with { type: 'json' };
import postSamples from './samples/post.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import searchUsersSamples from './samples/search.users.json' with { type: 'json' };

/** The AppView's page tokens: timestamps, offsets, record keys. */
const TOKEN = /^[A-Za-z0-9:._+/=|-]{1,512}$/;
/** The AppView answers at most 100 items a page. */
const PAGE_MAX = 100;

/**
 * One AppView page from the cursor on, at most `limit` items: one request per call. The AppView may answer fewer
 * than asked (it filters what it cannot show); that page is answered as it is, with its cursor.
 */
async function pages<T>(cursor: string | undefined, limit: number, fetchPage: (token: string | undefined, size: number) => Promise<Page<T>>) {
  return collectPages(readSkipCursor(cursor, TOKEN), limit, (token, want) => fetchPage(token, Math.min(PAGE_MAX, Math.max(1, want))), 1);
}

/** A list's answer: an empty page is not billed. */
function listed<K extends string, T>(field: K, page: { items: T[]; cursor?: string }) {
  return {
    data: { [field]: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) } as Record<K, T[]> & { cursor?: string },
    items: page.items.length,
    ...(page.items.length === 0 ? { free: true } : {}),
  };
}

const profile = operation(BLUESKY.profile, {
  async run(input, ctx) {
    const actor = actorOf(input.profile);
    const body = await appview(ctx, 'app.bsky.actor.getProfiles', { actors: actor }, 'profile');
    if (!Array.isArray(body.profiles)) throw new QuarryError('sourceChanged', 'bluesky: getProfiles answered no profiles');
    // getProfiles leaves out accounts it does not know (or that are taken down).
    const found = objs(body.profiles)[0];
    if (!found) throw new QuarryError('notFound', `profile: no Bluesky account ${actor}`);
    return { data: { profile: profileOf(found) } };
  },
  samples: profileSamples,
});

const FILTERS = { posts: 'posts_no_replies', replies: 'posts_with_replies', media: 'posts_with_media', videos: 'posts_with_video', threads: 'posts_and_author_threads' } as const;

const posts = operation(BLUESKY.posts, {
  async run(input, ctx) {
    const actor = actorOf(input.profile);
    const page = await pages<BlueskyPost>(input.cursor, input.limit, async (cursor, limit) => {
      const f = feedOf(await appview(ctx, 'app.bsky.feed.getAuthorFeed', { actor, filter: FILTERS[input.filter], limit, cursor }, 'profile'));
      return { items: f.posts, token: f.cursor };
    });
    return listed('posts', page);
  },
  samples: postsSamples,
});

const post = operation(BLUESKY.post, {
  async run(input, ctx) {
    const ref = postRef(input.post);
    const uri = `at://${await didOf(ctx, ref.actor, 'post')}/app.bsky.feed.post/${ref.rkey}`;
    if (!input.includeReplies) {
      const found = objs((await appview(ctx, 'app.bsky.feed.getPosts', { uris: uri }, 'post')).posts)[0];
      if (!found) throw new QuarryError('notFound', `post: no Bluesky post ${uri}`);
      return { data: { post: postOf(found) } };
    }
    const answer = await appview(ctx, 'app.bsky.feed.getPostThread', { uri, depth: input.depth }, 'post');
    const missing = threadMissing(answer);
    if (missing) throw new QuarryError('notFound', `post: Bluesky shows no post ${uri} (${missing.replace(/^.*#/, '')})`);
    const thread = threadOf(answer, input.limit);
    return { data: { post: thread.post, ...(thread.replies.length ? { replies: thread.replies } : {}) } };
  },
  samples: postSamples,
});

/** The day after `YYYY-MM-DD`: Bluesky's `until` is exclusive, our `to` includes its day. */
const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

async function searchPosts(input: SearchInput, ctx: SourceContext) {
  const author = input.author ? actorOf(input.author, 'author') : undefined;
  return pages<BlueskyPost>(input.cursor, input.limit, async (cursor, limit) => {
    const body = await signedIn(
      ctx,
      'app.bsky.feed.searchPosts',
      { q: input.query, sort: input.sort, author, lang: input.language, since: input.from, until: input.to ? dayAfter(input.to) : undefined, limit, cursor },
      'search',
    );
    if (!Array.isArray(body.posts)) throw new QuarryError('sourceChanged', 'bluesky: searchPosts answered no posts');
    return { items: objs(body.posts).map((p) => postOf(p)), token: str(body.cursor) };
  });
}

interface SearchInput {
  query: string;
  sort: 'top' | 'latest';
  author?: string;
  language?: string;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

const SEARCH_SAMPLES = { posts: searchSamples, users: searchUsersSamples } as Record<'posts' | 'users', unknown>;

const search = operation(BLUESKY.search, {
  async run(input, ctx) {
    if (input.type === 'posts') return listed('posts', await searchPosts(input, ctx));
    if (input.author || input.from || input.to || input.language) {
      throw new QuarryError('invalidRequest', 'type: author, language, from and to filter posts; an account search takes the query alone', { retryable: false });
    }
    const page = await pages<BlueskyAccount>(input.cursor, input.limit, async (cursor, limit) => {
      const body = await appview(ctx, 'app.bsky.actor.searchActors', { q: input.query, limit, cursor }, 'search');
      if (!Array.isArray(body.actors)) throw new QuarryError('sourceChanged', 'bluesky: searchActors answered no actors');
      return { items: objs(body.actors).map(accountOf), token: str(body.cursor) };
    });
    return listed('users', page);
  },
  sample: (input) => answerFromSamples({ ...BLUESKY.search, itemsField: input.type }, SEARCH_SAMPLES[input.type] as SampleSet, input),
});

const followers = operation(BLUESKY.followers, {
  async run(input, ctx) {
    const actor = actorOf(input.profile);
    const [method, field] = input.type === 'followers' ? ['app.bsky.graph.getFollowers', 'followers'] : ['app.bsky.graph.getFollows', 'follows'];
    const page = await pages<BlueskyAccount>(input.cursor, input.limit, async (cursor, limit) => {
      const body: Obj = await appview(ctx, method, { actor, limit, cursor }, 'profile');
      if (!Array.isArray(body[field])) throw new QuarryError('sourceChanged', `bluesky: ${method} answered no ${field}`);
      return { items: objs(body[field]).map(accountOf), token: str(body.cursor) };
    });
    return listed('users', page);
  },
  samples: followersSamples,
});

const feed = operation(BLUESKY.feed, {
  async run(input, ctx) {
    const ref = feedRef(input.feed);
    const uri = `at://${await didOf(ctx, ref.actor, 'feed')}/app.bsky.feed.generator/${ref.rkey}`;
    const page = await pages<BlueskyPost>(input.cursor, input.limit, async (cursor, limit) => {
      const f = feedOf(await appview(ctx, 'app.bsky.feed.getFeed', { feed: uri, limit, cursor }, 'feed'));
      return { items: f.posts, token: f.cursor };
    });
    return listed('posts', page);
  },
  samples: feedSamples,
});

const bluesky: SourceModule = {
  id: 'bluesky',
  needs: {
    settings: [
      { name: 'HANDLE', required: false, purpose: "the handle of the Bluesky account post search runs as (bluesky.search of posts needs it)" },
      { name: 'APP_PASSWORD', required: false, purpose: 'an app password of that account (Settings → App passwords), never its main password' },
      { name: 'SERVICE', required: false, purpose: 'the account’s PDS or entryway (default https://bsky.social)' },
    ],
  },
  operations: [profile, posts, post, search, followers, feed],
};

export default bluesky;
