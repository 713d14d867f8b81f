import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import reddit from '../../src/sources/reddit/index.js';
import { normaliseListing, normalisePost, normaliseSubforum } from '../../src/sources/reddit/normalise.js';
import type { SourceContext } from '../../src/sources/types.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { upstreamOverrides } from '../../src/config.js';
import {
  FORUM_SKIP_REASON as SKIP_REASON,
  HAVE_FORUM_RECORDINGS as HAVE_RECORDINGS,
  overrides,
  recording as rec,
  startRedditUpstream,
  type RedditUpstream,
} from '../helpers/reddit-upstream.js';
import { failure } from '../helpers/failure.js';

const op = reddit.operations.find((o) => o.endpoint.id === 'reddit.subforum')!;

/** The `data` of one post of a recorded listing. */
const listingPost = (id: string): any =>
  rec('listing-popular-hot.json').data.children.find((c: any) => c.data.id === id).data;
/** The t3 of a recorded /comments/{id} answer. */
const commentsPost = (name: string): any => rec(name)[0].data.children[0].data;

describe('reddit samples and shape checks (no recordings needed)', () => {
  it('sample() honours limit, and its cursor walks the recorded pages to the end', async () => {
    const five = await op.sample({ subforum: 'golang', limit: 5 });
    const posts = five.data.posts as Array<{ id: string }>;
    expect(posts).toHaveLength(5);
    expect(five.items).toBe(5);
    expect(five.data.subforum).toMatchObject({ type: 'subforum', name: 'golang' });
    expect(five.data).not.toHaveProperty('_provenance');
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await op.sample({ subforum: 'golang', limit: 25, ...(cursor ? { cursor } : {}) });
      for (const p of page.data.posts as Array<{ id: string }>) {
        expect(seen.has(p.id), `post ${p.id} on two pages`).toBe(false);
        seen.add(p.id);
      }
      cursor = page.data.cursor as string | undefined;
      pages++;
    } while (cursor && pages < 10);
    // 100 recorded posts in pages of 25, then the recording's own `after` answers an empty last page.
    expect(seen.size).toBe(100);
    expect(pages).toBe(5);
  });

  it('unexpected shapes → sourceChanged', async () => {
    expect((await failure(() => normaliseListing({ kind: 'Listing', data: {} }))).code).toBe('sourceChanged');
    expect((await failure(() => normaliseListing([]))).code).toBe('sourceChanged');
    expect((await failure(() => normaliseListing({ kind: 'Listing', data: { children: [{ kind: 't1', data: {} }] } }))).code).toBe('sourceChanged');
    expect((await failure(() => normalisePost({ title: 'no id' }))).code).toBe('sourceChanged');
    expect((await failure(() => normaliseSubforum({ id: 'x' }, { site_rules: [] }))).code).toBe('sourceChanged');
  });
});

describe.skipIf(!HAVE_RECORDINGS)(`reddit normaliser against recorded answers${SKIP_REASON}`, () => {
  it('maps a hosted-video post from the popular listing', () => {
    expect(normalisePost(listingPost('1sk99af'))).toEqual({
      type: 'post',
      id: '1sk99af',
      url: 'https://www.reddit.com/r/blursed_videos/comments/1sk99af/blursed_self_defence/',
      title: 'Blursed_Self defence',
      score: 1913,
      comments: 160,
      isNsfw: false,
      isVideo: true,
      isPinned: false,
      author: {
        id: 't2_bkb6ygd9',
        username: 'o0Phoenix0o',
        name: 'o0Phoenix0o',
        url: 'https://www.reddit.com/user/o0Phoenix0o',
      },
      subforum: 'blursed_videos',
      upvotePercent: 85,
      createdAt: '2026-04-13T12:24:17.000Z',
      link: {
        url: 'https://v.redd.it/2ptpanksayug1',
        image:
          'https://external-preview.redd.it/Zjg1ZXg3bnNheXVnMfR9X48jOp4-Wz3aoCzc7keXEny411ve7kdK2YoWCPZQ.png?format=pjpg&auto=webp&s=41bb5a8c22b061d9a807cb8c15f331ff5219b9ec',
      },
      thumbnail:
        'https://external-preview.redd.it/Zjg1ZXg3bnNheXVnMfR9X48jOp4-Wz3aoCzc7keXEny411ve7kdK2YoWCPZQ.png?width=140&height=140&crop=1:1,smart&format=jpg&auto=webp&s=c4309a753f4a5d850f09d2a2b8485f85ecfbd007',
      video: {
        url: 'https://v.redd.it/2ptpanksayug1/CMAF_720.mp4?source=fallback',
        hls: listingPost('1sk99af').media.reddit_video.hls_url,
        durationSeconds: 23,
      },
    });
  });

  it('maps an image post with flair', () => {
    const p = normalisePost(listingPost('1skdnbn'));
    expect(p).toMatchObject({
      id: '1skdnbn',
      score: 2576,
      upvotePercent: 99,
      createdAt: '2026-04-13T15:08:27.000Z',
      flair: 'Discussion',
      images: [{ url: 'https://i.redd.it/r9f1l9334zug1.jpeg' }],
      author: { id: 't2_8zxy4upp', username: 'VegitoBurrito' },
    });
    expect(p.text).toBeUndefined();
  });

  it('maps a gallery to full-size image URLs in gallery order', () => {
    const p = normalisePost(listingPost('1skaoiv'));
    expect(p.images).toEqual([
      { url: 'https://preview.redd.it/9nmzjhl2lyug1.jpg?width=823&format=pjpg&auto=webp&s=233db2f1780adf9a15abfee2311640a02b707b8a' },
      { url: 'https://preview.redd.it/u2d6hel2lyug1.jpg?width=933&format=pjpg&auto=webp&s=cc1095d776513e7328702b6de77a1cee401e3386' },
      { url: 'https://preview.redd.it/chayodl2lyug1.jpg?width=922&format=pjpg&auto=webp&s=b031e018406d23d1dc120d9a5435983b02dcfa78' },
      { url: 'https://preview.redd.it/wne6lel2lyug1.jpg?width=1169&format=pjpg&auto=webp&s=964334ca5782ef1cdc390293a7daa4c5bb5df4ad' },
    ]);
    expect(p.link?.url).toBe('https://www.reddit.com/gallery/1skaoiv');
  });

  it('maps pins, self text, link posts and placeholder thumbnails', () => {
    const pinned = normalisePost(listingPost('1skhf2i'));
    expect(pinned.isPinned).toBe(true);
    expect(pinned.images).toHaveLength(20);

    const self = normalisePost(listingPost('1skh9xm'));
    expect(self.text).toBe(listingPost('1skh9xm').selftext);
    expect(self.link).toBeUndefined();
    expect(self.thumbnail).toBeUndefined(); // upstream says "self"

    const article = normalisePost(listingPost('1skhv5t'));
    expect(article.link).toEqual({
      url: 'https://www.wired.com/story/staunch-trump-supporters-are-now-asking-if-hes-the-antichrist/',
      image: 'https://external-preview.redd.it/mr_yXws-l9VJfOs0O2wuH2vbzIeGmBbmPqFskpFBySo.jpeg?auto=webp&s=66cf8676ccb8fbd6458fdbefff092d22bfffdca4',
    });
    expect(article.thumbnail).toBeUndefined(); // upstream says "default"
  });

  it('falls back to the rich-text flair, skipping emoji parts', () => {
    const p = listingPost('1skcem4');
    expect(normalisePost(p).flair).toBe(':JOEDIRT: Human Trash');
    expect(normalisePost({ ...p, link_flair_text: null }).flair).toBe('Human Trash');
  });

  it('maps a crosspost (built from two recorded posts: no crosspost was recorded)', () => {
    const parent = listingPost('1sk99af');
    const child = { ...listingPost('1skdqht'), media: null, secure_media: null, crosspost_parent_list: [parent] };
    const p = normalisePost(child);
    expect(p.repostOf).toEqual({
      id: '1sk99af',
      url: 'https://www.reddit.com/r/blursed_videos/comments/1sk99af/blursed_self_defence/',
      subforum: 'blursed_videos',
      title: 'Blursed_Self defence',
    });
    expect(p.video?.durationSeconds).toBe(23);
  });

  it('post-gallery.json: media still processing gives no invented image URLs', () => {
    const p = normalisePost(commentsPost('post-gallery.json'));
    expect(p).toMatchObject({
      id: '1khu9tf',
      title: 'Testing PRAW Gallery with Selftext',
      text: 'Testing **PRAW** gallery submission *with markdown selftext*.',
      upvotePercent: 100,
      createdAt: '2025-05-08T16:22:58.000Z',
      link: { url: 'https://www.reddit.com/gallery/1khu9tf' },
      isVideo: false,
    });
    // Every media_metadata entry is {"status":"unprocessed"}: there is no URL to report.
    expect(p.images).toBeUndefined();
    expect(p.thumbnail).toBeUndefined();
  });

  it('post-poll.json: poll options, votes, total and end time', () => {
    const p = normalisePost(commentsPost('post-poll.json'));
    expect(p.poll).toEqual({
      options: [
        { text: '100% and nothing', votes: 40 },
        { text: '<50% and chocolate cake', votes: 14 },
      ],
      totalVotes: 54,
      endsAt: '2020-05-02T00:39:55.927Z',
    });
    expect(p).toMatchObject({ id: 'g9zfex', subforum: 'WouldYouRather', upvotePercent: 76, comments: 3 });
    expect(p.link).toBeUndefined();
  });

  it('post-video.json: a video still transcoding has isVideo but no media URLs', () => {
    const p = normalisePost(commentsPost('post-video.json'));
    expect(p).toMatchObject({
      id: '1khufen',
      isVideo: true,
      link: { url: 'https://v.redd.it/wpo12zyk4lze1' },
      createdAt: '2025-05-08T16:29:18.000Z',
    });
    expect(p.thumbnail).toMatch(/^https:\/\/external-preview\.redd\.it\//);
    expect(p.video).toBeUndefined(); // media and secure_media are null in the recording
  });

  it('normalises the whole listing', () => {
    const page = normaliseListing(rec('listing-popular-hot.json'));
    expect(page.posts).toHaveLength(100);
    expect(page.cursor).toBe('t3_1sk79iw');
    expect(page.posts.filter((p) => p.video)).toHaveLength(17);
    expect(page.posts.filter((p) => p.images && p.link?.url.includes('/gallery/'))).toHaveLength(13);
    for (const p of page.posts) expect(p.createdAt).toMatch(/^2026-04-1[34]T/);

    const search = normaliseListing(rec('subreddit-search-posts.json'));
    expect(search.posts).toHaveLength(2);
    expect(search.cursor).toBe('t3_hmwhd7');
  });

  it('maps the subforum record from about + rules', () => {
    const sub = normaliseSubforum(rec('subreddit-about-golang.json').data, rec('subreddit-rules-fitness.json'));
    expect(sub).toMatchObject({
      type: 'subforum',
      id: '2rc7j',
      url: 'https://www.reddit.com/r/golang/',
      name: 'golang',
      title: 'The Go Programming Language',
      description: 'Ask questions and post articles about the Go programming language and related tools, events etc.',
      avatar:
        'https://styles.redditmedia.com/t5_2rc7j/styles/communityIcon_wy4riduoe9k11.png?width=256&s=0d681daaa8d4b6271e6be788d0f9379f0661e04a',
      isNsfw: false,
      members: 116532,
      createdAt: '2009-11-11T00:54:28.000Z',
    });
    const rules = rec('subreddit-rules-fitness.json').rules;
    expect(sub.rules).toHaveLength(rules.length);
    expect(sub.rules?.[0]).toEqual({
      title: 'Read the Rules Before Posting',
      description: 'https://www.reddit.com/r/Fitness/wiki/rules',
    });
    const test = normaliseSubforum(rec('subreddit-about-testsub.json').data, { rules: [] });
    expect(test.id).toBe(rec('subreddit-about-testsub.json').data.id);
    expect(test.rules).toBeUndefined();
  });
});

// ---- live path: the real client against a loopback server that answers like Reddit -------------------------------
// Reddit's own hosts are requested; QUARRY_UPSTREAM_OVERRIDES sends both to the double, which answers by host.

let upstream: RedditUpstream;
let http_: ReturnType<typeof createUpstreamClient>;

function ctx(settings: Record<string, string | undefined>): SourceContext {
  return {
    signal: new AbortController().signal,
    http: http_,
    log: { info() {}, warn() {}, error() {} },
    settings,
  };
}

const input = (over: Record<string, unknown> = {}) => ({ subforum: 'golang', sort: 'hot', within: 'day', limit: 25, ...over });

describe.skipIf(!HAVE_RECORDINGS)(`reddit.subforum live path (loopback server serving the recordings)${SKIP_REASON}`, () => {
  let publicCtx: SourceContext;
  beforeAll(async () => {
    upstream = await startRedditUpstream();
    http_ = createUpstreamClient({
      source: 'reddit',
      timeoutMs: 2000,
      retries: 0,
      ssrfAllow: ['127.0.0.1'],
      overrides: upstreamOverrides(overrides(upstream.url)),
    });
    publicCtx = ctx({});
  });
  afterAll(async () => {
    await http_.close();
    await upstream.close();
  });
  beforeEach(() => {
    upstream.seen.length = 0;
  });

  it('public mode: the three .json requests, answered with the normalised recordings', async () => {
    const out = await op.run(input({ subforum: 'r/golang', limit: 100 }), publicCtx);
    expect(upstream.seen.every((s) => s.host === 'www.reddit.com')).toBe(true);
    const paths = upstream.seen.map((s) => s.path + s.query).sort();
    // The listing query is exactly the one recorded in listing-popular-hot.request.json.
    expect(paths).toEqual([
      '/r/golang/about.json?raw_json=1',
      '/r/golang/about/rules.json?raw_json=1',
      '/r/golang/hot.json?limit=100&raw_json=1',
    ]);
    expect(upstream.seen.every((s) => s.auth === undefined)).toBe(true);
    expect(out.items).toBe(100);
    expect(out.data.posts).toEqual(normaliseListing(rec('listing-popular-hot.json')).posts);
    expect(out.data.cursor).toBe(rec('listing-popular-hot.json').data.after);
    expect(out.data.subforum).toMatchObject({ id: '2rc7j', name: 'golang', members: 116532, createdAt: '2009-11-11T00:54:28.000Z' });
    expect((out.data.subforum as { rules: unknown[] }).rules).toHaveLength(rec('subreddit-rules-fitness.json').rules.length);
  });

  it('never returns more posts than `limit`, continuing after its own last post', async () => {
    const out = await op.run(input({ limit: 10 }), publicCtx);
    const posts = out.data.posts as Array<{ id: string }>;
    expect(out.items).toBe(10);
    expect(posts.map((p) => p.id)).toEqual(normaliseListing(rec('listing-popular-hot.json')).posts.slice(0, 10).map((p) => p.id));
    expect(out.data.cursor).toBe(`t3_${posts[9].id}`);
  });

  it('maps sort, within and cursor onto Reddit parameters', async () => {
    await op.run(input({ sort: 'newest', cursor: 't3_1sk79iw', limit: 10 }), publicCtx);
    await op.run(input({ sort: 'top', within: 'week' }), publicCtx);
    await op.run(input({ sort: 'controversial', within: 'all' }), publicCtx);
    await op.run(input({ sort: 'rising', within: 'year' }), publicCtx);
    const listings = upstream.seen.filter((s) => !s.path.includes('/about')).map((s) => s.path + s.query);
    expect(listings).toEqual([
      '/r/golang/new.json?limit=10&raw_json=1&after=t3_1sk79iw',
      '/r/golang/top.json?limit=25&raw_json=1&t=week',
      '/r/golang/controversial.json?limit=25&raw_json=1&t=all',
      '/r/golang/rising.json?limit=25&raw_json=1',
    ]);
  });

  it('OAuth mode: one token for two calls, bearer on every request, no .json', async () => {
    const settings = { CLIENT_ID: 'app1', CLIENT_SECRET: 'secret1' };
    const before = upstream.tokensIssued();
    const a = await op.run(input(), ctx(settings));
    const b = await op.run(input({ sort: 'top' }), ctx(settings));
    expect(a.items).toBe(25);
    expect(b.data.subforum).toMatchObject({ name: 'golang' });
    const tokenCalls = upstream.seen.filter((s) => s.path === '/api/v1/access_token');
    expect(tokenCalls).toHaveLength(1);
    expect(upstream.tokensIssued() - before).toBe(1);
    expect(tokenCalls[0].auth).toBe(`Basic ${Buffer.from('app1:secret1').toString('base64')}`);
    expect(tokenCalls[0].host).toBe('www.reddit.com');
    const api = upstream.seen.filter((s) => s.path !== '/api/v1/access_token');
    expect(api).toHaveLength(6);
    for (const s of api) {
      expect(s.auth).toBe(`bearer tok-${upstream.tokensIssued()}`);
      expect(s.path.endsWith('.json')).toBe(false);
      expect(s.host).toBe('oauth.reddit.com');
      expect(s.agent).not.toMatch(/Chrome/);
    }
  });

  it('OAuth mode: a revoked token is replaced once on 401', async () => {
    const settings = { CLIENT_ID: 'app2', CLIENT_SECRET: 'secret2' };
    await op.run(input(), ctx(settings));
    upstream.validTokens.clear();
    upstream.seen.length = 0;
    const out = await op.run(input(), ctx(settings));
    expect(out.items).toBe(25);
    expect(upstream.seen.filter((s) => s.path === '/api/v1/access_token')).toHaveLength(1);
  });

  it('OAuth mode: wrong app credentials → sourceRefused, secret not in the message', async () => {
    const settings = { CLIENT_ID: 'app3', CLIENT_SECRET: 'wrong-secret' };
    const err = await failure(op.run(input(), ctx(settings)));
    expect(err.code).toBe('sourceRefused');
    expect(err.message).not.toContain('wrong-secret');
  });

  it('banned, unknown and private subforums → notFound', async () => {
    for (const sub of ['bannedsub', 'nosuchsub', 'privatesub', 'renamedsub']) {
      const err = await failure(op.run(input({ subforum: sub }), publicCtx));
      expect(err.code, sub).toBe('notFound');
      expect(err.message).toMatch(/^subforum: no such subforum r\//);
    }
  });

  it('the per-source *_URL settings remain aliases: PUBLIC_URL alone reaches the double without an override', async () => {
    const plain = createUpstreamClient({ source: 'reddit', timeoutMs: 2000, retries: 0 });
    try {
      const out = await op.run(input(), { ...ctx({ PUBLIC_URL: upstream.url }), http: plain });
      expect(out.items).toBe(25);
      // Straight to the double's address: no forwarded host (late requests of an earlier test may still be logged).
      const direct = upstream.seen.filter((s) => s.host === undefined).map((s) => s.path);
      expect(direct.sort()).toEqual(['/r/golang/about.json', '/r/golang/about/rules.json', '/r/golang/hot.json']);
    } finally {
      await plain.close();
    }
  });

  it('a 403 block page → sourceRefused', async () => {
    const err = await failure(op.run(input({ subforum: 'blockedsub' }), publicCtx));
    expect(err.code).toBe('sourceRefused');
  });

  it('a listing without children → sourceChanged', async () => {
    const err = await failure(op.run(input({ subforum: 'brokensub' }), publicCtx));
    expect(err.code).toBe('sourceChanged');
  });
});
