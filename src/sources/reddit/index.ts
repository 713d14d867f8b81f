/** The reddit source: `reddit.subforum` live (client + normaliser) and from the committed sample. */
import type { Operation, OperationResult, SourceModule } from '../types.js';
import { fetchSubforum, type Sort, type Within } from './client.js';
import { normaliseListing, normaliseSubforum, type ForumPost, type SubforumRecord } from './normalise.js';
import sample from './samples/subforum.json' with { type: 'json' };

interface SubforumData {
  posts: ForumPost[];
  subforum: SubforumRecord;
  cursor?: string;
}

function result(data: SubforumData): OperationResult {
  return { data: data as unknown as Record<string, unknown>, items: data.posts.length };
}

const limitOf = (input: Record<string, unknown>) => (input.limit as number | undefined) ?? 25;

/** Never more posts than asked for; a shorter page continues after its own last post, as Reddit's `after` would. */
function atMost(posts: ForumPost[], record: SubforumRecord, cursor: string | undefined, limit: number): SubforumData {
  if (posts.length <= limit) return { posts, subforum: record, ...(cursor ? { cursor } : {}) };
  const page = posts.slice(0, limit);
  return { posts: page, subforum: record, cursor: `t3_${page[page.length - 1].id}` };
}

const subforum: Operation = {
  async run(input, ctx) {
    const answers = await fetchSubforum(
      {
        subforum: input.subforum as string,
        sort: (input.sort as Sort | undefined) ?? 'hot',
        within: (input.within as Within | undefined) ?? 'day',
        limit: (input.limit as number | undefined) ?? 25,
        cursor: input.cursor as string | undefined,
      },
      ctx,
    );
    const page = normaliseListing(answers.listing);
    return result(atMost(page.posts, normaliseSubforum(answers.about, answers.rules), page.cursor, limitOf(input)));
  },

  sample(input) {
    const { posts, subforum: record, cursor } = sample.data as unknown as SubforumData;
    return result(atMost(posts, record, cursor, limitOf(input)));
  },
};

const reddit: SourceModule = {
  id: 'reddit',
  needs: {
    settings: [
      { name: 'CLIENT_ID', required: false, purpose: 'app-only OAuth (higher limits) instead of the public JSON' },
      { name: 'CLIENT_SECRET', required: false, purpose: 'the secret of that app' },
    ],
    proxy: 'advised',
  },
  operations: { 'reddit.subforum': subforum },
};

export default reddit;
