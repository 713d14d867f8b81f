/**
 * Snapchat's public profile page, `www.snapchat.com/@{username}`: served to anyone, its whole state in
 * `__NEXT_DATA__` and a ProfilePage JSON-LD beside it. An unknown account answers 404 with the same page saying
 * `pageType: "NOT_FOUND"`; a challenge widget instead of the page is `sourceRefused`.
 */
import { QuarryError } from '../../errors.js';
import { jsonLd, scriptJsonById } from '../kit/embedded.js';
import { obj, type Obj } from '../kit/read.js';
import type { SourceContext } from '../types.js';

const WEB = 'https://www.snapchat.com';
/** Loader paths of the challenge widgets the page's own Content-Security-Policy allows. */
const CHALLENGES = ['recaptcha/api.js', 'recaptcha/enterprise.js', 'hcaptcha.com/1/api.js', 'hcaptcha.com/captcha/', 'challenges.cloudflare.com'];

export interface ProfilePage {
  props: Obj;
  ld?: Obj;
}

export async function fetchProfilePage(username: string, ctx: SourceContext): Promise<ProfilePage> {
  const res = await ctx.http.request({ url: `${WEB}/@${encodeURIComponent(username)}`, headers: { accept: 'text/html', 'accept-language': 'en-US,en;q=0.9' }, passStatuses: [404] }, ctx.signal);
  const html = res.text();
  const next = obj(scriptJsonById(html, '__NEXT_DATA__'));
  const props = obj(obj(next?.props)?.pageProps);
  const meta = obj(props?.pageMetadata) ?? obj(obj(props?.pageProps)?.pageMetadata);
  if (res.status === 404 || meta?.pageType === 'NOT_FOUND') throw new QuarryError('notFound', `snapchat: no such account @${username}`);
  if (!props) {
    const head = html.slice(0, 300_000);
    if (CHALLENGES.some((m) => head.includes(m))) throw new QuarryError('sourceRefused', 'snapchat: Snapchat answered a challenge instead of the profile');
    throw new QuarryError('sourceChanged', 'snapchat: the profile page carries no __NEXT_DATA__ pageProps');
  }
  return { props, ld: jsonLd(html).find((o) => o['@type'] === 'ProfilePage') };
}
