/** The threads source: profiles, their posts, one post and keyword search, on the official Threads API. */
import { THREADS } from '../../catalogue/endpoints/threads.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { obj, str } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { POST_FIELDS, SEARCH_FIELDS, threadsGet } from './client.js';
import { postList, postRecord, profileRecord } from './normalise.js';
import { postOf, usernameOf } from './refs.js';
import postSamples from './samples/post.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const DISCOVERY = 'threads_profile_discovery';
/** The Threads API takes no date before the service began (2023-07-05). */
const EARLIEST = 1688540400;
const dayStart = (d: string) => Math.max(EARLIEST, Date.parse(`${d}T00:00:00Z`) / 1000);
const dayEnd = (d: string) => Math.min(Math.floor(Date.now() / 1000), Date.parse(`${d}T00:00:00Z`) / 1000 + 86_399);

function window(from: string | undefined, to: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (from) out.since = String(dayStart(from));
  if (to) out.until = String(dayEnd(to));
  if (out.since && out.until && Number(out.since) >= Number(out.until)) throw new QuarryError('invalidRequest', 'from: must be before to');
  return out;
}

const profile = operation(THREADS.profile, {
  async run(input, ctx) {
    const username = usernameOf(input.profile);
    const body = await threadsGet('/profile_lookup', { username }, ctx, `no public profile @${username}`, DISCOVERY);
    return { data: { profile: profileRecord(body) } };
  },
  samples: profileSamples,
});

const posts = operation(THREADS.posts, {
  async run(input, ctx) {
    const username = usernameOf(input.profile);
    const params = { username, fields: POST_FIELDS, limit: String(input.limit), ...window(input.from, input.to), ...(input.cursor ? { after: input.cursor } : {}) };
    const body = await threadsGet('/profile_posts', params, ctx, `no public profile @${username}`, DISCOVERY);
    const list = postList(body, 'profile_posts').slice(0, input.limit);
    // The API gives cursors without a `next`: a full page is the sign that another may follow.
    const after = str(obj(obj(body.paging)?.cursors)?.after);
    const next = after && list.length >= input.limit ? after : undefined;
    return { data: { posts: list, ...(next ? { cursor: next } : {}) }, ...(list.length ? {} : { free: true }) };
  },
  samples: postsSamples,
});

const post = operation(THREADS.post, {
  async run(input, ctx) {
    const ref = postOf(input.post);
    if ('id' in ref) return { data: { post: postRecord(await threadsGet(`/${ref.id}`, { fields: POST_FIELDS }, ctx, `no such post ${ref.id}`)) } };
    // An address names the author and a shortcode, which the API does not look up: the author's latest posts are searched.
    const body = await threadsGet('/profile_posts', { username: ref.username, fields: POST_FIELDS, limit: '100' }, ctx, `no public profile @${ref.username}`, DISCOVERY);
    const found = postList(body, 'profile_posts').find((p) => p.url?.endsWith(`/post/${ref.shortcode}`));
    if (!found) throw new QuarryError('notFound', `threads: post ${ref.shortcode} is not among @${ref.username}'s 100 latest posts; give the post's id instead`);
    return { data: { post: found } };
  },
  samples: postSamples,
});

const search = operation(THREADS.search, {
  async run(input, ctx) {
    const params: Record<string, string> = {
      q: input.query,
      search_type: input.sort.toUpperCase(),
      search_mode: input.mode.toUpperCase(),
      fields: SEARCH_FIELDS,
      limit: String(input.limit),
      ...window(input.from, input.to),
    };
    if (input.mediaType !== 'all') params.media_type = input.mediaType.toUpperCase();
    const list = postList(await threadsGet('/keyword_search', params, ctx, 'nothing', 'threads_keyword_search'), 'keyword_search').slice(0, input.limit);
    return { data: { posts: list }, ...(list.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const threads: SourceModule = {
  id: 'threads',
  needs: {
    settings: [
      { name: 'ACCESS_TOKEN', required: true, purpose: 'a Threads API user access token (threads_basic; threads_profile_discovery for profiles and posts, threads_keyword_search for search)' },
      { name: 'API_VERSION', required: false, purpose: 'the Threads API version (default v1.0)' },
    ],
  },
  operations: [profile, posts, post, search],
};

export default threads;
