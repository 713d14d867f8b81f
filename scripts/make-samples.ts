/**
 * Builds the committed, normalised samples from the recorded upstream answers in ../shared/upstream.
 * Run: npx tsx scripts/make-samples.ts. Samples hold normalised records only, never raw recordings.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normaliseListing, normaliseSubforum } from '../src/sources/reddit/normalise.js';

const repo = fileURLToPath(new URL('../', import.meta.url));
const forum = `${repo}../shared/upstream/forum/`;
if (!existsSync(forum)) {
  console.error(`recordings not found at ${forum}; nothing written`);
  process.exit(1);
}

const read = (name: string): unknown => JSON.parse(readFileSync(`${forum}${name}`, 'utf8'));

/** Origin of a recording, from its request sidecar. */
function origin(name: string): Record<string, unknown> {
  const side = read(name.replace(/\.json$/, '.request.json')) as {
    source: { repository: string; commit: string; path: string; licence: string };
    request: { url?: string; url_pattern?: string };
  };
  return {
    recording: `shared/upstream/forum/${name}`,
    repository: side.source.repository,
    commit: side.source.commit,
    path: side.source.path,
    licence: side.source.licence,
    request: side.request.url ?? side.request.url_pattern,
  };
}

function redditSubforum(): void {
  const files = { listing: 'listing-popular-hot.json', about: 'subreddit-about-golang.json', rules: 'subreddit-rules-fitness.json' };
  const page = normaliseListing(read(files.listing));
  const about = (read(files.about) as { data: unknown }).data;
  const subforum = normaliseSubforum(about, read(files.rules));
  const out = {
    _provenance: {
      note:
        'Normalised by src/sources/reddit/normalise.ts from real recorded answers (scripts/make-samples.ts). ' +
        'Posts come from r/popular; the subforum record joins r/golang about with r/Fitness rules, so the ' +
        'three parts do not describe one subreddit. Content belongs to Reddit and its users; test data only.',
      sources: Object.values(files).map(origin),
    },
    data: { posts: page.posts, subforum, ...(page.cursor ? { cursor: page.cursor } : {}) },
  };
  const target = `${repo}src/sources/reddit/samples/subforum.json`;
  writeFileSync(target, `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote ${target}: ${page.posts.length} posts, cursor ${page.cursor ?? '(none)'}`);
}

redditSubforum();
