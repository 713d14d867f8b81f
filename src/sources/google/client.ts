/**
 * Google's Ads Transparency Center (adstransparency.google.com), through the RPC its own web app posts: one form field
 * `f.req` holding JSON keyed by field numbers. Google documents none of it; the field numbers used here are the ones
 * its web app sends and public clients repeat (listed in the README's decision and in the documented fixtures). It
 * needs no key; Google's "unusual traffic" page and throttling are refusals.
 */
import { QuarryError } from '../../errors.js';
import { isObj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const RPC = 'https://adstransparency.google.com/anji/_/rpc';
export const SITE = 'https://adstransparency.google.com';

const bad = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`, { retryable: false });

const ADVERTISER = /^AR\d{20}$/;
const CREATIVE = /^CR\d{20}$/;
const DOMAIN = /^(?=.{3,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;

function atcUrl(input: string): URL | undefined {
  const withScheme = /^[a-z]+:\/\//i.test(input) ? input : `https://${input}`;
  if (!URL.canParse(withScheme)) return undefined;
  const u = new URL(withScheme);
  return u.hostname.toLowerCase() === 'adstransparency.google.com' ? u : undefined;
}

/** An advertiser id from itself or its Transparency Center address (`/advertiser/AR…`). */
export function advertiserIdOf(input: string, field = 'advertiser'): string {
  const t = input.trim();
  if (ADVERTISER.test(t)) return t;
  const parts = atcUrl(t)?.pathname.split('/').filter(Boolean) ?? [];
  const id = parts[0] === 'advertiser' ? parts[1] : undefined;
  if (id && ADVERTISER.test(id)) return id;
  throw bad(field, 'not an advertiser id (AR followed by 20 digits) or its Transparency Center address');
}

/** A domain, lower-cased, from itself or an address of it. */
export function domainOf(input: string): string {
  const t = input.trim().toLowerCase();
  const host = /^[a-z]+:\/\//.test(t) && URL.canParse(t) ? new URL(t).hostname : t.replace(/\/.*$/, '');
  const d = host.replace(/^www\./, '');
  if (DOMAIN.test(d)) return d;
  throw bad('domain', 'not a domain (example.com)');
}

/** An ad from its address (`/advertiser/AR…/creative/CR…`), or from its id and the advertiser given beside it. */
export function adRefOf(ad: string, advertiser: string | undefined): { advertiserId: string; creativeId: string } {
  const t = ad.trim();
  const parts = atcUrl(t)?.pathname.split('/').filter(Boolean) ?? [];
  if (parts[0] === 'advertiser' && parts[2] === 'creative' && ADVERTISER.test(parts[1] ?? '') && CREATIVE.test(parts[3] ?? '')) {
    return { advertiserId: parts[1], creativeId: parts[3] };
  }
  if (!CREATIVE.test(t)) throw bad('ad', 'not an ad id (CR followed by 20 digits) or its Transparency Center address');
  if (!advertiser) throw bad('advertiser', 'an ad id needs its advertiser id beside it (or give the ad’s address)');
  return { advertiserId: advertiserIdOf(advertiser), creativeId: t };
}

/**
 * One RPC: `f.req` in a form body; the answer is JSON (sometimes behind Google's `)]}'` guard). Google reports a
 * request it cannot read as `{"2": "…Exception…", "5": 400}` with HTTP 200: that is a change on its side.
 */
export async function rpc(ctx: SourceContext, method: string, request: Obj): Promise<Obj> {
  const res = await ctx.http.request(
    {
      url: `${RPC}/${method}?authuser=0`,
      method: 'POST',
      idempotent: true,
      headers: {
        'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
        accept: '*/*',
        origin: SITE,
        referer: `${SITE}/?region=anywhere`,
      },
      body: new URLSearchParams({ 'f.req': JSON.stringify(request) }).toString(),
    },
    ctx.signal,
  );
  let body: unknown;
  try {
    body = JSON.parse(res.text().replace(/^\)\]\}'\s*/, ''));
  } catch {
    throw new QuarryError('sourceChanged', `google: ${method} answered something other than JSON`);
  }
  if (!isObj(body)) throw new QuarryError('sourceChanged', `google: ${method} answered no JSON object`);
  const failed = str(body['2']);
  if (body['5'] !== undefined && failed && /exception/i.test(failed) && !Array.isArray(body['1'])) {
    throw new QuarryError('sourceChanged', `google: the Transparency Center refused ${method} (${failed.slice(0, 120)})`);
  }
  return body;
}
