/**
 * What callers name TikTok things by: an account (`illojuan`, `@illojuan`, its address), a video (its id, its
 * address, a vm.tiktok.com short link) and this source's cursors. Bad input is the caller's 400, naming the field.
 */
import { QuarryError } from '../../errors.js';

const invalid = (field: string, why: string) => new QuarryError('invalidRequest', `${field}: ${why}`);
const HANDLE = /^[A-Za-z0-9._]{1,24}$/;

function urlOf(value: string): URL | undefined {
  if (!/^(?:https?:\/\/)?(?:[a-z0-9-]+\.)*tiktok\.com\//i.test(value)) return undefined;
  return new URL(/^https?:/i.test(value) ? value : `https://${value}`);
}

export function usernameOf(input: string): string {
  const value = input.trim();
  const url = urlOf(value);
  const name = url ? (/^\/@([^/]+)/.exec(url.pathname)?.[1] ?? '') : value.replace(/^@/, '');
  if (!HANDLE.test(name)) throw invalid('profile', 'a TikTok username (1-24 letters, digits, . or _), @handle or profile address');
  return name;
}

export interface VideoRef {
  id?: string;
  username?: string;
  /** A short link to follow first (vm.tiktok.com, vt.tiktok.com). */
  shortLink?: string;
}

export function videoOf(input: string): VideoRef {
  const value = input.trim();
  if (/^[0-9]{10,25}$/.test(value)) return { id: value };
  const url = urlOf(value);
  if (!url) throw invalid('video', 'a TikTok video id or address');
  if (/^v[mt]\.tiktok\.com$/i.test(url.hostname)) return { shortLink: `https://${url.hostname.toLowerCase()}${url.pathname}` };
  const m = /^\/@([A-Za-z0-9._]{1,24})\/(?:video|photo)\/([0-9]{10,25})\/?$/.exec(url.pathname) ?? /^\/(?:@\/)?(?:video|v)\/([0-9]{10,25})/.exec(url.pathname);
  if (!m) throw invalid('video', 'a TikTok video address (…/@user/video/ID)');
  return m.length === 3 ? { username: m[1], id: m[2] } : { id: m[1] };
}

/** An account's list cursor: its secUid and TikTok's own cursor. */
export function postsCursor(cursor: string): { secUid: string; cursor: string } {
  const i = cursor.lastIndexOf(':');
  return { secUid: cursor.slice(0, i), cursor: cursor.slice(i + 1) };
}

/** An ad library ad: its id, and the library region its address names (for the ad's address). */
export function adOf(input: string): { id: string; region?: string } {
  const value = input.trim();
  if (/^[0-9]{6,25}$/.test(value)) return { id: value };
  const url = /^(?:https?:\/\/)?library\.tiktok\.com\//i.test(value) ? new URL(/^https?:/i.test(value) ? value : `https://${value}`) : undefined;
  const id = url?.searchParams.get('ad_id');
  if (!url || !/^\/ads\/detail\/?$/.test(url.pathname) || !id || !/^[0-9]{6,25}$/.test(id)) {
    throw invalid('ad', 'a TikTok ad library id or address (library.tiktok.com/ads/detail/?ad_id=…)');
  }
  const region = url.searchParams.get('region');
  return region && /^[A-Za-z]{2}$/.test(region) ? { id, region: region.toUpperCase() } : { id };
}
