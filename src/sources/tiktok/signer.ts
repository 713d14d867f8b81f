/**
 * TikTok's web API and ad library answer only requests signed by TikTok's own browser code (`X-Bogus`, `msToken`,
 * `_signature` query parameters; the ad library's `x-ccl-str` header). Quarry does not run that code: the operator
 * points QUARRY_TIKTOK_SIGNER_URL at a signing service of their choice, which speaks this contract:
 *
 *   POST <SIGNER_URL>  {"url": "<the request's address>", "method": "GET"|"POST", "headers": {…}, "body": "…"?}
 *   200                {"query": {"X-Bogus": "…", "msToken": "…", …}?, "headers": {"user-agent": "…", "cookie": "…"}?}
 *
 * The answered parameters are added to the address and the headers to the request. Without the setting, these reads
 * are `sourceUnavailable` naming it; a signer that fails or answers something else is `sourceUnavailable` too (it is
 * the operator's service, not TikTok, that is down).
 */
import { QuarryError } from '../../errors.js';
import { isObj, obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

export const SIGNER_SETTING = 'QUARRY_TIKTOK_SIGNER_URL';

export interface Unsigned {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

const unavailable = (message: string) => new QuarryError('sourceUnavailable', `tiktok: ${message}`, { retryable: false });

/** Only plain strings go on a request: a signer's answer is trusted with values, not with shapes. */
function strings(v: unknown, what: string): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw unavailable(`the signer's ${what} is not an object`);
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(k) || value.length > 8192) throw unavailable(`the signer's ${what} ${k} is not a short string`);
    out[k] = value;
  }
  return out;
}

/** The request as the signer completes it. */
export async function sign(req: Unsigned, ctx: SourceContext, what: string): Promise<Unsigned> {
  const signer = ctx.settings.SIGNER_URL;
  if (!signer) throw unavailable(`${what} needs signed requests; the operator has not set ${SIGNER_SETTING}`);
  if (!URL.canParse(signer)) throw unavailable(`${SIGNER_SETTING} is not an address`);
  const res = await ctx.http.request(
    {
      url: signer,
      method: 'POST',
      idempotent: true,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ url: req.url, method: req.method, headers: req.headers, ...(req.body !== undefined ? { body: req.body } : {}) }),
      maxBytes: 64 * 1024,
      passStatuses: [400, 401, 403, 404, 429],
    },
    ctx.signal,
  );
  if (res.status !== 200) throw unavailable(`the signer answered HTTP ${res.status}`);
  let answer: unknown;
  try {
    answer = JSON.parse(res.text());
  } catch {
    throw unavailable('the signer did not answer JSON');
  }
  const a = obj(answer);
  if (!a) throw unavailable('the signer did not answer an object');
  const url = new URL(req.url);
  for (const [k, v] of Object.entries(strings(a.query, 'query parameter'))) url.searchParams.set(k, v);
  return { ...req, url: url.toString(), headers: { ...req.headers, ...strings(a.headers, 'header') } };
}
