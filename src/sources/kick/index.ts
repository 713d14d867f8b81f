/** The kick source: a channel and its clips, from Kick's public web JSON. */
import { KICK } from '../../catalogue/endpoints/kick.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import { objs, str } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { get, slugOf } from './client.js';
import { channelOf, clipOf } from './normalise.js';
import channelSamples from './samples/channel.json' with { type: 'json' };
import clipsSamples from './samples/clips.json' with { type: 'json' };

const TOKEN = /^[A-Za-z0-9:._+/=-]{1,512}$/;
const SORTS = { views: 'view', newest: 'date' } as const;

const channel = operation(KICK.channel, {
  async run(input, ctx) {
    return { data: { channel: channelOf(await get(ctx, `/channels/${slugOf(input.channel)}`)) } };
  },
  samples: channelSamples,
});

const clips = operation(KICK.clips, {
  async run(input, ctx) {
    const slug = slugOf(input.channel);
    // Kick answers a page of its own size (no page-size parameter): a page cut by limit is owed as N~cursor.
    const page = await collectPages(
      readSkipCursor(input.cursor, TOKEN),
      input.limit,
      async (token) => {
        const body = await get(ctx, `/channels/${slug}/clips`, { cursor: token, sort: SORTS[input.sort], time: input.within });
        if (!Array.isArray(body.clips)) throw new QuarryError('sourceChanged', 'kick: clips answer without clips');
        const next = str(body.nextCursor) ?? (typeof body.nextCursor === 'number' ? String(body.nextCursor) : undefined);
        return { items: objs(body.clips).map(clipOf), token: next };
      },
      1,
    );
    return {
      data: { clips: page.items, ...(page.cursor ? { cursor: page.cursor } : {}) },
      ...(page.items.length === 0 ? { free: true } : {}),
    };
  },
  samples: clipsSamples,
});

const kick: SourceModule = {
  id: 'kick',
  needs: { proxy: 'advised' },
  operations: [channel, clips],
};

export default kick;
