/**
 * Answers written from a platform's documentation or public page shape (test/fixtures/documented/<source>/), for
 * upstreams with no recording in ../shared/upstream. Each file has an `.about.json` sidecar saying what it was
 * written from; tests and samples serve them as replay routes, and their samples say so in `_provenance.note`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../test/fixtures/documented/', import.meta.url));

/** The body of a documented answer, as text. */
export function documented(source: string, name: string): string {
  return readFileSync(`${dir}${source}/${name}`, 'utf8');
}

/** What the sidecar says the answer was written from. */
export function writtenFrom(source: string, name: string): string {
  const about = JSON.parse(readFileSync(`${dir}${source}/${name.split('.')[0]}.about.json`, 'utf8')) as { written_from: string };
  return about.written_from;
}
