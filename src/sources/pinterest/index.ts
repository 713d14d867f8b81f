/** The pinterest source: search, one pin, a profile's boards and a board's pins. */
import { PINTEREST } from '../../catalogue/endpoints/pinterest.js';
import { isQuarryError, QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { obj, objs } from '../kit/read.js';
import type { SourceModule } from '../types.js';
import { fetchOembed, fetchPinPage, fetchResource } from './client.js';
import { oembedPin, pagePin, pinsOf, resourceBoard, WEB, type Pin } from './normalise.js';
import { boardOf, pinOf, usernameOf } from './refs.js';
import boardSamples from './samples/board.json' with { type: 'json' };
import boardsSamples from './samples/boards.json' with { type: 'json' };
import pinSamples from './samples/pin.json' with { type: 'json' };
import searchSamples from './samples/search.json' with { type: 'json' };

const bookmarks = (cursor: string | undefined) => (cursor ? { bookmarks: [cursor] } : {});
const listOf = (data: unknown, what: string): unknown[] => {
  if (!Array.isArray(data)) throw new QuarryError('sourceChanged', `pinterest: ${what} is not a list`);
  return data;
};

const search = operation(PINTEREST.search, {
  async run(input, ctx) {
    const page = await fetchResource(
      'BaseSearchResource',
      `/search/pins/?q=${encodeURIComponent(input.query)}`,
      { query: input.query, scope: 'pins', page_size: input.limit, ...bookmarks(input.cursor) },
      ctx,
      'nothing',
    );
    const pins = pinsOf(listOf(obj(page.data)?.results, 'search results')).slice(0, input.limit);
    return { data: { pins, ...(page.bookmark ? { cursor: page.bookmark } : {}) }, ...(pins.length ? {} : { free: true }) };
  },
  samples: searchSamples,
});

const pin = operation(PINTEREST.pin, {
  async run(input, ctx) {
    const id = pinOf(input.pin);
    let record: Pin;
    try {
      const { datas, ld } = await fetchPinPage(id, ctx);
      record = pagePin(datas, ld);
    } catch (e) {
      // A walled page: the keyless oEmbed still names the pin, its pinner and picture.
      if (!(isQuarryError(e) && e.code === 'sourceRefused')) throw e;
      record = oembedPin(await fetchOembed(`${WEB}/pin/${id}/`, ctx), id);
    }
    return { data: { pin: record } };
  },
  samples: pinSamples,
});

const boards = operation(PINTEREST.boards, {
  async run(input, ctx) {
    const username = usernameOf(input.profile);
    const page = await fetchResource(
      'BoardsResource',
      `/${username}/`,
      { username, page_size: input.limit, privacy_filter: 'all', sort: 'last_pinned_to', field_set_key: 'profile_grid_item', ...bookmarks(input.cursor) },
      ctx,
      `no such profile ${username}`,
    );
    const list = objs(listOf(page.data, 'boards')).filter((b) => b.type === undefined || b.type === 'board').map(resourceBoard).slice(0, input.limit);
    return { data: { boards: list, ...(page.bookmark ? { cursor: page.bookmark } : {}) }, ...(list.length ? {} : { free: true }) };
  },
  samples: boardsSamples,
});

const board = operation(PINTEREST.board, {
  async run(input, ctx) {
    const { username, slug } = boardOf(input.board);
    const path = `/${username}/${slug}/`;
    const about = await fetchResource('BoardResource', path, { username, slug, field_set_key: 'detailed' }, ctx, `no such board ${path}`);
    const record = resourceBoard(about.data);
    const feed = await fetchResource(
      'BoardFeedResource',
      path,
      { board_id: record.id, board_url: path, page_size: input.limit, field_set_key: 'react_grid_pin', ...bookmarks(input.cursor) },
      ctx,
      `no such board ${path}`,
    );
    const pins = pinsOf(listOf(feed.data, 'board pins')).slice(0, input.limit);
    return { data: { board: record, pins, ...(feed.bookmark ? { cursor: feed.bookmark } : {}) } };
  },
  samples: boardSamples,
});

const pinterest: SourceModule = {
  id: 'pinterest',
  needs: { proxy: 'advised' },
  operations: [search, pin, boards, board],
};

export default pinterest;
