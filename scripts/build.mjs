#!/usr/bin/env node
// Builds dist/ with tsc only when the sources changed since the last build (issue 38.2: `npm start` rebuilt for 14 s
// every time). What a build depends on (every file under src/, the tsconfig files, package-lock.json) is summed up by
// path, size and modification time; the sum of the last good build is kept in dist/.build-stamp. `--force` builds
// anyway. Used by `npm start`, `npm run build`, `npm ci` (prepare) and bin/quarry.js.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(ROOT, 'dist', '.build-stamp');
const ENTRIES = ['dist/server/main.js', 'dist/cli/main.js'];

function walk(dir, out) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/** A digest of what the build reads: changes when any source is added, removed, edited or touched. */
export function sourcesDigest(root = ROOT) {
  const files = walk(path.join(root, 'src'), []);
  for (const f of ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) if (fs.existsSync(path.join(root, f))) files.push(path.join(root, f));
  const h = createHash('sha256');
  for (const f of files.sort()) {
    const s = fs.statSync(f);
    h.update(`${path.relative(root, f)}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return h.digest('hex');
}

/** True when dist/ was built from the sources as they are now. */
export function upToDate(root = ROOT) {
  if (!ENTRIES.every((e) => fs.existsSync(path.join(root, e)))) return false;
  try {
    return fs.readFileSync(path.join(root, 'dist', '.build-stamp'), 'utf8').trim() === sourcesDigest(root);
  } catch {
    return false;
  }
}

export function build(root = ROOT, { force = false, quiet = false } = {}) {
  if (!force && upToDate(root)) return false;
  // An install without dev dependencies (npm ci --omit=dev, the container image) runs the dist/ it was shipped with.
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  if (!fs.existsSync(tsc) && ENTRIES.every((e) => fs.existsSync(path.join(root, e)))) return false;
  const digest = sourcesDigest(root); // taken before compiling: an edit made meanwhile triggers the next build
  if (!quiet) process.stderr.write('quarry: building dist/ (the sources changed since the last build)…\n');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  fs.writeFileSync(path.join(root, 'dist', '.build-stamp'), digest + '\n');
  return true;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  try {
    build(ROOT, { force: process.argv.includes('--force'), quiet: process.argv.includes('--quiet') });
  } catch {
    process.stderr.write('quarry: the build failed (tsc printed why above)\n');
    process.exit(1);
  }
}
