/** The telegram source: a public channel, its posts page by page, and one post, from t.me's web previews. */
import { TELEGRAM } from '../../catalogue/endpoints/telegram.js';
import { QuarryError } from '../../errors.js';
import { compact } from '../kit/read.js';
import { operation } from '../kit/operation.js';
import type { SourceContext, SourceModule } from '../types.js';
import { channelName, fetchEmbed, fetchPreview, postRef, redirectedAway, type Page } from './client.js';
import { normaliseChannel, normaliseChannelPage, normaliseEmbed, normalisePreview, type ChannelRecord, type MessagingPost } from './normalise.js';
import channelSamples from './samples/channel.json' with { type: 'json' };
import postSamples from './samples/post.json' with { type: 'json' };
import postsSamples from './samples/posts.json' with { type: 'json' };

/** A preview page is about 20 posts: the most pages one call reads (200 posts at most are asked for). */
const MAX_PAGES = 12;

/**
 * Telegram sends `/s/{name}` to `/{name}` when the channel has no web preview, or when no such channel exists: the
 * channel's own page then gives what it shows (title, description, photo, subscribers), or says there is none.
 */
function withoutPreview(page: Page, name: string): ChannelRecord {
  const channel = normaliseChannelPage(page.html, name);
  if (!channel) throw new QuarryError('notFound', `channel: no public channel @${name}`);
  return channel;
}

async function preview(name: string, before: number | undefined, ctx: SourceContext) {
  const page = await fetchPreview(name, before, ctx);
  if (redirectedAway(page)) {
    withoutPreview(page, name);
    throw new QuarryError('notFound', `channel: @${name} has no public web preview, so its posts cannot be read`);
  }
  return normalisePreview(page.html);
}

const channel = operation(TELEGRAM.channel, {
  async run(input, ctx) {
    const name = channelName(input.channel);
    const page = await fetchPreview(name, undefined, ctx);
    return { data: { channel: redirectedAway(page) ? withoutPreview(page, name) : normaliseChannel(page.html) } };
  },
  samples: channelSamples,
});

const posts = operation(TELEGRAM.posts, {
  async run(input, ctx) {
    const name = channelName(input.channel);
    let before = input.cursor === undefined ? undefined : Number(input.cursor);
    const seen = new Set<string>();
    const collected: MessagingPost[] = [];
    let record: ChannelRecord | undefined;
    let hasOlder = false;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await preview(name, before, ctx);
      record ??= page.channel;
      // Only posts older than the cursor: Telegram's page may reach past it, and a repeated page adds nothing.
      const fresh = page.posts.filter((p) => (before === undefined || Number(p.id) < before) && !seen.has(p.id));
      for (const p of fresh) seen.add(p.id);
      collected.push(...fresh);
      hasOlder = page.older !== undefined && fresh.length > 0 && (before === undefined || page.older < before);
      if (collected.length >= input.limit || !hasOlder) break;
      before = page.older;
    }
    const answered = collected.slice(0, input.limit);
    const oldest = answered[answered.length - 1];
    // The next page is the posts before the oldest answered one (Telegram's own `before`).
    const cursor = oldest && (collected.length > input.limit || hasOlder) ? oldest.id : undefined;
    return {
      data: compact({ channel: record!, posts: answered, cursor }),
      ...(answered.length === 0 ? { free: true } : {}),
    };
  },
  samples: postsSamples,
});

const post = operation(TELEGRAM.post, {
  async run(input, ctx) {
    const ref = postRef(input.post);
    const page = await fetchEmbed(ref, ctx);
    return { data: { post: normaliseEmbed(page.html, ref.channel, ref.id) } };
  },
  samples: postSamples,
});

const telegram: SourceModule = {
  id: 'telegram',
  needs: { settings: [] },
  operations: [channel, posts, post],
};

export default telegram;
