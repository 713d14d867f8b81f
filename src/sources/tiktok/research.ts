/**
 * TikTok's Commercial Content API, the documented read of one ad library ad by its id
 * (https://developers.tiktok.com/doc/commercial-content-api-get-ad-details): `POST open.tiktokapis.com/v2/research/
 * adlib/ad/detail/?fields=…` with `{"ad_id": …}` and a client access token. The token comes from the operator's
 * approved research client (QUARRY_TIKTOK_CLIENT_KEY and QUARRY_TIKTOK_CLIENT_SECRET) through
 * `POST /v2/oauth/token/` with `grant_type=client_credentials`
 * (https://developers.tiktok.com/doc/client-access-token-management); it lives two hours and is kept per process, per
 * client, until a minute before it ends. Errors are read from TikTok's v2 error struct
 * (https://developers.tiktok.com/doc/tiktok-api-v2-error-handling/).
 */
import { createHash } from 'node:crypto';
import { QuarryError } from '../../errors.js';
import type { UpstreamResponse } from '../../upstream/types.js';
import { num, obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const API = 'https://open.tiktokapis.com';
export const CLIENT_KEY_SETTING = 'QUARRY_TIKTOK_CLIENT_KEY';
export const CLIENT_SECRET_SETTING = 'QUARRY_TIKTOK_CLIENT_SECRET';
const MAX_BYTES = 2 * 1024 * 1024;
/** Every field the documentation lists for one ad. */
export const AD_DETAIL_FIELDS = [
  'ad.id', 'ad.first_shown_date', 'ad.last_shown_date', 'ad.status', 'ad.status_statement', 'ad.videos', 'ad.image_urls',
  'ad.reach', 'ad.title', 'ad.external_url', 'ad.download_url', 'ad.call_to_action', 'ad.advertising_objective',
  'advertiser.business_id', 'advertiser.business_name', 'advertiser.paid_for_by', 'advertiser.follower_count',
  'advertiser.avatar_url', 'advertiser.profile_url', 'ad_group.targeting_info',
].join(',');

const unavailable = (message: string, retryable = false) => new QuarryError('sourceUnavailable', `tiktok: ${message}`, { retryable });
const CREDENTIALS = `${CLIENT_KEY_SETTING} and ${CLIENT_SECRET_SETTING}`;

interface Token {
  value: string;
  /** When to stop using it (ms). */
  until: number;
}
const tokens = new Map<string, Promise<Token>>();

function credentials(ctx: SourceContext): { key: string; secret: string; cacheKey: string } {
  const key = ctx.settings.CLIENT_KEY;
  const secret = ctx.settings.CLIENT_SECRET;
  if (!key || !secret) throw unavailable(`one ad is read through TikTok's Commercial Content API; the operator has not set ${CREDENTIALS}`);
  return { key, secret, cacheKey: createHash('sha256').update(`${key}\n${secret}`).digest('hex') };
}

/** TikTok's ids are JSON numbers of up to 19 digits; read past 2^53 as numbers they change, so they are read as text. */
const BIG_IDS = /("(?:id|business_id)"\s*:\s*)(\d{16,25})(?=\s*[,}\]])/g;

function json(res: UpstreamResponse): Obj | undefined {
  try {
    return obj(JSON.parse(res.text().replace(BIG_IDS, '$1"$2"')));
  } catch {
    return undefined;
  }
}

async function newToken(key: string, secret: string, ctx: SourceContext): Promise<Token> {
  const res = await ctx.http.request(
    {
      url: `${API}/v2/oauth/token/`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache', accept: 'application/json' },
      body: new URLSearchParams({ client_key: key, client_secret: secret, grant_type: 'client_credentials' }).toString(),
      maxBytes: 64 * 1024,
      passStatuses: [400, 401, 403],
    },
    ctx.signal,
  );
  const body = json(res);
  const value = str(body?.access_token);
  if (res.status !== 200 || !value) {
    const said = [str(body?.error), str(body?.error_description)].filter(Boolean).join(': ').slice(0, 300);
    throw unavailable(`TikTok refused ${CREDENTIALS}${said ? ` (${said})` : ` (HTTP ${res.status})`}`);
  }
  const seconds = num(body?.expires_in) ?? 7200;
  return { value, until: Date.now() + Math.max(0, seconds - 60) * 1000 };
}

/** The client access token, asked once and shared by concurrent calls; `fresh` drops the one TikTok refused. */
async function token(ctx: SourceContext, fresh = false): Promise<string> {
  const { key, secret, cacheKey } = credentials(ctx);
  const cached = tokens.get(cacheKey);
  if (cached && !fresh) {
    const t = await cached.catch(() => undefined);
    if (t && t.until > Date.now()) return t.value;
  }
  if (tokens.get(cacheKey) === cached) tokens.delete(cacheKey);
  const asked = newToken(key, secret, ctx);
  tokens.set(cacheKey, asked);
  asked.catch(() => {
    if (tokens.get(cacheKey) === asked) tokens.delete(cacheKey);
  });
  return (await asked).value;
}

/** TikTok's v2 error struct as the failure CONTRACT.md names; TikTok's message is passed on, bounded. */
function failure(error: Obj | undefined, status: number, id: string): QuarryError {
  const code = str(error?.code) ?? (status === 429 ? 'rate_limit_exceeded' : undefined);
  const said = (str(error?.message) ?? `HTTP ${status}`).slice(0, 300);
  switch (code) {
    case 'access_token_invalid':
      return unavailable(`TikTok does not accept the token of ${CREDENTIALS}: ${said}`);
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return unavailable(`the research client of ${CREDENTIALS} lacks TikTok's research.adlib.basic scope: ${said}`);
    case 'rate_limit_exceeded':
      return new QuarryError('sourceRefused', `tiktok: TikTok is throttling the Commercial Content API: ${said}`);
    case 'invalid_params':
      return /not (?:be )?(?:found|exist)|no (?:such|ad)|invalid ad/i.test(said)
        ? new QuarryError('notFound', `ad: TikTok's ad library has no ad ${id}`)
        : new QuarryError('invalidRequest', `ad: TikTok refused the request: ${said}`, { retryable: false });
    case 'internal_error':
      return unavailable(`TikTok answered an internal error: ${said}`, true);
    default:
      return unavailable(`the Commercial Content API answered ${code ?? `HTTP ${status}`}: ${said}`, status >= 500);
  }
}

async function askDetail(id: string, bearer: string, ctx: SourceContext): Promise<{ res: UpstreamResponse; body?: Obj }> {
  const res = await ctx.http.request(
    {
      url: `${API}/v2/research/adlib/ad/detail/?fields=${AD_DETAIL_FIELDS}`,
      method: 'POST',
      // The id goes as the digits it is: a JSON number past 2^53 would lose them in a double.
      body: `{"ad_id":${id}}`,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
      idempotent: true,
      maxBytes: MAX_BYTES,
      passStatuses: [400, 401, 403, 404, 429],
    },
    ctx.signal,
  );
  return { res, body: json(res) };
}

/** `data` of the ad detail answer; a token TikTok no longer accepts is renewed once. */
export async function fetchAdDetail(id: string, ctx: SourceContext): Promise<Obj> {
  let { res, body } = await askDetail(id, await token(ctx), ctx);
  if (str(obj(body?.error)?.code) === 'access_token_invalid' || res.status === 401) {
    ({ res, body } = await askDetail(id, await token(ctx, true), ctx));
  }
  if (!body) throw new QuarryError('sourceChanged', `tiktok: the Commercial Content API answered HTTP ${res.status} without JSON`);
  const error = obj(body.error);
  const code = str(error?.code);
  if ((code && code !== 'ok') || res.status !== 200) throw failure(error, res.status, id);
  const data = obj(body.data);
  if (!data) throw new QuarryError('sourceChanged', 'tiktok: the ad detail answer without its data');
  return data;
}
