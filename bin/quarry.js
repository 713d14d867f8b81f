#!/usr/bin/env node
// The operator CLI entry (`npx quarry …`). Builds dist/ first when the sources changed since the last build (e.g. right
// after a clone or a pull), so the CLI never runs stale code.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../scripts/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
try {
  build(root, { quiet: true });
} catch {
  process.stderr.write('quarry: the build failed (tsc printed why above)\n');
  process.exit(1);
}
await import(join(root, 'dist', 'cli', 'main.js'));
