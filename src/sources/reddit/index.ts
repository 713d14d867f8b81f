/** The reddit source: `reddit.subforum` live (client + normaliser) and from the committed samples. */
import { REDDIT } from '../../catalogue/endpoints/reddit.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { fetchSubforum } from './client.js';
import { normaliseListing, normaliseSubforum, type ForumPost } from './normalise.js';
import subforumSamples from './samples/subforum.json' with { type: 'json' };

/** Never more posts than asked for; a shorter page continues after its own last post, as Reddit's `after` would. */
export function atMost(posts: ForumPost[], cursor: string | undefined, limit: number): { posts: ForumPost[]; cursor?: string } {
  if (posts.length <= limit) return { posts, ...(cursor ? { cursor } : {}) };
  const page = posts.slice(0, limit);
  return { posts: page, cursor: `t3_${page[page.length - 1].id}` };
}

const subforum = operation(REDDIT.subforum, {
  async run(input, ctx) {
    const answers = await fetchSubforum(input, ctx);
    const page = normaliseListing(answers.listing);
    return { data: { ...atMost(page.posts, page.cursor, input.limit), subforum: normaliseSubforum(answers.about, answers.rules) } };
  },
  samples: subforumSamples,
});

const reddit: SourceModule = {
  id: 'reddit',
  needs: {
    settings: [
      { name: 'CLIENT_ID', required: false, purpose: 'app-only OAuth (higher limits) instead of the public JSON' },
      { name: 'CLIENT_SECRET', required: false, purpose: 'the secret of that app' },
    ],
    proxy: 'advised',
  },
  operations: [subforum],
  notBuilt: {
    'reddit.search': 'reddit.search is not built on this server yet.',
    'reddit.post': 'reddit.post is not built on this server yet.',
  },
};

export default reddit;
