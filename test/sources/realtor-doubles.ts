/**
 * The replay set-up of the realtor source. No Realtor.com answer is recorded: every answer is a documented-shape
 * double (test/fixtures/documented/realtor/, written from the interface HomeHarvest uses; not recordings), plus the
 * refusal shapes: Akamai's "Access Denied" page and a GraphQL error.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/realtor/', import.meta.url));
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
const JSON_TYPE = { 'content-type': 'application/json' };

export const AKAMAI_WALL =
  '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\nYou don\'t have permission to access this server.<P>\nReference&#32;&#35;18&#46;5f3c1d17&#46;1700000000&#46;1a2b3c\n</BODY>\n</HTML>\n';

const body = (s: Seen) => (s.body ?? {}) as { query?: string; variables?: Record<string, unknown> };
const gql = (name: string, match: (s: Seen) => boolean): ReplayRoute => ({
  method: 'POST',
  host: 'www.realtor.com',
  path: '/api/v1/rdc_search_srp',
  query: { client_id: 'rdc-search-new-communities', schema: 'vesta' },
  file: file(name),
  headers: JSON_TYPE,
  match,
});
const suggest = (input: string, name: string): ReplayRoute => ({
  method: 'GET',
  host: 'parser-external.geo.moveaws.com',
  path: '/suggest',
  query: { input },
  file: file(name),
  headers: JSON_TYPE,
});

export const REALTOR_ROUTES: ReplayRoute[] = [
  suggest('Austin, TX', 'suggest.austin.json'),
  suggest('101 Example St, Austin, TX 78704', 'suggest.address.json'),
  suggest('Nowhere', 'suggest.none.json'),
  { method: 'GET', host: 'parser-external.geo.moveaws.com', path: '/suggest', query: { input: 'walled' }, status: 403, text: AKAMAI_WALL, headers: { 'content-type': 'text/html' } },
  gql('home_search.address.json', (s) => String(body(s).query).includes('Property_search')),
  gql('home_search.page1.json', (s) => String(body(s).query).includes('home_search') && body(s).variables?.offset === 0),
  gql('home_search.page2.json', (s) => String(body(s).query).includes('home_search') && body(s).variables?.offset === 3),
  gql('home.9876543210.json', (s) => body(s).variables?.property_id === '9876543210'),
  gql('home.unknown.json', (s) => body(s).variables?.property_id === '1111111111'),
  gql('graphql-errors.json', (s) => body(s).variables?.property_id === '2222222222'),
];

export const realtorReplay = (): ReplayOptions => ({ folders: [], routes: REALTOR_ROUTES });
export const REALTOR_HOSTS = ['www.realtor.com', 'parser-external.geo.moveaws.com'];
