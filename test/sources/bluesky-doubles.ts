/**
 * The replay double for bluesky. The recordings of ../shared/upstream/bluesky were made against the PDS entryway
 * bsky.social with a signed-in account; the same app.bsky.* lexicon is what the keyless AppView public.api.bsky.app
 * serves (viewer state aside), so each recording also answers its request on the AppView, by route. Signed-in post
 * search is asked of bsky.social itself, where the sidecar answers it. createSession is not recorded: its answer is
 * written from the lexicon (test/fixtures/documented/bluesky/), and so are the XRPC error answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { documented } from '../../scripts/samples/documented.js';
import { UPSTREAM_DIR, loadRecordings, type ReplayOptions, type ReplayRoute } from '../helpers/replay.js';

export const APPVIEW = 'public.api.bsky.app';
export const ENTRYWAY = 'bsky.social';
const json = { 'content-type': 'application/json; charset=utf-8' };

/** Every recording (but the signed-in search) answering its own request on the AppView. */
function onAppview(): ReplayRoute[] {
  return loadRecordings('bluesky')
    .filter((r) => !r.path.endsWith('/app.bsky.feed.searchPosts'))
    .map((r) => ({ host: APPVIEW, path: r.path, query: Object.fromEntries(r.query), file: r.name, name: r.name }));
}

/** An XRPC error answer, as the AppView and PDS write them (`{error, message}`), written from the lexicon. */
export const xrpcError = (status: number, error: string, message: string): Pick<ReplayRoute, 'status' | 'text' | 'headers'> => ({
  status,
  text: JSON.stringify({ error, message }),
  headers: json,
});

/** The documented createSession answer (test/fixtures/documented/bluesky/create-session.json). */
export const SESSION = documented('bluesky', 'create-session.json');
export const ACCESS_JWT = (JSON.parse(SESSION) as { accessJwt: string }).accessJwt;

export const sessionRoute: ReplayRoute = {
  method: 'POST',
  host: ENTRYWAY,
  path: '/xrpc/com.atproto.server.createSession',
  text: SESSION,
  headers: json,
  name: 'documented: bluesky/create-session.json',
};

/** The account the session routes accept (what the samples and tests configure). */
export const SETTINGS = { HANDLE: 'quarry-test.bsky.social', APP_PASSWORD: 'aaaa-bbbb-cccc-dddd' };

/**
 * Every recording is a first page. A request for a later page (a `cursor`) is not one of them: the double answers it
 * 404 and lists it as a miss, rather than the first page again (recordings match requests carrying extra fields).
 */
const laterPages = (host: string): ReplayRoute => ({
  host,
  path: /^\/xrpc\//,
  match: (s) => s.query.has('cursor'),
  status: 404,
  text: '{"replay":"the page after a recorded one was not recorded"}',
  headers: json,
  name: 'unrecorded later page',
});

export const blueskyReplay = (routes: ReplayRoute[] = []): ReplayOptions => ({
  folders: ['bluesky'],
  routes: [...routes, laterPages(APPVIEW), laterPages(ENTRYWAY), sessionRoute, ...onAppview()],
});

/** The recorded body of a recording, parsed (for expectations). */
export const recorded = (name: string): any => JSON.parse(readFileSync(path.join(UPSTREAM_DIR, 'bluesky', name), 'utf8'));

export const BSKY_HOSTS = [APPVIEW, ENTRYWAY];
