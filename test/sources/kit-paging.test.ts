/** The kit's skip cursors (src/sources/kit/paging.ts): pages cut by `limit`, nothing skipped or repeated. */
import { describe, expect, it } from 'vitest';
import { collectPages, readSkipCursor, writeSkipCursor, type Page } from '../../src/sources/kit/paging.js';
import { failure } from '../helpers/failure.js';

/** An upstream of 7 items in pages of 3, its token the next item's index. */
const upstream = async (token: string | undefined): Promise<Page<number>> => {
  const at = Number(token ?? 0);
  const items = [0, 1, 2, 3, 4, 5, 6].slice(at, at + 3);
  return { items, ...(at + 3 < 7 ? { token: String(at + 3) } : {}) };
};

describe('kit paging', () => {
  it('reads and writes N~token, N~ and bare tokens; a tampered one is the caller’s 400', async () => {
    expect(readSkipCursor(undefined, /^\d+$/)).toEqual({ skip: 0 });
    expect(readSkipCursor('2~6', /^\d+$/)).toEqual({ skip: 2, token: '6' });
    expect(readSkipCursor('2~', /^\d+$/)).toEqual({ skip: 2 });
    expect(readSkipCursor('6', /^\d+$/)).toEqual({ skip: 0, token: '6' });
    expect(writeSkipCursor({ skip: 2 })).toBe('2~');
    expect(writeSkipCursor({ skip: 0, token: '6' })).toBe('6');
    const e = await failure(() => readSkipCursor('2~x', /^\d+$/, 'cursor'));
    expect([e.code, e.message]).toEqual(['invalidRequest', 'cursor: not a cursor this endpoint gave']);
  });

  it('walks every item once, whatever the limit', async () => {
    for (const limit of [1, 2, 3, 4, 5, 7, 10]) {
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await collectPages(readSkipCursor(cursor, /^\d+$/), limit, upstream);
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items);
        cursor = page.cursor;
      } while (cursor);
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
  });

  it('asks for what it can use, and stops on a token the upstream repeats', async () => {
    const wants: number[] = [];
    await collectPages({ skip: 2 }, 4, async (token, want) => {
      wants.push(want);
      return upstream(token);
    });
    expect(wants).toEqual([6, 3]);
    const stuck = await collectPages({ skip: 0 }, 10, async () => ({ items: [1], token: 'same' }));
    expect(stuck).toEqual({ items: [1, 1] });
  });
});
