/** The x source: `x.post` (anonymous guest lookup, or with replies through an operator's session) and `x.search` (session). */
import { X } from '../../catalogue/endpoints/x.js';
import { compact } from '../kit/read.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { fetchSearch, fetchTweetAnonymously, fetchTweetDetail, needSession, postId, sessionOf, upstreamCursor } from './client.js';
import { normaliseConversation, normaliseSearch, normaliseTweetResult } from './normalise.js';
import postSamples from './samples/post.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const post = operation(X.post, {
  async run(input, ctx) {
    const id = postId(input.post);
    const session = sessionOf(ctx);
    if (!session) {
      // Without a session X shows the post but not its replies: a page of replies cannot be served at all.
      if (input.cursor) needSession(ctx, 'replies');
      return { data: { post: normaliseTweetResult(await fetchTweetAnonymously(id, ctx), id) } };
    }
    const cursor = input.cursor === undefined ? undefined : upstreamCursor(input.cursor);
    const conversation = normaliseConversation(await fetchTweetDetail(id, cursor, ctx, session), id, cursor !== undefined);
    return { data: compact({ post: conversation.post, replies: conversation.replies, cursor: conversation.cursor }) };
  },
  samples: postSamples,
});

const search = operation(X.search, {
  async run(input, ctx) {
    const session = needSession(ctx, 'searches');
    const posts = normaliseSearch(await fetchSearch(input.query, input.limit, ctx, session)).slice(0, input.limit);
    return { data: compact({ posts }), items: posts.length, ...(posts.length === 0 ? { free: true } : {}) };
  },
  samples: searchSamples,
});

const x: SourceModule = {
  id: 'x',
  needs: {
    settings: [
      { name: 'AUTH_TOKEN', required: false, purpose: "the auth_token cookie of an X account: replies (x.post) and x.search need a logged-in session" },
      { name: 'CT0', required: false, purpose: 'the ct0 (CSRF) cookie of the same session' },
      { name: 'BEARER_TOKEN', required: false, purpose: "the bearer of X's web app (built in; set it when X rotates it)" },
      { name: 'TWEET_DETAIL_QUERY_ID', required: false, purpose: 'GraphQL query id of TweetDetail (rotates with X web releases)' },
      { name: 'SEARCH_QUERY_ID', required: false, purpose: 'GraphQL query id of SearchTimeline' },
      { name: 'TWEET_RESULT_QUERY_ID', required: false, purpose: 'GraphQL query id of TweetResultByRestId (anonymous post lookup)' },
      { name: 'FEATURES', required: false, purpose: 'JSON object of GraphQL feature flags merged over the built-in set' },
    ],
    proxy: 'advised',
  },
  operations: [post, search],
};

export default x;
