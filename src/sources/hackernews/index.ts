/**
 * The hackernews source, on Hacker News's official keyless APIs: story lists, items with their threads, users and
 * updates from the Firebase API; search from HN Search by Algolia.
 */
import { HACKERNEWS } from '../../catalogue/endpoints/hackernews.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { arr, compact, str } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { fetchItem, fetchItems, fetchList, fetchSearch, fetchUpdates, fetchUser, itemId, username } from './client.js';
import { commentOf, isSubmission, listIds, postOf, searchOf, threadOf, updatesOf, userOf } from './normalise.js';
import itemSamples from './samples/item.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };
import storiesSamples from './samples/stories.json' with { type: 'json' };
import updatesSamples from './samples/updates.json' with { type: 'json' };
import userSamples from './samples/user.json' with { type: 'json' };
import { walkThread } from './thread.js';

/** A poll lists its options as items of their own; more than this many is not a poll HN's page shows. */
const MAX_POLL_OPTIONS = 50;

const stories = operation(HACKERNEWS.stories, {
  async run(input, ctx) {
    const ids = listIds(await fetchList(ctx, input.list));
    const from = input.cursor ? Number(input.cursor) : 0;
    const items = await fetchItems(ctx, ids.slice(from, from + input.limit));
    // Lists can name an item deleted or killed since: it is not a story any more.
    const posts = items.flatMap((it) => (it && isSubmission(it) && !it.deleted && !it.dead && str(it.title) ? [postOf(it)] : []));
    const next = from + input.limit;
    return {
      data: { stories: posts, ...(next < ids.length ? { cursor: String(next) } : {}) },
      ...(posts.length === 0 ? { free: true } : {}),
    };
  },
  samples: storiesSamples,
});

const item = operation(HACKERNEWS.item, {
  async run(input, ctx) {
    const id = itemId(input.item);
    const root = await fetchItem(ctx, id);
    if (!root || root.deleted === true) throw new QuarryError('notFound', `item: no Hacker News item ${id}${root ? ' (deleted)' : ''}`);
    if (root.type === 'pollopt') {
      throw new QuarryError('invalidRequest', `item: ${id} is an option of poll ${String(root.poll)}; ask for the poll`, { retryable: false });
    }
    const submission = isSubmission(root);
    if (!submission && root.type !== 'comment') throw new QuarryError('sourceChanged', `hackernews: item ${id} of unknown type`);
    const parts = root.type === 'poll' ? arr(root.parts).slice(0, MAX_POLL_OPTIONS).map(String) : [];
    const [options, fetched] = await Promise.all([fetchItems(ctx, parts), walkThread(ctx, root, input.limit, input.depth)]);
    const thread = threadOf(root, fetched, submission ? 0 : 1);
    return {
      data: compact({
        post: submission ? postOf(root, options) : undefined,
        comment: submission ? undefined : commentOf(root, 0),
        comments: thread.comments,
        more: thread.more,
      }),
    };
  },
  samples: itemSamples,
});

const user = operation(HACKERNEWS.user, {
  async run(input, ctx) {
    return { data: { user: userOf(await fetchUser(ctx, username(input.user))) } };
  },
  samples: userSamples,
});

const search = operation(HACKERNEWS.search, {
  async run(input, ctx) {
    const page = searchOf(await fetchSearch(ctx, { ...input, page: input.cursor ? Number(input.cursor) : 0 }));
    const results = page.results.slice(0, input.limit);
    return {
      data: { results, ...(page.total !== undefined ? { total: page.total } : {}), ...(page.next !== undefined ? { cursor: String(page.next) } : {}) },
      ...(results.length === 0 ? { free: true } : {}),
    };
  },
  samples: searchSamples,
});

const updates = operation(HACKERNEWS.updates, {
  async run(_input, ctx) {
    const { updates: u, maxItem } = await fetchUpdates(ctx);
    return { data: updatesOf(u, maxItem) };
  },
  samples: updatesSamples,
});

const hackernews: SourceModule = {
  id: 'hackernews',
  operations: [stories, item, user, search, updates],
};

export default hackernews;
