/**
 * The truthsocial source, on Truth Social's Mastodon-compatible API: profiles, an account's timeline, one post with
 * its replies, and search (posts, accounts, hashtags), with the operator's token where Truth Social wants one.
 */
import { TRUTHSOCIAL } from '../../catalogue/endpoints/truthsocial.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { arr, obj, objs, str } from '../kit/read.js';
import { answerFromSamples, type SampleSet } from '../kit/samples.js';
import type { SourceContext, SourceModule } from '../types.js';
import { get, postIdOf, usernameOf } from './client.js';
import { accountOf, hashtagOf, postOf, postsOf, profileOf } from './normalise.js';
import postSamples from './samples/post.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };
import profileSamples from './samples/profile.json' with { type: 'json' };
import searchHashtagsSamples from './samples/search.hashtags.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import searchUsersSamples from './samples/search.users.json' with { type: 'json' };

async function lookup(ctx: SourceContext, input: string): Promise<unknown> {
  const acct = usernameOf(input);
  return get(ctx, '/v1/accounts/lookup', { acct }, 'profile');
}

const profile = operation(TRUTHSOCIAL.profile, {
  async run(input, ctx) {
    return { data: { profile: profileOf(await lookup(ctx, input.profile)) } };
  },
  samples: profileSamples,
});

const posts = operation(TRUTHSOCIAL.posts, {
  async run(input, ctx) {
    // The cursor carries the account id, so a later page needs no look-up.
    const [accountId, maxId] = input.cursor ? input.cursor.split(':') : [str(obj(await lookup(ctx, input.profile))?.id), undefined];
    if (!accountId) throw new QuarryError('sourceChanged', 'truthsocial: account lookup answered no id');
    const answer = await get(
      ctx,
      `/v1/accounts/${accountId}/statuses`,
      { exclude_replies: input.includeReplies ? undefined : true, limit: input.limit, max_id: maxId },
      'profile',
    );
    const statuses = objs(arr(answer)).slice(0, input.limit);
    const found = postsOf(statuses, 'timeline');
    // Timelines are ordered by the statuses' own ids (a ReTruth's, not its post's): the next page starts below the last.
    const last = str(statuses.at(-1)?.id);
    return {
      data: { posts: found, ...(last ? { cursor: `${accountId}:${last}` } : {}) },
      ...(found.length === 0 ? { free: true } : {}),
    };
  },
  samples: postsSamples,
});

const post = operation(TRUTHSOCIAL.post, {
  async run(input, ctx) {
    const id = postIdOf(input.post);
    const [status, replies] = await Promise.all([
      get(ctx, `/v1/statuses/${id}`, {}, 'post'),
      input.includeReplies ? get(ctx, `/v1/statuses/${id}/context/descendants`, { sort: 'oldest', limit: input.limit }, 'post') : undefined,
    ]);
    const answered = replies === undefined ? [] : postsOf(replies, 'replies').slice(0, input.limit);
    return { data: { post: postOf(status), ...(answered.length ? { replies: answered } : {}) } };
  },
  samples: postSamples,
});

const SEARCH_TYPES = { posts: 'statuses', users: 'accounts', hashtags: 'hashtags' } as const;
const SEARCH_SAMPLES = { posts: searchSamples, users: searchUsersSamples, hashtags: searchHashtagsSamples } as Record<keyof typeof SEARCH_TYPES, unknown>;

const search = operation(TRUTHSOCIAL.search, {
  async run(input, ctx) {
    const type = SEARCH_TYPES[input.type];
    const offset = input.cursor ? Number(input.cursor) : 0;
    const answer = obj(await get(ctx, '/v2/search', { q: input.query, type, limit: input.limit, offset, resolve: true }, 'query'));
    if (!answer || !Array.isArray(answer[type])) throw new QuarryError('sourceChanged', `truthsocial: search answered no ${type}`);
    const read = { statuses: postOf, accounts: accountOf, hashtags: hashtagOf }[type] as (v: unknown) => unknown;
    const items = objs(answer[type]).slice(0, input.limit).map(read);
    // Truth Social pages search by offset (about 20 a page, whatever the limit); an empty page is the end.
    return {
      data: { [input.type]: items, ...(items.length ? { cursor: String(offset + items.length) } : {}) },
      items: items.length,
      ...(items.length === 0 ? { free: true } : {}),
    };
  },
  sample: (input) => answerFromSamples({ ...TRUTHSOCIAL.search, itemsField: input.type }, SEARCH_SAMPLES[input.type] as SampleSet, input),
});

const truthsocial: SourceModule = {
  id: 'truthsocial',
  needs: {
    settings: [
      {
        name: 'ACCESS_TOKEN',
        required: false,
        purpose: "a Truth Social account's access token (its web app's `truth:auth` token): sent with every request, and needed wherever Truth Social answers signed-in accounts only (search, at times timelines)",
      },
    ],
    proxy: 'advised',
  },
  operations: [profile, posts, post, search],
};

export default truthsocial;
