/** The instagram source: profiles, their posts, reels and tagged posts, one post, comments, hashtags and search. */
import { INSTAGRAM } from '../../catalogue/endpoints/instagram.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { need, obj, objs, str } from '../kit/read.js';
import type { SourceContext, SourceModule } from '../types.js';
import { fetchMedia, fetchProfile, fetchReels, fetchSearch, graphQuery, QUERY_HASHES } from './client.js';
import { appPost, graphComments, graphPosts, hashtagRecord, profileRecord, searchResults, type InstagramPost, type Page } from './normalise.js';
import { hashtagOf, listCursor, postOf, usernameOf } from './refs.js';
import commentsSamples from './samples/comments.json' with { type: 'json' };
import hashtagSamples from './samples/hashtag.json' with { type: 'json' };
import postSamples from './samples/post.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const profile = operation(INSTAGRAM.profile, {
  async run(input, ctx) {
    return { data: { profile: profileRecord(await fetchProfile(usernameOf(input.profile), ctx)) } };
  },
  samples: profileSamples,
});

const userOf = (data: Record<string, unknown>, id: string) => {
  if (data.user === null) throw new QuarryError('notFound', `instagram: no such account ${id}`);
  return obj(data.user);
};

/** One page of an account's list; `token` continues a page the caller already has. */
async function listPage(type: 'posts' | 'reels' | 'tagged', userId: string, limit: number, token: string | undefined, ctx: SourceContext): Promise<Page<InstagramPost>> {
  if (type === 'reels') {
    const body = await fetchReels(userId, limit, token, ctx);
    if (!Array.isArray(body.items)) throw new QuarryError('sourceChanged', 'instagram: reels answer without items');
    const paging = obj(body.paging_info);
    return {
      items: objs(body.items).map((i) => appPost(i.media)).slice(0, limit),
      next: paging?.more_available === true ? str(paging.max_id) : undefined,
    };
  }
  const name = type === 'posts' ? 'timeline' : 'tagged';
  const data = await graphQuery(name, { id: userId, first: limit, ...(token ? { after: token } : {}) }, ctx, `no such account ${userId}`);
  const user = userOf(data, userId);
  const edge = type === 'posts' ? 'edge_owner_to_timeline_media' : 'edge_user_to_photos_of_you';
  return graphPosts(user?.[edge], `the ${type} page`);
}

const posts = operation(INSTAGRAM.posts, {
  async run(input, ctx) {
    let page: Page<InstagramPost>;
    let userId: string;
    if (input.cursor) {
      const c = listCursor(input.cursor);
      userId = c.userId;
      page = await listPage(input.type, userId, input.limit, c.token, ctx);
    } else {
      const user = await fetchProfile(usernameOf(input.profile), ctx);
      userId = need(str(user.id), 'instagram', 'a profile without an id');
      const embedded = input.type === 'posts' ? graphPosts(user.edge_owner_to_timeline_media, "the profile's posts") : undefined;
      // The profile carries the first posts; a smaller page is asked for exactly, so its cursor skips nothing.
      page = embedded && embedded.items.length <= input.limit ? embedded : await listPage(input.type, userId, input.limit, undefined, ctx);
    }
    return {
      data: { posts: page.items, ...(page.next ? { cursor: `${userId}:${page.next}` } : {}), ...(page.total !== undefined ? { total: page.total } : {}) },
      ...(page.items.length ? {} : { free: true }),
    };
  },
  samples: postsSamples,
});

const post = operation(INSTAGRAM.post, {
  async run(input, ctx) {
    return { data: { post: appPost(await fetchMedia(postOf(input.post).id, ctx)) } };
  },
  samples: postSamples,
});

const comments = operation(INSTAGRAM.comments, {
  async run(input, ctx) {
    const { code } = postOf(input.post);
    const data = await graphQuery('comments', { shortcode: code, first: input.limit, ...(input.cursor ? { after: input.cursor } : {}) }, ctx, `no such post ${code}`);
    const media = obj(data.shortcode_media);
    if (!media) throw new QuarryError('notFound', `instagram: no such post ${code}`);
    const page = graphComments(media.edge_media_to_comment);
    const list = page.items.slice(0, input.limit);
    return {
      data: { comments: list, ...(page.next ? { cursor: page.next } : {}), ...(page.total !== undefined ? { total: page.total } : {}) },
      ...(list.length ? {} : { free: true }),
    };
  },
  samples: commentsSamples,
});

const hashtag = operation(INSTAGRAM.hashtag, {
  async run(input, ctx) {
    const tag = hashtagOf(input.hashtag);
    const data = await graphQuery('hashtag', { tag_name: tag, first: input.limit, ...(input.cursor ? { after: input.cursor } : {}) }, ctx, `no such hashtag #${tag}`);
    const h = obj(data.hashtag);
    if (!h) throw new QuarryError('notFound', `instagram: no such hashtag #${tag}`);
    // Top posts are one short list; the recent ones page.
    const page = graphPosts(input.sort === 'top' ? h.edge_hashtag_to_top_posts : h.edge_hashtag_to_media, `#${tag} posts`);
    const next = input.sort === 'recent' ? page.next : undefined;
    return { data: { hashtag: hashtagRecord(h), posts: page.items.slice(0, input.limit), ...(next ? { cursor: next } : {}) } };
  },
  samples: hashtagSamples,
});

const search = operation(INSTAGRAM.search, {
  async run(input, ctx) {
    const results = searchResults(await fetchSearch(input.query, ctx), input.type).slice(0, input.limit);
    return { data: { results }, ...(results.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const instagram: SourceModule = {
  id: 'instagram',
  needs: {
    settings: [
      { name: 'SESSION_COOKIE', required: false, purpose: 'the Cookie header of a logged-in instagram.com session: needed for instagram.post and reels, and gets past login walls elsewhere' },
      { name: 'APP_ID', required: false, purpose: "the web app's x-ig-app-id header (default the public 936619743392459)" },
      ...Object.values(QUERY_HASHES).map((q) => ({ name: q.setting, required: false, purpose: `a GraphQL query hash Instagram rotates (default ${q.value})` })),
    ],
    proxy: 'advised',
  },
  operations: [profile, posts, post, comments, search, hashtag],
};

export default instagram;
