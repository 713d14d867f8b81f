/**
 * Our own small InnerTube client: every request is one `ctx.http.request()` to YouTube's real address (timeouts,
 * SSRF guard, byte caps, proxies and QUARRY_UPSTREAM_OVERRIDES all apply), with the client context and headers the
 * recorded requests show. No session bootstrap, no player script: Quarry needs metadata only.
 *
 * Operator settings (QUARRY_YOUTUBE_…): the client versions rotate, so each has a default and a setting.
 */
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { isObj, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

export type Surface = 'web' | 'android' | 'music' | 'kids';

/** Defaults of the rotating constants (the versions the recordings were made with), each overridable by a setting. */
export const DEFAULTS = {
  WEB_CLIENT_VERSION: '2.20260123.01.00',
  ANDROID_CLIENT_VERSION: '20.10.38',
  MUSIC_CLIENT_VERSION: '1.20260121.03.00',
  KIDS_CLIENT_VERSION: '2.20260205.00.00',
  USER_AGENT: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
} as const;

const SURFACES = {
  web: { host: 'https://www.youtube.com', name: 'WEB', id: '1', version: 'WEB_CLIENT_VERSION' },
  android: { host: 'https://www.youtube.com', name: 'ANDROID', id: '3', version: 'ANDROID_CLIENT_VERSION' },
  music: { host: 'https://music.youtube.com', name: 'WEB_REMIX', id: '67', version: 'MUSIC_CLIENT_VERSION' },
  kids: { host: 'https://www.youtubekids.com', name: 'WEB_KIDS', id: '76', version: 'KIDS_CLIENT_VERSION' },
} as const;

const setting = (ctx: SourceContext, name: keyof typeof DEFAULTS): string => ctx.settings[name]?.trim() || DEFAULTS[name];

export interface Locale {
  /** Interface language (`hl`), e.g. en or pt-BR. */
  hl?: string;
  /** Content country (`gl`), upper case. */
  gl?: string;
}

export interface InnertubeCall extends Locale {
  surface: Surface;
  /** `search`, `next`, `browse`, `player`, `navigation/resolve_url`, `live_chat/get_live_chat`, … */
  endpoint: string;
  body: Obj;
  /** Query parameters after `?`, already encoded (`$fields=…`, YouTube Music's `ctoken=…`). */
  query?: string;
  /** What an answer of HTTP 400 or 404 means for this call (an unknown id, a tampered cursor). */
  missing: () => QuarryError;
}

function context(ctx: SourceContext, call: InnertubeCall): Obj {
  const s = SURFACES[call.surface];
  const client: Obj = { clientName: s.name, clientVersion: setting(ctx, s.version), hl: call.hl ?? 'en', gl: call.gl ?? 'US', utcOffsetMinutes: 0 };
  if (call.surface === 'android') Object.assign(client, { androidSdkVersion: 30, osName: 'Android', osVersion: '11' });
  else client.platform = 'DESKTOP';
  if (call.surface === 'kids') {
    // YouTube Kids answers only with the app's content settings (youtubei.js's YTKIDS context).
    client.kidsAppInfo = { contentSettings: { corpusPreference: 'KIDS_CORPUS_PREFERENCE_YOUNGER', kidsNoSearchMode: 'YT_KIDS_NO_SEARCH_MODE_OFF' } };
  }
  return { client, user: { lockedSafetyMode: false } };
}

function headers(ctx: SourceContext, call: InnertubeCall): Record<string, string> {
  const s = SURFACES[call.surface];
  const version = setting(ctx, s.version);
  const h: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'accept-language': `${call.hl ?? 'en'};q=0.9`,
    'x-youtube-client-name': s.id,
    'x-youtube-client-version': version,
    // Skips the EU consent wall, as every recorded request does.
    cookie: 'SOCS=CAE=',
  };
  if (call.surface === 'android') {
    h['user-agent'] = `com.google.android.youtube/${version} (Linux; U; Android 11) gzip`;
  } else {
    h['user-agent'] = setting(ctx, 'USER_AGENT');
    h.origin = s.host;
    h.referer = `${s.host}/`;
  }
  return h;
}

/** One InnerTube request; the answer is a JSON object or the call fails with the source code that fits. */
export async function innertube(ctx: SourceContext, call: InnertubeCall): Promise<Obj> {
  const s = SURFACES[call.surface];
  const url = `${s.host}/youtubei/v1/${call.endpoint}?${call.query ? `${call.query}&` : ''}prettyPrint=false`;
  const res = await ctx.http.request(
    {
      url,
      method: 'POST',
      idempotent: true,
      headers: headers(ctx, call),
      body: JSON.stringify({ context: context(ctx, call), ...call.body }),
      passStatuses: [400, 404],
    },
    ctx.signal,
  );
  if (res.status === 400 || res.status === 404) throw call.missing();
  return jsonObject(res);
}

/** A plain GET to a YouTube address (suggestions, caption tracks); 404 means `missing`. */
export async function youtubeGet(ctx: SourceContext, url: string, missing: () => QuarryError): Promise<UpstreamResponse> {
  const res = await ctx.http.request(
    { url, headers: { 'accept-language': 'en;q=0.9', 'user-agent': setting(ctx, 'USER_AGENT'), cookie: 'SOCS=CAE=' }, passStatuses: [404] },
    ctx.signal,
  );
  if (res.status === 404) throw missing();
  return res;
}

export function jsonObject(res: UpstreamResponse): Obj {
  const body = res.json();
  if (!isObj(body)) throw new QuarryError('sourceChanged', 'youtube: the answer is not a JSON object');
  return body;
}

// ---- Cursors --------------------------------------------------------------------------------------------------------

/**
 * Our cursor is YouTube's continuation token. When a page is cut at `limit`, the rest of that page is still owed: the
 * cursor is then `N~token` (skip N entries of the page `token` asks; an empty token is the first page).
 */
export interface Cursor {
  skip: number;
  token?: string;
}

const TOKEN = /^[A-Za-z0-9_\-%=.]{1,4096}$/;

export function readCursor(cursor: string | undefined, field = 'cursor'): Cursor {
  if (cursor === undefined) return { skip: 0 };
  const m = /^(\d{1,4})~(.*)$/s.exec(cursor);
  const token = m ? m[2] : cursor;
  if (token !== '' && !TOKEN.test(token)) throw new QuarryError('invalidRequest', `${field}: not a cursor this endpoint gave`);
  return { skip: m ? Number(m[1]) : 0, token: token || undefined };
}

export const writeCursor = (c: Cursor): string | undefined => (c.skip ? `${c.skip}~${c.token ?? ''}` : c.token);

export interface Page<T> {
  items: T[];
  /** The continuation of the next page, when there is one. */
  token?: string;
}

/**
 * Collects `limit` entries from the cursor on, page after page (at most `maxPages` upstream requests), and answers the
 * cursor of what comes next. `fetchPage(undefined)` is the first page.
 */
export async function collect<T>(
  cursor: Cursor,
  limit: number,
  fetchPage: (token: string | undefined) => Promise<Page<T>>,
  maxPages = 8,
): Promise<{ items: T[]; cursor?: string }> {
  const items: T[] = [];
  let asked = cursor.token;
  let skip = cursor.skip;
  for (let n = 0; n < maxPages; n++) {
    const page = await fetchPage(asked);
    const fresh = page.items.slice(skip);
    const room = limit - items.length;
    if (fresh.length > room) {
      items.push(...fresh.slice(0, room));
      return { items, cursor: writeCursor({ skip: skip + room, token: asked }) };
    }
    items.push(...fresh);
    if (!page.token) return { items };
    if (items.length >= limit) return { items, cursor: page.token };
    asked = page.token;
    skip = 0;
  }
  return { items, cursor: asked };
}

/** A continuation the caller sent that YouTube refused. */
export const badCursor = (field = 'cursor') => (): QuarryError =>
  new QuarryError('invalidRequest', `${field}: YouTube did not accept this cursor; send back one this endpoint gave, with the same other fields`);
