/**
 * The replay set-up of the glassdoor source. No Glassdoor answer is recorded: every answer is a documented-shape
 * double (test/fixtures/documented/glassdoor/, written from the interfaces JobSpy and scrapfly-scrapers use; not
 * recordings), plus the refusal shapes: Cloudflare's challenge (HTTP 403) and a GraphQL error.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/glassdoor/', import.meta.url));
export const documentedFile = (name: string) => `${DOCUMENTED}${name}`;
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
const HOST = 'www.glassdoor.com';
export const PAGE2_CURSOR = 'AB4AAYEAHgAAAAAAAAAAAAAAAhk3Y2kAAwAAAQAA';

const vars = (s: Seen): any => (Array.isArray(s.body) ? (s.body[0] as any)?.variables : undefined) ?? {};
const bff = (s: Seen): any => (s.body ?? {}) as any;
const get = (p: string | RegExp, name: string, o: Partial<ReplayRoute> = {}): ReplayRoute => ({ method: 'GET', host: HOST, path: p, file: file(name), headers: HTML, ...o });

export const GLASSDOOR_ROUTES: ReplayRoute[] = [
  get('/Job/computer-science-jobs.htm', 'job-page.html'),
  get('/findPopularLocationAjax.htm', 'location.austin.json', { query: { term: 'Austin, TX' }, headers: JSON_TYPE }),
  get('/findPopularLocationAjax.htm', 'location.none.json', { query: { term: 'Nowhere' }, headers: JSON_TYPE }),
  { method: 'POST', host: HOST, path: '/graph', status: 403, file: file('cloudflare-challenge.html'), headers: HTML, match: (s) => vars(s).keyword === 'walled' },
  { method: 'POST', host: HOST, path: '/graph', file: file('graph.errors.json'), headers: JSON_TYPE, match: (s) => vars(s).keyword === 'schema drift' },
  { method: 'POST', host: HOST, path: '/graph', file: file('graph.jobs.page2.json'), headers: JSON_TYPE, match: (s) => vars(s).pageNumber === 2 && vars(s).pageCursor === PAGE2_CURSOR },
  { method: 'POST', host: HOST, path: '/graph', file: file('graph.jobs.page1.json'), headers: JSON_TYPE, match: (s) => vars(s).pageNumber === 1 },
  get('/Overview/W-EI_IE1000001.htm', 'overview.1000001.html'),
  { method: 'GET', host: HOST, path: '/Overview/W-EI_IE9.htm', status: 404, text: '<html><title>Page not found | Glassdoor</title></html>', headers: HTML },
  get('/Reviews/W-Reviews-E1000001.htm', 'reviews-page.1000001.html'),
  { method: 'POST', host: HOST, path: '/bff/employer-profile-mono/employer-reviews', file: file('bff.reviews.page2.json'), headers: JSON_TYPE, match: (s) => bff(s).page === 2 },
  { method: 'POST', host: HOST, path: '/bff/employer-profile-mono/employer-reviews', file: file('bff.reviews.page1.json'), headers: JSON_TYPE, match: (s) => bff(s).page === 1 },
  get('/Salary/W-Salaries-E1000001.htm', 'salaries.1000001.html'),
  get('/Salary/W-Salaries-E1000001_P2.htm', 'salaries.1000001.p2.html'),
];

export const glassdoorReplay = (): ReplayOptions => ({ folders: [], routes: GLASSDOOR_ROUTES });
export const GLASSDOOR_HOSTS = [HOST];
