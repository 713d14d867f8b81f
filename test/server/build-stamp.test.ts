/**
 * Issue 38.2: `npm start` builds only when the sources changed (scripts/build.mjs). The digest of what a build
 * reads moves when a source is edited, added or removed, and dist/ counts as up to date only with the digest of
 * the sources as they are.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module without types (it runs before anything is compiled)
import { sourcesDigest, upToDate } from '../../scripts/build.mjs';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-build-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

describe('scripts/build.mjs', () => {
  it('counts dist/ up to date only while the sources stay as they were built', () => {
    write('src/a.ts', 'export const a = 1;\n');
    write('tsconfig.json', '{}');
    expect(upToDate(root)).toBe(false); // nothing built yet
    write('dist/server/main.js', '');
    write('dist/cli/main.js', '');
    write('dist/.build-stamp', `${sourcesDigest(root)}\n`);
    expect(upToDate(root)).toBe(true);

    const before = sourcesDigest(root);
    write('src/a.ts', 'export const a = 2;\n'); // edited (size and time)
    expect(sourcesDigest(root)).not.toBe(before);
    expect(upToDate(root)).toBe(false);

    write('dist/.build-stamp', `${sourcesDigest(root)}\n`);
    write('src/dashboard/app.js', '');
    expect(upToDate(root)).toBe(false); // added
    write('dist/.build-stamp', `${sourcesDigest(root)}\n`);
    fs.rmSync(path.join(root, 'src/dashboard/app.js'));
    expect(upToDate(root)).toBe(false); // removed
  });
});
