/**
 * What callers may name: a job, a company, a profile, by id, slug or LinkedIn address. Anything else is the
 * caller's mistake (400 naming the field), never a request upstream.
 */
import { QuarryError } from '../../errors.js';

export const WEB = 'https://www.linkedin.com';

const bad = (field: string, what: string) => new QuarryError('invalidRequest', `${field}: ${what}`, { retryable: false });

/** A LinkedIn address (any country subdomain), or undefined when `ref` is not one. */
function linkedinUrl(ref: string): URL | undefined {
  const raw = ref.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : /^(?:[a-z0-9-]+\.)*linkedin\.com\//i.test(raw) ? `https://${raw}` : undefined;
  if (!withScheme || !URL.canParse(withScheme)) return undefined;
  const url = new URL(withScheme);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return /(?:^|\.)linkedin\.com$/i.test(url.hostname) ? url : undefined;
}

/** A job posting id from digits or any job address (`/jobs/view/slug-123/`, `?currentJobId=123`). */
export function jobId(ref: string): string {
  const raw = ref.trim();
  if (/^\d{1,20}$/.test(raw)) return raw;
  const url = linkedinUrl(raw);
  if (!url) throw bad('job', 'give a LinkedIn job id (digits) or a linkedin.com job address');
  const current = url.searchParams.get('currentJobId');
  if (current && /^\d{1,20}$/.test(current)) return current;
  const m = /\/jobs\/view\/(?:[^/]*?-)?(\d{1,20})\/?$/.exec(url.pathname) ?? /\/jobPosting\/(\d{1,20})\/?$/.exec(url.pathname);
  if (!m) throw bad('job', 'no job id in that address');
  return m[1];
}

const SLUG = /^[A-Za-z0-9%_.~-]{1,200}$/;

function slugOf(ref: string, field: string, kind: 'company' | 'in'): string {
  const raw = ref.trim().replace(/\/+$/, '');
  if (SLUG.test(raw) && !raw.includes('..')) return raw;
  const url = linkedinUrl(raw);
  const m = url && new RegExp(`^/${kind}/([^/?#]+)`).exec(url.pathname);
  if (!m || !SLUG.test(m[1]) || m[1].includes('..')) {
    throw bad(field, kind === 'company' ? 'give a company slug, id or linkedin.com/company/… address' : 'give a profile slug or linkedin.com/in/… address');
  }
  return m[1];
}

/** A company's slug (or numeric id) from a slug, id or `/company/…` address. */
export const companySlug = (ref: string): string => slugOf(ref, 'company', 'company');
/** A member's slug from a slug or `/in/…` address. */
export const profileSlug = (ref: string): string => slugOf(ref, 'profile', 'in');

export const companyUrl = (slug: string): string => `${WEB}/company/${slug}/`;
export const profileUrl = (slug: string): string => `${WEB}/in/${slug}/`;
export const jobUrl = (id: string): string => `${WEB}/jobs/view/${id}/`;

/**
 * A public post's address and activity id, when `href` is one: `/posts/{slug}-activity-{id}-…` or
 * `/feed/update/urn:li:activity:{id}`. Query strings (tracking) are dropped; the host is always www.
 */
export function postRef(href: string): { id: string; url: string } | undefined {
  const url = linkedinUrl(href.startsWith('/') ? `${WEB}${href}` : href);
  if (!url) return undefined;
  const posts = /^\/posts\/([^/?#]+-activity-(\d{10,25})[^/?#]*)\/?$/.exec(url.pathname);
  if (posts) return { id: posts[2], url: `${WEB}/posts/${posts[1]}/` };
  const feed = /^\/feed\/update\/urn:li:(?:activity|share|ugcPost):(\d{10,25})\/?$/.exec(decodeURIComponent(url.pathname));
  if (feed) return { id: feed[1], url: `${WEB}/feed/update/urn:li:activity:${feed[1]}/` };
  return undefined;
}

/** The same page on www (cards link to country subdomains such as ch.linkedin.com), without tracking queries. */
export function canonical(href: string | undefined): string | undefined {
  const url = href ? linkedinUrl(href) : undefined;
  if (!url) return undefined;
  return `${WEB}${url.pathname}`;
}

/** An Ad Library ad's id from its digits or its page (`/ad-library/detail/{id}`, any country subdomain). */
export function adId(ref: string): string {
  const raw = ref.trim();
  if (/^\d{1,20}$/.test(raw)) return raw;
  const url = linkedinUrl(raw);
  const m = url && /^\/ad-library\/detail\/(\d{1,20})\/?$/.exec(url.pathname);
  if (!m) throw bad('ad', 'give a LinkedIn Ad Library id (digits) or a linkedin.com/ad-library/detail/… address');
  return m[1];
}

export const adUrl = (id: string): string => `${WEB}/ad-library/detail/${id}`;
