/**
 * Recordings of the marketplaces whose sidecar gives no exact request (a page saved from a browser, a URL with a
 * note in it) are served by route at the address the source asks; their origin comes from the sidecar itself.
 */
import { readFileSync } from 'node:fs';
import type { ReplayRoute, Seen } from '../../test/helpers/replay.js';
import { UPSTREAM_DIR } from '../../test/helpers/replay.js';

/**
 * A route serving the recording `file` (path under ../shared/upstream) at `host` + `path` (+ query); `firstPageOnly`
 * leaves requests naming a page (`page`, `_pgn`) unanswered, since the recording is one page.
 */
export function recordingRoute(host: string, path: string | RegExp, file: string, query?: Record<string, string>, firstPageOnly = true): ReplayRoute {
  return {
    host, path, file, ...(query ? { query } : {}), headers: { 'content-type': 'text/html; charset=utf-8' },
    ...(firstPageOnly ? { match: (s: Seen) => !s.query.has('page') && !s.query.has('_pgn') } : {}),
  };
}

/** The origin (repository, commit, path, licence) of each recording, read from its sidecar. */
export function originsOf(files: string[]): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    files.map((file) => {
      const sidecar = JSON.parse(readFileSync(`${UPSTREAM_DIR}${file.replace(/\.html(?:\.gz)?$|\.json$/, '')}.request.json`, 'utf8'));
      const o = sidecar.origin ?? sidecar.source ?? {};
      return [file, { repository: o.repo ?? o.repository, commit: o.commit, path: o.path, licence: o.licence }];
    }),
  );
}
