/**
 * Pinterest as its logged-out web app asks for it: the pin page (relay JSON and JSON-LD, keyless, recorded) with the
 * keyless oEmbed when the page is walled, and the web app's resource API
 * (`/resource/<Name>Resource/get/?source_url=&data={"options":…}`: search, boards, board feed), keyless and paged by
 * its `bookmark`. A redirect to the login page or an error the API gives as 401/403/429 is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { jsonLd, scripts } from '../kit/embedded.js';
import { int, obj, str, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const WEB = 'https://www.pinterest.com';
const refused = (message: string) => new QuarryError('sourceRefused', `pinterest: ${message}`);

function walled(url: string): boolean {
  return /^\/(?:login|signup)\b/.test(new URL(url).pathname);
}

/** The pin page's `v3GetPinQuery.data` objects for this pin, and its JSON-LD posting. */
export async function fetchPinPage(id: string, ctx: SourceContext): Promise<{ datas: Obj[]; ld?: Obj }> {
  const res = await ctx.http.request({ url: `${WEB}/pin/${id}/`, headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.9' }, passStatuses: [404] }, ctx.signal);
  if (walled(res.url)) throw refused('Pinterest sent us to its login page');
  if (res.status === 404) throw new QuarryError('notFound', `pinterest: no such pin ${id}`);
  const html = res.text();
  const datas: Obj[] = [];
  for (const s of scripts(html)) {
    if (s.attrs['data-relay-response'] !== 'true') continue;
    let body: unknown;
    try {
      body = JSON.parse(s.text);
    } catch {
      continue;
    }
    const data = obj(obj(obj(obj(obj(body)?.response)?.data)?.v3GetPinQuery)?.data);
    if (data && str(data.entityId) === id) datas.push(data);
  }
  if (datas.length === 0) {
    if (/login|sign up|signup/i.test(html.slice(0, 100_000)) && !/__PWS_DATA__/.test(html)) throw refused('Pinterest answered its sign-up wall instead of the pin');
    throw new QuarryError('sourceChanged', `pinterest: the pin page carries no v3GetPinQuery data for ${id}`);
  }
  const ld = jsonLd(html).find((o) => o['@type'] === 'SocialMediaPosting');
  return { datas, ld };
}

export async function fetchOembed(pinUrl: string, ctx: SourceContext): Promise<Obj> {
  const res = await ctx.http.request({ url: `${WEB}/oembed.json?url=${encodeURIComponent(pinUrl)}&format=json`, headers: { accept: 'application/json' }, passStatuses: [404] }, ctx.signal);
  if (res.status === 404) throw new QuarryError('notFound', `pinterest: no such pin ${pinUrl}`);
  const body = obj(res.json());
  if (!body) throw new QuarryError('sourceChanged', 'pinterest: oEmbed answer is not an object');
  return body;
}

export interface ResourcePage {
  data: unknown;
  /** The next page's bookmark, when there is one. */
  bookmark?: string;
}

/** One resource API call. */
export async function fetchResource(name: string, sourceUrl: string, options: Record<string, unknown>, ctx: SourceContext, missing: string): Promise<ResourcePage> {
  const q = new URLSearchParams({ source_url: sourceUrl, data: JSON.stringify({ options, context: {} }) });
  const res = await ctx.http.request(
    {
      url: `${WEB}/resource/${name}/get/?${q}`,
      headers: { accept: 'application/json, text/javascript, */*; q=0.01', 'x-requested-with': 'XMLHttpRequest', 'x-pinterest-source-url': sourceUrl },
      passStatuses: [400, 401, 403, 404],
    },
    ctx.signal,
  );
  if (walled(res.url)) throw refused('Pinterest sent us to its login page');
  let body: unknown;
  try {
    body = JSON.parse(res.text());
  } catch {
    if ((res.headers['content-type'] ?? '').includes('html')) throw refused('Pinterest answered a web page instead of data');
    throw new QuarryError('sourceChanged', `pinterest: ${name} answer is not JSON`);
  }
  const rr = obj(obj(body)?.resource_response);
  if (!rr) throw new QuarryError('sourceChanged', `pinterest: ${name} answer without resource_response`);
  const error = obj(rr.error);
  const status = int(error?.http_status) ?? int(rr.http_status) ?? (res.status !== 200 ? res.status : undefined);
  if (rr.status === 'failure' || error || res.status !== 200) {
    if (status === 404) throw new QuarryError('notFound', `pinterest: ${missing}`);
    throw refused(`Pinterest refused the request${status ? ` (HTTP ${status})` : ''}${str(error?.message) ? `: ${str(error?.message)}` : ''}`);
  }
  const bookmark = str(rr.bookmark) ?? str((obj(obj(obj(body)?.resource)?.options)?.bookmarks as unknown[] | undefined)?.[0]);
  return { data: rr.data, ...(bookmark && bookmark !== '-end-' ? { bookmark } : {}) };
}
