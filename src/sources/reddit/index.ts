/** The reddit source: `reddit.subforum`, `reddit.search` and `reddit.post`, live (client + normaliser) and from the committed samples. */
import { REDDIT } from '../../catalogue/endpoints/reddit.js';
import { compact } from '../kit/read.js';
import { operation } from '../kit/operation.js';
import { answerFromSamples, type SampleSet } from '../kit/samples.js';
import type { SourceModule } from '../types.js';
import { fetchSearch, fetchSubforum, fetchThread, SEARCH_KINDS } from './client.js';
import { normaliseListing, normaliseSearch, normaliseSubforum, normaliseThread, type ForumPost } from './normalise.js';
import postSamples from './samples/post.json' with { type: 'json' };
import searchPostsSamples from './samples/search.posts.json' with { type: 'json' };
import searchSubforumsSamples from './samples/search.subforums.json' with { type: 'json' };
import searchUsersSamples from './samples/search.users.json' with { type: 'json' };
import subforumSamples from './samples/subforum.json' with { type: 'json' };

/** Never more posts than asked for; a shorter page continues after its own last post, as Reddit's `after` would. */
export function atMost(posts: ForumPost[], cursor: string | undefined, limit: number): { posts: ForumPost[]; cursor?: string } {
  const page = cut(posts, cursor, limit, 't3');
  return { posts: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) };
}

/** At most `limit` items; a cut page's cursor is its last item's fullname (`kind_id`), as Reddit's `after`. */
function cut<T extends { id: string }>(items: T[], cursor: string | undefined, limit: number, kind: string): { items: T[]; cursor?: string } {
  if (items.length <= limit) return { items, cursor };
  const page = items.slice(0, limit);
  return { items: page, cursor: `${kind}_${page[page.length - 1].id}` };
}

const subforum = operation(REDDIT.subforum, {
  async run(input, ctx) {
    const answers = await fetchSubforum(input, ctx);
    const page = normaliseListing(answers.listing);
    return { data: { ...atMost(page.posts, page.cursor, input.limit), subforum: normaliseSubforum(answers.about, answers.rules) } };
  },
  samples: subforumSamples,
});

/** Each result type answers in its own list; its test-mode pages are a sample set of their own. */
const SEARCH_FIELDS = { posts: 'posts', subforums: 'subforums', users: 'users' } as const;
const searchSamples = { posts: searchPostsSamples, subforums: searchSubforumsSamples, users: searchUsersSamples } as Record<
  keyof typeof SEARCH_FIELDS,
  unknown
>;

const search = operation(REDDIT.search, {
  async run(input, ctx) {
    const page = normaliseSearch(await fetchSearch(input, ctx), input.type, input.includeNsfw);
    const field = SEARCH_FIELDS[input.type];
    const { items, cursor } = cut<{ id: string }>(page[field] ?? [], page.cursor, input.limit, SEARCH_KINDS[input.type]);
    // A page with nothing on it is not billed (it may still carry a cursor: adult results Reddit sent were dropped).
    return { data: compact({ [field]: items, cursor }), items: items.length, ...(items.length === 0 ? { free: true } : {}) };
  },
  sample: (input) =>
    answerFromSamples({ ...REDDIT.search, itemsField: SEARCH_FIELDS[input.type] }, searchSamples[input.type] as SampleSet, input),
});

const post = operation(REDDIT.post, {
  async run(input, ctx) {
    const thread = normaliseThread(await fetchThread(input, ctx), input.limit);
    return { data: compact({ post: thread.post, comments: thread.comments, more: thread.more }) };
  },
  samples: postSamples,
});

const reddit: SourceModule = {
  id: 'reddit',
  needs: {
    settings: [
      { name: 'CLIENT_ID', required: false, purpose: 'app-only OAuth (higher limits) instead of the public JSON' },
      { name: 'CLIENT_SECRET', required: false, purpose: 'the secret of that app' },
      { name: 'USER_AGENT', required: false, purpose: 'the User-Agent of every reddit request (default a server agent naming Quarry on OAuth, none on the public JSON)' },
      { name: 'PUBLIC_URL', required: false, purpose: 'alias kept from before QUARRY_UPSTREAM_OVERRIDES: base address of the public JSON (www.reddit.com)' },
      { name: 'OAUTH_URL', required: false, purpose: 'alias: base address of the OAuth API (oauth.reddit.com)' },
      { name: 'AUTH_URL', required: false, purpose: 'alias: base address of the token host' },
    ],
    proxy: 'advised',
  },
  operations: [subforum, search, post],
};

export default reddit;
