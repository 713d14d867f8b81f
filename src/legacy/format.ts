/**
 * The legacy records' conventions (SPEC.md "Legacy endpoints"): every listed field is present, `null` where the data
 * has no value (the flat convention names its fields, it does not omit them); counts come with their text
 * ("1,234 views"), durations as seconds, `m:ss` text and ISO 8601 (`PT4M13S`).
 */

export type Nullable<T> = T | null;

export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

const GROUPED = new Intl.NumberFormat('en-US');

/** YouTube's own text when it gave one, else the number written out ("1,234 views"). */
export function countText(text: string | undefined, n: number | undefined, unit: string): string | null {
  if (text) return text;
  return n === undefined ? null : `${GROUPED.format(n)} ${unit}`;
}

/** 253 → "4:13", 3725 → "1:02:05". */
export function clock(seconds: number | undefined): string | null {
  if (seconds === undefined) return null;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** 253 → "PT4M13S". */
export function isoDuration(seconds: number | undefined): string | null {
  if (seconds === undefined) return null;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** "4:13" or "1:02:05" → seconds. */
export function secondsOf(clockText: string | undefined): number | undefined {
  if (!clockText || !/^\d+(?::\d{1,2}){1,2}$/.test(clockText)) return undefined;
  return clockText.split(':').reduce((acc, part) => acc * 60 + Number(part), 0);
}

export interface Thumbnail {
  url: string;
  width: number | null;
  height: number | null;
}

export function thumbnails(images: Array<{ url: string; width?: number; height?: number }> | undefined): Thumbnail[] {
  return (images ?? []).map((i) => ({ url: i.url, width: orNull(i.width), height: orNull(i.height) }));
}

export const watchUrl = (id: string): string => `https://www.youtube.com/watch?v=${id}`;
export const channelUrlOf = (id: string | undefined): string | null => (id ? `https://www.youtube.com/channel/${id}` : null);

/** The legacy paging pair: the cursor to send back as `continuationToken`, and whether there is more. */
export function paging(cursor: string | undefined): { continuationToken: string | null; hasMore: boolean } {
  return { continuationToken: orNull(cursor), hasMore: cursor !== undefined };
}
