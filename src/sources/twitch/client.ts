/**
 * Twitch's requests: the web app's GraphQL endpoint (gql.twitch.tv) with its public Client-Id and the persisted
 * queries twitch.tv itself sends (their sha256 hashes rotate with Twitch's releases: QUARRY_TWITCH_QUERY_HASHES
 * overrides any of them), and Helix's keyless iCalendar export of a channel's schedule.
 */
import { QuarryError } from '../../errors.js';
import { arr, isObj, obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const GQL = 'https://gql.twitch.tv/gql';
const ICALENDAR = 'https://api.twitch.tv/helix/schedule/icalendar';
/** The Client-Id twitch.tv's own web app sends: public, not an account or app credential. */
export const WEB_CLIENT_ID = 'kimne78kx3ncx6brgo4mv6wki5h1ko';

/** The persisted queries as twitch.tv sent them when recorded (DmitryScaletta/twitch-gql-queries, 2025-2026). */
export const QUERY_HASHES = {
  ChannelShell: '580ab410bcd0c1ad194224957ae2241e5d252b2c5173d8e0cce9d32d5bb14efe',
  ChannelRoot_AboutPanel: '0df42c4d26990ec1216d0b815c92cc4a4a806e25b352b66ac1dd91d5a1d59b80',
  StreamMetadata: 'b57f9b910f8cd1a4659d894fe7550ccc81ec9052c01e438b290fd66a040b9b93',
  FilterableVideoTower_Videos: '67004f7881e65c297936f32c75246470629557a393788fb5a69d6d9a25a8fd5f',
  ClipsCards__User: '1cd671bfa12cec480499c087319f26d21925e9695d1f80225aae6a4354f23088',
  ClipsCards__Game: 'cc14976959c8f31c617e956a7c4c32216c3e04f6b586088b7bf49561c35e841b',
  ShareClipRenderStatus: '0a02bb974443b576f5579aab0fef1d4b7f44e58a8a256f0c5adfead0db70640f',
  VideoMetadata: '45111672eea2e507f8ba44d101a61862f9c56b11dee09a15634cb75cb9b9084d',
  SearchResultsPage_SearchResults: 'f6c2575aee4418e8a616e03364d8bcdbf0b10a5c87b59f523569dacc963e8da5',
  DirectoryPage_Game: 'c7c9d5aad09155c4161d2382092dc44610367f3536aac39019ec2582ae5065f9',
  BrowsePage_AllDirectories: '2f67f71ba89f3c0ed26a141ec00da1defecb2303595f5cda4298169549783d9e',
} as const;

export type Operation = keyof typeof QUERY_HASHES;

const bad = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`, { retryable: false });

// ---- References ------------------------------------------------------------------------------------------------------

const LOGIN = /^[a-zA-Z0-9_]{1,25}$/;
const TWITCH_HOST = /^(?:(?:www|m|clips)\.)?twitch\.tv$/i;
/** Paths under twitch.tv that are not channels. */
const NOT_CHANNELS = new Set(['directory', 'videos', 'search', 'settings', 'downloads', 'jobs', 'p', 'turbo', 'inventory', 'subscriptions', 'wallet']);

function urlOf(input: string): URL | undefined {
  const withScheme = /^[a-z]+:\/\//i.test(input) ? input : `https://${input}`;
  if (!URL.canParse(withScheme)) return undefined;
  const u = new URL(withScheme);
  return TWITCH_HOST.test(u.hostname) ? u : undefined;
}

const segments = (u: URL) => u.pathname.split('/').filter(Boolean).map(decodeURIComponent);

/** A channel's login (lower-cased) from itself or a twitch.tv address. */
export function loginOf(input: string, field = 'channel'): string {
  const t = input.trim().replace(/^@/, '');
  if (LOGIN.test(t)) return t.toLowerCase();
  const u = urlOf(t);
  const first = u ? segments(u)[0] : undefined;
  if (first && LOGIN.test(first) && !NOT_CHANNELS.has(first.toLowerCase()) && u!.hostname.toLowerCase() !== 'clips.twitch.tv') return first.toLowerCase();
  throw bad(field, 'not a Twitch channel login or twitch.tv channel address');
}

/** A category's slug from itself, its name ("Just Chatting" → just-chatting) or a twitch.tv/directory address. */
export function categorySlug(input: string, field = 'category'): string {
  const t = input.trim();
  const u = /twitch\.tv\//i.test(t) ? urlOf(t) : undefined;
  if (u) {
    const [dir, kind, slug] = segments(u);
    if (dir === 'directory' && (kind === 'category' || kind === 'game') && slug) return categorySlug(slug, field);
    throw bad(field, 'not a twitch.tv/directory/category address');
  }
  const slug = t
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/&/g, 'and')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!slug || slug.length > 100) throw bad(field, 'not a Twitch category name or slug');
  return slug;
}

/** A video's numeric id from itself or a twitch.tv/videos address. */
export function videoId(input: string): string {
  const t = input.trim().replace(/^v(?=\d)/, '');
  if (/^[1-9][0-9]{0,14}$/.test(t)) return t;
  const u = urlOf(t);
  const [kind, id] = u ? segments(u) : [];
  if (kind === 'videos' && id && /^[1-9][0-9]{0,14}$/.test(id)) return id;
  throw bad('video', 'not a Twitch video id or twitch.tv/videos address');
}

const SLUG = /^[A-Za-z0-9_-]{1,100}$/;

/** A clip's slug from itself, a clips.twitch.tv address or a twitch.tv/<channel>/clip address. */
export function clipSlug(input: string): string {
  const t = input.trim();
  if (SLUG.test(t) && !/^\d+$/.test(t)) return t;
  const u = urlOf(t);
  const parts = u ? segments(u) : [];
  const slug = u?.hostname.toLowerCase() === 'clips.twitch.tv' ? (parts[0] === 'embed' ? u.searchParams.get('clip') ?? undefined : parts[0]) : parts[1] === 'clip' ? parts[2] : undefined;
  if (slug && SLUG.test(slug)) return slug;
  throw bad('clip', 'not a Twitch clip slug or clip address');
}

// ---- GraphQL ---------------------------------------------------------------------------------------------------------

function hashes(ctx: SourceContext): Record<string, string> {
  const raw = ctx.settings.QUERY_HASHES;
  if (!raw) return QUERY_HASHES;
  let extra: unknown;
  try {
    extra = JSON.parse(raw);
  } catch {
    extra = undefined;
  }
  if (!isObj(extra) || !Object.values(extra).every((v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v))) {
    throw new QuarryError('sourceUnavailable', 'twitch: QUARRY_TWITCH_QUERY_HASHES is not a JSON object of operation names to sha256 hashes', { retryable: false });
  }
  return { ...QUERY_HASHES, ...(extra as Record<string, string>) };
}

/**
 * One persisted query; its `data`. Twitch answers failures with HTTP 200 and `errors`: an integrity challenge (the
 * anti-bot check its web app passes with a token) is a refusal; an unknown hash means Twitch rotated it.
 */
export async function gql(ctx: SourceContext, operation: Operation, variables: Obj): Promise<Obj> {
  const body = JSON.stringify({ operationName: operation, variables, extensions: { persistedQuery: { version: 1, sha256Hash: hashes(ctx)[operation] } } });
  const res = await ctx.http.request(
    {
      url: GQL,
      method: 'POST',
      idempotent: true,
      headers: { 'content-type': 'application/json', accept: 'application/json', 'client-id': ctx.settings.CLIENT_ID || WEB_CLIENT_ID },
      body,
      passStatuses: [400, 401],
    },
    ctx.signal,
  );
  const answer = res.json<unknown>();
  if (res.status !== 200) {
    const message = str(obj(answer)?.message) ?? `HTTP ${res.status}`;
    throw new QuarryError('sourceUnavailable', `twitch: Twitch refused the Client-Id (QUARRY_TWITCH_CLIENT_ID): ${message.slice(0, 200)}`, { retryable: false });
  }
  const a = obj(answer);
  if (!a) throw new QuarryError('sourceChanged', `twitch: ${operation} answered no JSON object`);
  const errors = arr(a.errors).flatMap((e) => str(obj(e)?.message) ?? []);
  if (str(obj(obj(a.extensions)?.challenge)?.type) || errors.some((m) => /integrity/i.test(m))) {
    throw new QuarryError('sourceRefused', `twitch: Twitch asked ${operation} for an integrity check (its anti-bot challenge)`);
  }
  if (errors.some((m) => m === 'PersistedQueryNotFound')) {
    throw new QuarryError('sourceChanged', `twitch: Twitch no longer knows the persisted query of ${operation}; set its current hash in QUARRY_TWITCH_QUERY_HASHES`);
  }
  const data = obj(a.data);
  if (!data) {
    const said = errors[0] ?? 'no data';
    if (/timeout|unavailable|service error/i.test(said)) throw new QuarryError('sourceUnavailable', `twitch: ${operation}: ${said.slice(0, 200)}`);
    throw new QuarryError('sourceChanged', `twitch: ${operation} answered ${said.slice(0, 200)}`);
  }
  return data;
}

// ---- Schedule (Helix's iCalendar) ------------------------------------------------------------------------------------

/** The channel's schedule as an iCalendar text; undefined when Twitch says it has none (404). */
export async function fetchICalendar(ctx: SourceContext, broadcasterId: string): Promise<string | undefined> {
  const res = await ctx.http.request(
    { url: `${ICALENDAR}?broadcaster_id=${encodeURIComponent(broadcasterId)}`, headers: { accept: 'text/calendar' }, passStatuses: [404] },
    ctx.signal,
  );
  if (res.status === 404) return undefined;
  const text = res.text();
  if (!/^\s*BEGIN:VCALENDAR/i.test(text)) throw new QuarryError('sourceChanged', 'twitch: the schedule is not an iCalendar');
  return text;
}
