/**
 * The replay set-up of the upwork source. No Upwork answer is recorded: every answer is a documented-shape double
 * (test/fixtures/documented/upwork/, written from the visitor GraphQL interface public clients use; not recordings),
 * plus the refusal shapes: Cloudflare's challenge and a refused token.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/upwork/', import.meta.url));
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
const JSON_TYPE = { 'content-type': 'application/json' };
const HOST = 'www.upwork.com';
export const VISITOR_TOKEN = 'oauth2v2_0a1b2c3d4e5f60718293a4b5c6d7e8f9';

const vars = (s: Seen): any => ((s.body ?? {}) as any).variables ?? {};
const rv = (s: Seen): any => vars(s).requestVariables ?? {};
const gql = (name: string, match: (s: Seen) => boolean, o: Partial<ReplayRoute> = {}): ReplayRoute => ({ method: 'POST', host: HOST, path: '/api/graphql/v1', file: file(name), headers: JSON_TYPE, match, ...o });

export const UPWORK_ROUTES: ReplayRoute[] = [
  {
    method: 'GET',
    host: HOST,
    path: '/',
    text: '<!DOCTYPE html><html><head><title>Upwork</title></head><body></body></html>',
    headers: { 'content-type': 'text/html', 'set-cookie': `visitor_gql_token=${VISITOR_TOKEN}; Path=/; Domain=.upwork.com; Expires=Fri, 27 Nov 2026 10:00:00 GMT; Secure` },
  },
  gql('unauthenticated.json', (s) => s.headers.authorization === 'Bearer oauth2v2_revoked', { status: 401 }),
  {
    method: 'POST',
    host: HOST,
    path: '/api/graphql/v1',
    status: 403,
    headers: { 'content-type': 'text/html' },
    text: '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={cType:\'managed\'};</script></body></html>',
    match: (s) => rv(s).userQuery === 'walled',
  },
  gql('search.offset3.json', (s) => rv(s).paging?.offset === 3),
  gql('search.offset0.json', (s) => rv(s).paging?.offset === 0),
  gql('job.01a1b2c3d4e5f6a7b8.json', (s) => vars(s).id === '~01a1b2c3d4e5f6a7b8'),
  gql('job.unknown.json', (s) => vars(s).id === '~0100000000000000000'),
];

export const upworkReplay = (): ReplayOptions => ({ folders: [], routes: UPWORK_ROUTES });
export const UPWORK_HOSTS = [HOST];
