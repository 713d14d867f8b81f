/**
 * reddit.search and reddit.post against the replay double (../shared/upstream/forum through QUARRY_UPSTREAM_OVERRIDES,
 * see test/helpers/reddit-upstream.ts `redditReplay`): a table of request → recording → record facts, the request
 * each call sends, the failure shapes, drift, and the test-mode answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postId } from '../../src/sources/reddit/client.js';
import { normalisePost, normaliseThread } from '../../src/sources/reddit/normalise.js';
import { failure } from '../helpers/failure.js';
import { DOCUMENTED_DIR, recording, redditReplay } from '../helpers/reddit-upstream.js';
import { haveRecordings, skipReason, startReplay, type Replay } from '../helpers/replay.js';
import { liveContext, runLive, runSample, type LiveContext } from '../helpers/source-kit.js';

const OAUTH = { CLIENT_ID: 'replay-app', CLIENT_SECRET: 'replay-secret' };
const moreStubs = (): unknown[] => JSON.parse(readFileSync(`${DOCUMENTED_DIR}more-stubs.json`, 'utf8'));

describe('reddit post addresses (no recordings needed)', () => {
  it.each([
    ['1abcde', '1abcde'],
    ['t3_1ABCDE', '1abcde'],
    ['https://www.reddit.com/r/golang/comments/1abcde/some_title/', '1abcde'],
    ['https://old.reddit.com/r/golang/comments/1abcde/some_title/k2x9z1/?context=3', '1abcde'],
    ['reddit.com/comments/1abcde', '1abcde'],
    ['https://www.reddit.com/user/someone/comments/1abcde/x/', '1abcde'],
    ['https://redd.it/1abcde', '1abcde'],
  ])('%s → %s', (input, id) => expect(postId(input)).toBe(id));

  it.each([
    ['https://www.reddit.com/r/golang/s/AbCdEfGh', /share links/],
    ['https://example.com/r/golang/comments/1abcde/', /not a Reddit post/],
    ['ftp://reddit.com/comments/1abcde', /not a Reddit post/],
    ['https://www.reddit.com/r/golang/', /not a Reddit post/],
    ['not an id!', /not a Reddit post/],
  ])('%s → 400 naming post', async (input, why) => {
    const err = await failure(() => postId(input));
    expect(err.code).toBe('invalidRequest');
    expect(err.message).toMatch(/^post: /);
    expect(err.message).toMatch(why);
  });

  it('unreadable thread answers → sourceChanged', async () => {
    expect((await failure(() => normaliseThread({}, 10))).code).toBe('sourceChanged');
    expect((await failure(() => normaliseThread([{ kind: 'Listing', data: { children: [] } }, {}], 10))).code).toBe('sourceChanged');
    const poll = recording('post-poll.json');
    poll[1].data.children[0].kind = 't9';
    expect((await failure(() => normaliseThread(poll, 10))).code).toBe('sourceChanged');
  });
});

describe('reddit.search and reddit.post test mode (committed samples)', () => {
  it('search answers each type from its own sample set, cut to limit', async () => {
    const posts = await runSample('reddit.search', { query: 'mechanical keyboard', type: 'posts', sort: 'top', within: 'month', limit: 25 });
    expect(posts.data.posts.length).toBeGreaterThan(0);
    expect(posts.data.posts[0]).toMatchObject({ type: 'post' });
    const one = await runSample('reddit.search', { query: 'x', limit: 1 });
    expect(one.data.posts).toHaveLength(1);
    expect(one.items).toBe(1);
    const subs = await runSample('reddit.search', { query: 'go', type: 'subforums' });
    expect(subs.data.subforums[0]).toMatchObject({ type: 'subforum', name: 'golang' });
    const users = await runSample('reddit.search', { query: 'k', type: 'users' });
    expect(users.data.users[0]).toMatchObject({ type: 'user', username: 'example_keyboards' });
  });

  it('a search cursor past the recorded page answers an empty, unbilled page', async () => {
    const first = await runSample('reddit.search', { query: 'test' });
    expect(first.data.cursor).toBe('t3_hmwhd7');
    const next = await runSample('reddit.search', { query: 'test', cursor: first.data.cursor });
    expect(next).toMatchObject({ items: 0, free: true });
    expect(next.data.posts).toEqual([]);
  });

  it('post answers the catalogue example with a post and its comments', async () => {
    const r = await runSample('reddit.post', { post: 'https://www.reddit.com/r/golang/comments/1abcde/some_title/', sort: 'top', depth: 3 });
    expect(r.data.post).toMatchObject({ type: 'post', id: 'g9zfex' });
    expect(r.data.comments).toHaveLength(3);
  });
});

describe.skipIf(!haveRecordings('forum'))(`reddit.search and reddit.post against the recordings${skipReason('forum')}`, () => {
  let replay: Replay;
  let oauth: LiveContext;
  let publicMode: LiveContext;

  beforeAll(async () => {
    replay = await startReplay(redditReplay({
      routes: [
        { host: 'oauth.reddit.com', path: '/comments/zzzzzz/', text: '{"message": "Not Found", "error": 404}', status: 404, headers: { 'content-type': 'application/json' } },
        { host: 'oauth.reddit.com', path: '/comments/pr1vat/', text: '{"reason": "private", "message": "Forbidden", "error": 403}', status: 403, headers: { 'content-type': 'application/json' } },
        { host: 'oauth.reddit.com', path: '/search', query: { q: 'blocked' }, text: '<html><body>You have been blocked by network security.</body></html>', status: 403, headers: { 'content-type': 'text/html' } },
        { host: 'oauth.reddit.com', path: '/r/nosuchsub/search', text: '{"message": "Not Found", "error": 404}', status: 404, headers: { 'content-type': 'application/json' } },
        // The recorded context view of one comment chain, served as the thread of its post (same two-Listing shape).
        { host: 'oauth.reddit.com', path: '/comments/1j7g9uj/', file: 'forum/post-comments-context.json' },
      ],
    }));
    oauth = liveContext('reddit', replay, OAUTH);
    publicMode = liveContext('reddit', replay, {});
  });
  afterAll(async () => {
    await oauth?.close();
    await publicMode?.close();
    await replay?.close();
  });
  beforeEach(() => {
    replay.mutate = undefined;
    replay.seen.length = 0;
  });

  const lastQuery = () => replay.seen.filter((s) => !s.path.startsWith('/api/'))[0];

  it.each<[string, Record<string, unknown>, (data: any) => void]>([
    ['posts, site-wide', { query: 'test' }, (d) => {
      expect(d.posts.map((p: any) => p.id)).toEqual(['hybow9', 'hmwhd7']);
      expect(d.posts[1]).toMatchObject({ subforum: 'worldnews', title: 'Brazilian president Jair Bolsonaro tests positive for coronavirus' });
      expect(d.cursor).toBe('t3_hmwhd7');
    }],
    ['posts, within a subforum', { query: 'test', subforum: 'r/golang', sort: 'newest', within: 'week' }, (d) => expect(d.posts).toHaveLength(2)],
    ['posts, cut to limit', { query: 'test', limit: 1 }, (d) => {
      expect(d.posts.map((p: any) => p.id)).toEqual(['hybow9']);
      expect(d.cursor).toBe('t3_hybow9');
    }],
    ['subforums', { query: 'go', type: 'subforums' }, (d) => {
      expect(d.subforums).toHaveLength(2);
      expect(d.subforums[0]).toEqual({
        type: 'subforum',
        id: '2rc7j',
        url: 'https://www.reddit.com/r/golang/',
        name: 'golang',
        title: 'The Go Programming Language',
        description: 'Ask questions and post articles about the Go programming language and related tools, events etc.',
        avatar: expect.stringMatching(/^https:\/\/styles\.redditmedia\.com\/t5_2rc7j\//),
        isNsfw: false,
        members: 116532,
        createdAt: '2009-11-11T00:54:28.000Z',
      });
      expect(d.cursor).toBeUndefined();
    }],
    ['users (documented answer: no user search was recorded)', { query: 'keyboards', type: 'users' }, (d) => {
      // The suspended account carries only its name and is left out.
      expect(d.users.map((u: any) => u.username)).toEqual(['example_keyboards', 'quiet_typist']);
      expect(d.users[0]).toEqual({
        type: 'user',
        id: '8xk2m1',
        url: 'https://www.reddit.com/user/example_keyboards',
        username: 'example_keyboards',
        name: 'Example Keyboards',
        bio: 'Switches, keycaps and the occasional soldering iron.',
        avatar: 'https://www.redditstatic.com/avatars/defaults/v2/avatar_default_3.png',
        isNsfw: false,
        karma: 9864,
        postKarma: 1520,
        commentKarma: 8344,
        createdAt: '2021-01-01T00:00:00.000Z',
      });
      expect(d.cursor).toBe('t2_9zz0q1');
    }],
  ])('reddit.search %s', async (_name, body, check) => {
    const out = await runLive('reddit.search', body, oauth.ctx);
    check(out.data);
    expect(replay.misses()).toEqual([]);
  });

  it('search sends Reddit its own parameters, by host and mode', async () => {
    await runLive('reddit.search', { query: 'test', subforum: 'golang', sort: 'mostComments', within: 'year', cursor: 't3_abc1', limit: 50 }, oauth.ctx);
    const q = lastQuery();
    expect(q).toMatchObject({ host: 'oauth.reddit.com', path: '/r/golang/search' });
    expect(Object.fromEntries(q.query)).toEqual({
      q: 'test', type: 'link', limit: '50', raw_json: '1', sort: 'comments', t: 'year', after: 't3_abc1', restrict_sr: '1',
    });
    replay.seen.length = 0;
    await runLive('reddit.search', { query: 'go', type: 'subforums', includeNsfw: true }, publicMode.ctx);
    expect(replay.seen[0]).toMatchObject({ host: 'www.reddit.com', path: '/search.json' });
    expect(Object.fromEntries(replay.seen[0].query)).toEqual({ q: 'go', type: 'sr', limit: '25', raw_json: '1', include_over_18: 'on' });
  });

  it('adult results are dropped unless includeNsfw, and a page left empty is unbilled', async () => {
    replay.mutate = (name, body) =>
      name === 'forum/subreddit-search-posts.json' ? body.replace(/"over_18": false/g, '"over_18": true') : body;
    const hidden = await runLive('reddit.search', { query: 'test' }, oauth.ctx);
    expect(hidden).toMatchObject({ items: 0, free: true });
    expect(hidden.data.posts).toBeUndefined();
    expect(hidden.data.cursor).toBe('t3_hmwhd7');
    const shown = await runLive('reddit.search', { query: 'test', includeNsfw: true }, oauth.ctx);
    expect(shown.data.posts.every((p: any) => p.isNsfw)).toBe(true);
    expect(shown.items).toBe(2);
  });

  it('search refusals and bad input', async () => {
    expect((await failure(runLive('reddit.search', { query: 'blocked' }, oauth.ctx))).code).toBe('sourceRefused');
    const gone = await failure(runLive('reddit.search', { query: 'test', subforum: 'nosuchsub' }, oauth.ctx));
    expect(gone.code).toBe('notFound');
    expect(gone.message).toMatch(/r\/nosuchsub/);
    const mixed = await failure(runLive('reddit.search', { query: 'go', type: 'users', subforum: 'golang' }, oauth.ctx));
    expect([mixed.code, mixed.message]).toEqual(['invalidRequest', 'subforum: a search within a subreddit finds posts only (type posts)']);
    const tampered = await failure(runLive('reddit.search', { query: 'go', type: 'subforums', cursor: 't3_abc' }, oauth.ctx));
    expect(tampered.code).toBe('invalidRequest');
    expect(tampered.message).toMatch(/^cursor: /);
    expect(replay.seen.filter((s) => s.path.endsWith('/search') && s.query.get('q') === 'go')).toHaveLength(0);
  });

  it('drift: a search result without its score → sourceChanged', async () => {
    replay.mutate = (name, body) => (name === 'forum/subreddit-search-posts.json' ? body.replace(/"score": \d+,/g, '') : body);
    expect((await failure(runLive('reddit.search', { query: 'test' }, oauth.ctx))).code).toBe('sourceChanged');
  });

  it.each<[string, string, (data: any) => void]>([
    ['post-poll.json', 'https://www.reddit.com/r/WouldYouRather/comments/g9zfex/', (d) => {
      expect(d.post).toMatchObject({ id: 'g9zfex', subforum: 'WouldYouRather', poll: { totalVotes: 54 } });
      expect(d.comments.map((c: any) => c.id)).toEqual(['fowm36w', 'fowngch', 'fox3noa']);
      const first = recording('post-poll.json')[1].data.children[0].data;
      expect(d.comments[0]).toEqual({
        type: 'comment',
        id: 'fowm36w',
        url: `https://www.reddit.com${first.permalink}`,
        parentId: 'g9zfex',
        depth: 0,
        score: first.score,
        createdAt: new Date(first.created_utc * 1000).toISOString(),
        text: 'GPA is way more important than a cake.',
        author: { id: first.author_fullname, username: 'IGotCheddar', name: 'IGotCheddar', url: 'https://www.reddit.com/user/IGotCheddar' },
        isEdited: false,
        isByPostAuthor: false,
      });
      expect(d.more).toBeUndefined();
    }],
    ['post-gallery.json', '1khu9tf', (d) => {
      expect(d.post).toMatchObject({ id: '1khu9tf', title: 'Testing PRAW Gallery with Selftext' });
      expect(d.comments).toBeUndefined();
    }],
    ['post-video.json', 't3_1khufen', (d) => expect(d.post).toMatchObject({ id: '1khufen', isVideo: true })],
    ['post-comments-context.json', 'https://www.reddit.com/r/Lil_SpazJoekp/comments/1j7g9uj/test_post_pls_ignore/', (d) => {
      expect(d.post).toMatchObject({ id: '1j7g9uj', comments: 228 });
      // One chain four deep, in reading order: each reply right after its parent.
      expect(d.comments.slice(0, 4).map((c: any) => [c.id, c.parentId, c.depth])).toEqual([
        ['mynfrrh', '1j7g9uj', 0],
        ['mynfuan', 'mynfrrh', 1],
        ['myngt77', 'mynfuan', 2],
        ['mynh0nh', 'myngt77', 3],
      ]);
      expect(d.comments[2]).toMatchObject({ replies: 64, author: { username: 'Lil_SpazTest' } });
      expect(d.comments).toHaveLength(67);
    }],
  ])('reddit.post %s', async (_file, post, check) => {
    const out = await runLive('reddit.post', { post }, oauth.ctx);
    check(out.data);
    expect(replay.misses()).toEqual([]);
  });

  it('post sends sort, limit and depth; the public host gets /comments/{id}.json', async () => {
    await runLive('reddit.post', { post: 'g9zfex', limit: 5, depth: 2 }, oauth.ctx);
    expect(lastQuery()).toMatchObject({ host: 'oauth.reddit.com', path: '/comments/g9zfex/' });
    expect(Object.fromEntries(lastQuery().query)).toEqual({ sort: 'confidence', limit: '5', raw_json: '1', depth: '2' });
    replay.seen.length = 0;
    const out = await runLive('reddit.post', { post: 'g9zfex' }, publicMode.ctx);
    expect(replay.seen.map((s) => `${s.host}${s.path}`)).toEqual(['www.reddit.com/comments/g9zfex.json']);
    expect(out.data.comments).toHaveLength(3);
  });

  it('limit cuts the thread in reading order', async () => {
    const out = await runLive('reddit.post', { post: '1j7g9uj', limit: 3 }, oauth.ctx);
    expect(out.data.comments.map((c: any) => c.id)).toEqual(['mynfrrh', 'mynfuan', 'myngt77']);
  });

  it('"more" stubs (documented shape, spliced into a recorded thread) are answered as such', async () => {
    const [rest, deeper] = moreStubs();
    replay.mutate = (name, body) => {
      if (name !== 'forum/post-poll.json') return body;
      const thread = JSON.parse(body);
      const top = thread[1].data.children;
      top[0].data.replies = { kind: 'Listing', data: { children: [deeper] } };
      top.push(rest);
      return JSON.stringify(thread);
    };
    const out = await runLive('reddit.post', { post: 'g9zfex' }, oauth.ctx);
    expect(out.data.more).toEqual([
      { type: 'more', parentId: 'fowm36w', depth: 1, count: 0 },
      { type: 'more', parentId: 'g9zfex', depth: 0, count: 12, ids: ['fox9aaa', 'fox9bbb', 'fox9ccc'] },
    ]);
    expect(out.data.comments).toHaveLength(3);
  });

  it('unknown and private posts → notFound; drift → sourceChanged', async () => {
    const gone = await failure(runLive('reddit.post', { post: 'zzzzzz' }, oauth.ctx));
    expect([gone.code, gone.message]).toEqual(['notFound', 'post: no such post zzzzzz']);
    const hidden = await failure(runLive('reddit.post', { post: 'pr1vat' }, oauth.ctx));
    expect([hidden.code, hidden.message]).toEqual(['notFound', 'post: no such post pr1vat (private)']);
    replay.mutate = (name, body) => (name === 'forum/post-poll.json' ? body.replace(/"created_utc": [\d.]+,/g, '') : body);
    expect((await failure(runLive('reddit.post', { post: 'g9zfex' }, oauth.ctx))).code).toBe('sourceChanged');
  });

  it('a comment without a permalink (as Reddit recorded them before 2017) is addressed under its post', () => {
    const poll = recording('post-poll.json');
    delete poll[1].data.children[0].data.permalink;
    const thread = normaliseThread(poll, 10);
    expect(thread.comments[0].url).toBe(`${thread.post.url}fowm36w/`);
  });

  it('the normalisers agree with the subforum endpoint on posts', () => {
    const t3 = recording('post-poll.json')[0].data.children[0].data;
    expect(normaliseThread(recording('post-poll.json'), 200).post).toEqual(normalisePost(t3));
  });
});
