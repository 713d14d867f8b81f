/**
 * LinkedIn Ad Library pages → ad records. The search page, its paging fragment and an ad's page are server-rendered
 * for guests; they are read by the markup open-source readers of these pages agree on (see
 * test/fixtures/documented/linkedin/README.md): `li.search-result-item` cards with an `.ad-preview`
 * (`data-creative-type`), elements named by `data-tracking-control-name` (or the same name as the link's `trk`),
 * `<code id="paginationMetadata">` holding the paging token, and on an ad's page the right rail's "About the ad",
 * impressions and targeting blocks. Pure functions over the open-web toolkit's bounded DOM; what a page does not say
 * is left out, and a page none of this is found in is drift, or a wall when LinkedIn says so.
 */
import { isTag, isText, type AnyNode, type Element } from 'domhandler';
import type { LINKEDIN_AD, LINKEDIN_AD_PAGE } from '../../catalogue/endpoints/linkedin.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { dayFromText } from '../kit/local-date.js';
import { changed, compact, obj, str } from '../kit/read.js';
import { blockText } from '../kit/web/block-text.js';
import { parseHtml } from '../kit/web/dom.js';
import { all, attr, both, first, hasClass, lineOf, named, withAttr, type Match } from '../kit/web/select.js';
import { codeValue } from './html.js';
import { adUrl, WEB } from './refs.js';

export type LinkedinAd = TypeOf<typeof LINKEDIN_AD>;
export type LinkedinAdPage = TypeOf<typeof LINKEDIN_AD_PAGE>;
type Targeting = NonNullable<LinkedinAd['targeting']>;

/** LinkedIn's paging token: two numbers joined by `-` (SPEC's cursor form). */
export const PAGE_TOKEN = /^\d{1,20}-\d{1,20}$/;
const DETAIL_PATH = /\/ad-library\/detail\/(\d{1,20})(?:[/?#]|$)/;
const MAX_CARDS = 200;
const MAX_SOURCES_JSON = 20_000;

// ---- element tests -----------------------------------------------------------------------------------------------

/** LinkedIn's `trk` value of a link, when its address carries one. */
function trkOf(href: string | undefined): string | undefined {
  if (!href) return undefined;
  const i = href.indexOf('trk=');
  return i < 0 ? undefined : /^trk=([A-Za-z0-9_-]{1,80})/.exec(href.slice(i))?.[1];
}

/** An element LinkedIn names for its tracking: the attribute, or the link's `trk` of the same name. */
const tracked = (...names: string[]): Match => (e) => {
  const name = e.attribs['data-tracking-control-name'] ?? trkOf(e.attribs.href);
  return name !== undefined && names.includes(name);
};
const classes = (...names: string[]): Match => both(...names.map(hasClass));

// ---- values --------------------------------------------------------------------------------------------------------

/** An absolute address on LinkedIn or elsewhere, http(s) only. */
function absolute(href: string | undefined): URL | undefined {
  if (!href) return undefined;
  const raw = href.trim().replace(/&amp;/g, '&');
  const full = raw.startsWith('//') ? `https:${raw}` : raw.startsWith('/') ? `${WEB}${raw}` : raw;
  if (!URL.canParse(full)) return undefined;
  const url = new URL(full);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
}

const onLinkedin = (url: URL): boolean => /(?:^|\.)linkedin\.com$/i.test(url.hostname);

/** The ad's id in a link to its page. */
function detailId(href: string | undefined): string | undefined {
  const url = absolute(href);
  return url && onLinkedin(url) ? DETAIL_PATH.exec(url.pathname)?.[1] : undefined;
}

/** Where an ad sends people: its own address, LinkedIn's redirect unwrapped, LinkedIn's `trk` dropped. */
function landing(href: string | undefined): string | undefined {
  let url = absolute(href);
  if (url && onLinkedin(url) && url.pathname.startsWith('/redir/redirect')) url = absolute(url.searchParams.get('url') ?? undefined);
  if (!url || onLinkedin(url)) return undefined;
  url.searchParams.delete('trk');
  url.hash = '';
  return url.toString();
}

/** An image's address: LinkedIn loads them late, from `data-delayed-url`. */
const imageOf = (e: Element | undefined): string | undefined => {
  const url = absolute(attr(e, 'data-delayed-url') ?? attr(e, 'data-src') ?? attr(e, 'src'));
  return url?.toString();
};

/** An advertiser from its company link: `/company/{id}` (digits) or `/company/{slug}`. */
function company(link: Element | undefined): { id?: string; url?: string } {
  const url = absolute(link?.attribs.href);
  const m = url && onLinkedin(url) ? /^\/company\/([^/?#]{1,200})/.exec(url.pathname) : undefined;
  if (!m) return {};
  return { id: /^\d{1,20}$/.test(m[1]) ? m[1] : undefined, url: `${WEB}/company/${m[1]}` };
}

/** LinkedIn's creative types, as the vocabulary's short format names. */
const FORMATS: Record<string, string> = {
  SPONSORED_STATUS_UPDATE: 'image',
  SPONSORED_VIDEO: 'video',
  SPONSORED_UPDATE_CAROUSEL: 'carousel',
  SPONSORED_UPDATE_NATIVE_DOCUMENT: 'document',
  SPONSORED_NATIVE_DOCUMENT: 'document',
  SPONSORED_INMAILS: 'message',
  SPONSORED_MESSAGE: 'message',
  SPONSORED_CONVERSATION: 'conversation',
  SPONSORED_UPDATE_EVENT: 'event',
  SPONSORED_EVENT: 'event',
  TEXT_AD: 'text',
  SPOTLIGHT_V2: 'spotlight',
  FOLLOW_COMPANY_V2: 'follower',
  JOBS_V2: 'job',
};
/** The "About the ad" label ("Single Image Ad", "Video Ad"), as a format when the creative type is not known. */
const LABELS: Record<string, string> = { 'single image': 'image', 'message': 'message', 'text': 'text', 'follow company': 'follower' };
function formatOf(creativeType: string | undefined, label: string | undefined): string | undefined {
  const known = creativeType ? FORMATS[creativeType] : undefined;
  if (known) return known;
  const words = label && /^(.{1,60}?)\s+ad$/i.exec(label.trim())?.[1]?.toLowerCase();
  return words ? (LABELS[words] ?? words) : undefined;
}

/** "10k-20k", "< 1k", "1M+" → a count range; anything else is left out. */
export function impressionsFrom(text: string | undefined): LinkedinAd['impressions'] {
  if (!text) return undefined;
  const n = (s: string): number | undefined => {
    const m = /^(\d+(?:[.,]\d+)?)\s*([kKmM])?$/.exec(s.trim());
    if (!m) return undefined;
    const v = Number(m[1].replace(',', '.')) * (m[2] ? (m[2].toLowerCase() === 'k' ? 1e3 : 1e6) : 1);
    return Number.isFinite(v) ? Math.round(v) : undefined;
  };
  const t = text.replace(/\s+/g, ' ').trim();
  let m = /^(.+?)\s*[-–]\s*(.+)$/.exec(t);
  if (m) {
    const [min, max] = [n(m[1]), n(m[2])];
    return min !== undefined && max !== undefined ? { min, max } : undefined;
  }
  if ((m = /^(?:<|less than)\s*(.+)$/i.exec(t))) {
    const max = n(m[1]);
    return max !== undefined ? { min: 0, max } : undefined;
  }
  if ((m = /^(.+?)\s*\+$/.exec(t))) {
    const min = n(m[1]);
    return min !== undefined ? { min } : undefined;
  }
  return undefined;
}

/** "France, impressions 72%" and "Belgium, impressions less than 1%" → a region's share (0-1). */
export function regionFrom(label: string | undefined): NonNullable<LinkedinAd['regions']>[number] | undefined {
  const m = label && /^(.{1,100}), impressions (less than )?(\d{1,3}(?:\.\d+)?)\s*%$/i.exec(label.trim());
  if (!m) return undefined;
  const share = Number(m[3]) / 100;
  if (!(share >= 0 && share <= 1)) return undefined;
  return m[2] ? { region: m[1].trim(), share, isUpperBound: true } : { region: m[1].trim(), share };
}

// ---- the creative (a search card or the preview on an ad's page) -------------------------------------------------

const VIDEO_STILLS = tracked('ad_library_ad_preview_video_thumbnail_image');

function videosOf(card: Element): NonNullable<LinkedinAd['videos']> {
  const out: NonNullable<LinkedinAd['videos']> = [];
  for (const e of all(card, withAttr('data-sources'))) {
    const raw = e.attribs['data-sources'];
    let sources: unknown;
    try {
      sources = raw.length <= MAX_SOURCES_JSON ? JSON.parse(raw) : undefined;
    } catch {
      sources = undefined;
    }
    let best: { url: string; bitrate: number } | undefined;
    for (const s of Array.isArray(sources) ? sources : []) {
      const url = absolute(str(obj(s)?.src))?.toString();
      const bitrate = Number(obj(s)?.bitrate) || 0;
      if (url && (!best || bitrate > best.bitrate)) best = { url, bitrate };
    }
    const video = e.name === 'video' ? e : first(e, named('video'));
    const thumbnail = absolute(attr(e, 'data-poster-url') ?? attr(video, 'data-poster-url') ?? attr(video, 'poster'))?.toString();
    if (best || thumbnail) out.push(compact({ url: best?.url, thumbnail }));
  }
  // Search cards show a video's still only, behind a link to the ad.
  if (!out.length) {
    for (const a of all(card, VIDEO_STILLS)) {
      const thumbnail = imageOf(first(a, named('img')));
      if (thumbnail) out.push({ thumbnail });
    }
  }
  return out;
}

const LOGOS = new Set(['advertiser logo', 'member logo']);
const MEDIA_LINKS = tracked('ad_library_ad_preview_content_image', 'ad_library_ad_preview_carousel_item_image', 'ad_library_ad_preview_native_document_image');

function imagesOf(card: Element): NonNullable<LinkedinAd['images']> {
  // A video's still is the video's thumbnail, not an image of the ad.
  const seen = new Set<string>(all(card, VIDEO_STILLS).flatMap((a) => all(a, named('img')).map((img) => imageOf(img) ?? '')));
  const out: NonNullable<LinkedinAd['images']> = [];
  const add = (img: Element) => {
    const url = imageOf(img);
    const alt = attr(img, 'alt');
    if (!url || seen.has(url) || (alt && LOGOS.has(alt.toLowerCase()))) return;
    seen.add(url);
    out.push(compact({ url, alt }));
  };
  for (const img of all(card, both(named('img'), hasClass('ad-preview__dynamic-dimensions-image')))) add(img);
  for (const a of all(card, MEDIA_LINKS)) for (const img of all(a, named('img'))) add(img);
  return out;
}

/** A document ad's title, from the viewer's configuration LinkedIn embeds. */
function documentTitle(card: Element): string | undefined {
  const raw = attr(first(card, withAttr('data-native-document-config')), 'data-native-document-config');
  if (!raw || raw.length > MAX_SOURCES_JSON) return undefined;
  try {
    return str(obj(obj(JSON.parse(raw))?.doc)?.title);
  } catch {
    return undefined;
  }
}

const distinct = (values: (string | undefined)[]): string[] => [...new Set(values.filter((v): v is string => !!v))];

/** The advertiser a card shows: its company link, else the name in its header; "Promoted by X" names the company. */
function advertiserOf(card: Element): NonNullable<LinkedinAd['advertiser']> | undefined {
  const link = first(card, tracked('ad_library_ad_preview_advertiser', 'ad_library_ad_preview_company'));
  let name = lineOf(link) ?? lineOf(first(card, classes('font-bold', 'text-md')));
  const promoted = all(card, (e) => e.name === 'p' || e.name === 'span')
    .map((e) => lineOf(e))
    .find((t) => t && /^promoted by\s+\S/i.test(t));
  if (!name) {
    const label = attr(first(card, hasClass('base-ad-preview-card')) ?? (hasClass('base-ad-preview-card')(card) ? card : undefined), 'aria-label');
    const parts = label?.split(', ') ?? [];
    if (parts.length && /^view details$/i.test(parts[parts.length - 1])) parts.pop();
    if (parts.length > 1 && /\bad$/i.test(parts[parts.length - 1])) parts.pop();
    name = parts.join(', ') || undefined;
  }
  const logo = all(card, named('img')).find((img) => attr(img, 'alt')?.toLowerCase() === 'advertiser logo');
  if (promoted) return compact({ name: promoted.replace(/^promoted by\s+/i, '').trim(), avatar: imageOf(logo) });
  const r = compact({ ...company(link ?? first(card, tracked('ad_library_ad_preview_advertiser_image'))), name, avatar: imageOf(logo) });
  return Object.keys(r).length ? r : undefined;
}

/** The creative of a card or an ad's preview, without its id. */
function creative(card: Element): Omit<LinkedinAd, 'type' | 'id' | 'url'> {
  const preview = hasClass('ad-preview')(card) ? card : first(card, hasClass('ad-preview'));
  const headlines = all(card, hasClass('sponsored-content-headline')).map((h) => lineOf(first(h, named('h2')) ?? h));
  const carouselTitles = all(card, tracked('ad_library_ad_preview_carousel_item_title')).map((e) => lineOf(e));
  const cta = first(card, tracked('ad_library_ad_detail_cta'));
  const linkAnchor =
    first(card, tracked('ad_library_ad_preview_headline_content')) ?? first(card, MEDIA_LINKS) ?? (cta?.name === 'a' ? cta : undefined);
  return compact({
    advertiser: advertiserOf(card),
    bodies: distinct(all(card, (e) => hasClass('commentary__content')(e) || hasClass('sponsored-message__content')(e)).map((e) => blockText(e)?.trim())),
    titles: distinct([...headlines, ...carouselTitles, documentTitle(card)]),
    link: landing(linkAnchor?.attribs.href),
    cta: lineOf(cta),
    images: imagesOf(card),
    videos: videosOf(card),
    format: formatOf(attr(preview, 'data-creative-type'), undefined),
  });
}

// ---- the search page and its fragments ---------------------------------------------------------------------------

/** A 200 page that is LinkedIn's sign-up or login page rather than the one asked for. */
function walled(html: string): boolean {
  const title = /<title[^>]*>([^<]{0,200})</i.exec(html.slice(0, 100_000))?.[1] ?? '';
  return /^\s*(?:sign up|linkedin login|sign in)\b/i.test(title) || /<form[^>]+action="[^"]*\/(?:uas\/)?login-submit/i.test(html.slice(0, 200_000));
}

const wall = () => new QuarryError('sourceRefused', 'linkedin: upstream answered with its sign-in wall');

export interface AdResultsPage {
  ads: LinkedinAd[];
  /** The token of the next page, when LinkedIn says there is one. */
  next?: string;
  /** "2,345 ads match your search criteria" (the search page only). */
  total?: number;
}

/**
 * One page of results: the search page, or a fragment asked with `token`. A card repeating the ad LinkedIn's token
 * names (its first number, the last ad of the page before) and repeated cards are dropped, the same way whichever
 * call reads the page, so `N~token` cursors count the same cards.
 */
export function adResults(html: string, token?: string): AdResultsPage {
  if (walled(html)) throw wall();
  const root = parseHtml(html);
  let cards = all(root, both(named('li'), hasClass('search-result-item')));
  if (!cards.length) cards = all(root, hasClass('ad-preview'));
  const heading = all(root, named('h1')).map((h) => lineOf(h)).find((t) => t && /\bads?\s+match/i.test(t));
  const total = heading ? Number(/^\D*?([\d][\d,.\s]*)\s+ads?\b/i.exec(heading)?.[1]?.replace(/[,.\s]/g, '')) : undefined;
  const meta = obj(codeValue(root, 'paginationMetadata'));
  if (!cards.length && html.includes('/ad-library/detail/')) throw changed('linkedin', 'ad results without the cards they link');
  if (!cards.length && !meta && heading === undefined && !token) throw changed('linkedin', 'ad search page without results, count or paging');
  const skipId = token?.split('-')[0];
  const seen = new Set<string>();
  const ads: LinkedinAd[] = [];
  for (const card of cards.slice(0, MAX_CARDS)) {
    const link = first(card, tracked('ad_library_view_ad_detail')) ?? all(card, named('a')).find((a) => detailId(a.attribs.href));
    const id = detailId(link?.attribs.href);
    if (!id || id === skipId || seen.has(id)) continue;
    seen.add(id);
    ads.push({ type: 'ad', id, url: adUrl(id), ...creative(card) });
  }
  if (cards.length && !seen.size && !(skipId && cards.some((c) => all(c, named('a')).some((a) => detailId(a.attribs.href) === skipId)))) {
    throw changed('linkedin', 'ad cards without a link to their ad');
  }
  let next: string | undefined;
  const raw = str(meta?.paginationToken)?.split('#')[0];
  if (meta && meta.isLastPage !== true && raw && raw !== '0') {
    if (!PAGE_TOKEN.test(raw)) throw changed('linkedin', 'an ad search paging token of another form');
    if (raw !== token) next = raw;
  }
  return { ads, ...(next ? { next } : {}), ...(total !== undefined && Number.isSafeInteger(total) ? { total } : {}) };
}

// ---- an ad's page ----------------------------------------------------------------------------------------------

/** The text a reader sees, leaving out buttons and the hidden list they open ("2 others"). */
function visibleText(e: Element): string {
  const parts: string[] = [];
  const walk = (n: AnyNode): void => {
    if (isText(n)) parts.push(n.data);
    else if (isTag(n) && n.name !== 'button' && !hasClass('ad-targeting__other-segments')(n) && n.name !== 'script') n.children.forEach(walk);
  };
  walk(e);
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/**
 * "Targeting includes France and 2 others" with its hidden list → the values and whether they are excluded. Values
 * are split on commas (", and" included), never on a bare "and": "Research and Development" is one job function.
 */
export function segmentsFrom(e: Element): { names: string[]; isExcluded: boolean } | undefined {
  const m = /^targeting (includes|excludes)\s+(.+)$/i.exec(visibleText(e));
  if (!m) return undefined;
  const hidden = lineOf(first(e, hasClass('ad-targeting__other-segments')));
  const shown = m[2].replace(/,?\s+and$/i, '').split(/\s*,\s*(?:and\s+)?/);
  const values = [...shown, ...(hidden ? hidden.split(/\s*,\s*/) : [])].map((v) => v.trim()).filter((v) => v && v.length <= 200);
  return values.length ? { names: values, isExcluded: m[1].toLowerCase() === 'excludes' } : undefined;
}

function targetingOf(rail: AnyNode): Targeting {
  const locations: NonNullable<Targeting['locations']> = [];
  const segments: NonNullable<Targeting['segments']> = [];
  let category: string | undefined;
  for (const e of all(rail, (x) => x.name === 'h3' || hasClass('ad-targeting__segments')(x))) {
    if (e.name === 'h3') {
      category = lineOf(e);
      continue;
    }
    const found = category ? segmentsFrom(e) : undefined;
    if (!found || !category) continue;
    for (const name of found.names) {
      if (/^locations?$/i.test(category)) locations.push({ name, isExcluded: found.isExcluded });
      else segments.push({ category, name, isExcluded: found.isExcluded });
    }
  }
  const facets = all(rail, named('tr')).flatMap((row) => {
    const cells = all(row, named('td'));
    const name = lineOf(cells[0]);
    if (!name || cells.length < 3) return [];
    const checked = (c: Element) => !!first(c, (x) => x.name === 'li-icon' && x.attribs.type === 'check');
    return [{ category: name, isIncluded: checked(cells[1]), isExcluded: checked(cells[2]) }];
  });
  return compact({ locations, segments, facets });
}

/** "Ran from Jul 17, 2026 to Jul 22, 2026" → the two days (an ad still running has no end). */
function runOf(text: string | undefined): { startedAt?: string; endedAt?: string } {
  const m = text && /^ran from (.+?)(?:\s+to\s+(.+))?$/i.exec(text.trim());
  return m ? compact({ startedAt: dayFromText(m[1], 'mdy'), endedAt: m[2] ? dayFromText(m[2], 'mdy') : undefined }) : {};
}

/** An ad's page: its preview (the creative), "About the ad", the impressions and the targeting. */
export function adRecord(html: string, id: string): LinkedinAdPage {
  if (walled(html)) throw wall();
  const root = parseHtml(html);
  const canonical = attr(first(root, (e) => e.name === 'link' && (e.attribs.rel ?? '').split(/\s+/).includes('canonical')), 'href');
  const named_ = detailId(canonical);
  if (named_ && named_ !== id) throw changed('linkedin', `the page of ad ${id} names ad ${named_}`);
  const left = first(root, hasClass('ad-detail-left-rail')) ?? root;
  const card = first(left, hasClass('ad-preview')) ?? first(left, hasClass('base-ad-preview-card'));
  if (!card) throw changed('linkedin', `the page of ad ${id} without its preview`);
  const rail = first(root, hasClass('ad-detail-right-rail')) ?? root;
  const made = creative(card);
  const about = first(rail, tracked('ad_library_about_ad_advertiser'));
  const advertiser = compact({ ...made.advertiser, ...company(about), ...(lineOf(about) ? { name: lineOf(about) } : {}) });
  const label = all(rail, both(named('p'), hasClass('text-sm'), hasClass('mb-1'))).map((p) => lineOf(p)).find((t) => t && /\bad$/i.test(t));
  const totalRow = all(rail, classes('flex', 'justify-between')).find((d) => /^total impressions$/i.test(lineOf(first(d, named('p'))) ?? ''));
  const totalText = totalRow ? lineOf(all(totalRow, named('p')).at(-1)) : undefined;
  const preview = hasClass('ad-preview')(card) ? card : first(card, hasClass('ad-preview'));
  return compact({
    type: 'ad' as const,
    id,
    url: adUrl(id),
    ...made,
    advertiser: { ...advertiser, name: needName(advertiser.name, id) },
    paidBy: lineOf(first(rail, hasClass('about-ad__paying-entity')))?.replace(/^paid for by\s*/i, '') || undefined,
    format: formatOf(attr(preview, 'data-creative-type'), label),
    ...runOf(lineOf(first(rail, hasClass('about-ad__availability-duration')))),
    impressions: impressionsFrom(totalText),
    regions: all(rail, hasClass('ad-analytics__country-impressions')).flatMap((e) => regionFrom(attr(e, 'aria-label')) ?? []),
    targeting: targetingOf(rail),
  });
}

function needName(name: string | undefined, id: string): string {
  if (!name) throw changed('linkedin', `the page of ad ${id} names no advertiser`);
  return name;
}
