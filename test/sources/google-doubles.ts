/**
 * The replay double for google (the Ads Transparency Center): nothing is recorded in shared/upstream, so every answer is
 * written from the documented interface (test/fixtures/documented/google/, each .about.json says from what) and
 * served by route, picked by the form field `f.req` the client posts.
 */
import { documented } from '../../scripts/samples/documented.js';
import type { ReplayOptions, ReplayRoute, Seen } from '../helpers/replay.js';

export const ATC_HOST = 'adstransparency.google.com';
export const PAGE2_TOKEN = 'CgoIARIGCAEQARgBEgkIARABGAEgASgB';
export const ADVERTISER = 'AR01000000000000000001';
const json = { 'content-type': 'application/json; charset=utf-8' };

/** The JSON a request posted in `f.req`. */
export function freq(s: Seen): any {
  try {
    return JSON.parse(new URLSearchParams(typeof s.body === 'string' ? s.body : '').get('f.req') ?? 'null');
  } catch {
    return null;
  }
}

const doc = (name: string, path: string, when: (req: any) => boolean = () => true): ReplayRoute => ({
  method: 'POST',
  host: ATC_HOST,
  path: `/anji/_/rpc/${path}`,
  match: (s) => when(freq(s)),
  text: documented('google', name),
  headers: json,
  name: `documented: google/${name}`,
});

const ROUTES: ReplayRoute[] = [
  doc('creatives.page2.json', 'SearchService/SearchCreatives', (r) => r?.['4'] === PAGE2_TOKEN),
  doc('creatives.page1.json', 'SearchService/SearchCreatives', (r) => r?.['3']?.['12']?.['1'] === 'example.com' || r?.['3']?.['13']?.['1']?.[0] === ADVERTISER),
  doc('creatives.empty.json', 'SearchService/SearchCreatives'),
  doc('creative.json', 'LookupService/GetCreativeById', (r) => r?.['2'] === 'CR00000000000000000001'),
  { method: 'POST', host: ATC_HOST, path: '/anji/_/rpc/LookupService/GetCreativeById', text: '{}', headers: json, name: 'documented: an empty answer' },
  doc('suggestions.json', 'SearchService/SearchSuggestions'),
];

/** Test routes first: a wall or a refusal a test sets up wins over the documented answers. */
export const googleReplay = (routes: ReplayRoute[] = []): ReplayOptions => ({ folders: [], routes: [...routes, ...ROUTES] });
