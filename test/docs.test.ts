/**
 * Issue 38.1: the README and docs/ say nothing about what this server serves that is not so. The served-sources list
 * in the README and docs/api.md are written by `npm run docs` (scripts/docs.ts) from the registry and catalogue; this
 * test fails when either names a source this build does not serve or an endpoint the catalogue does not declare (or
 * marks one wrongly), and warns when sources landed since the last `npm run docs`: a source landing must not fail
 * everyone's run, but nothing may be claimed that is not served.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVED_BEGIN, SERVED_END, fullCatalogue, servedBySource } from '../scripts/docs.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const api = fs.readFileSync(path.join(ROOT, 'docs', 'api.md'), 'utf8');
const catalogue = fullCatalogue();
const served = servedBySource(catalogue);

describe('README: what this server serves', () => {
  const a = readme.indexOf(SERVED_BEGIN);
  const b = readme.indexOf(SERVED_END);
  const block = readme.slice(a, b);
  const rows = [...block.matchAll(/^\| `([a-z0-9]+)` \| (.+) \|$/gm)].map((m) => ({ source: m[1], ops: [...m[2].matchAll(/`([^`]+)`/g)].map((o) => o[1]) }));

  it('has the generated block, on the first screen after the quick start', () => {
    expect(a).toBeGreaterThan(readme.indexOf('## Quick start'));
    expect(b).toBeGreaterThan(a);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('names only sources and operations this build serves', () => {
    for (const row of rows) {
      const list = served.get(row.source);
      expect(list, `README lists ${row.source}, which this build does not serve`).toBeDefined();
      const ids = new Set(list!.map((e) => e.def.id));
      for (const op of row.ops) expect(ids.has(`${row.source}.${op}`), `README lists ${row.source}.${op}, which is not served`).toBe(true);
    }
  });

  it('is complete, or says what `npm run docs` would add', () => {
    const listed = new Set(rows.flatMap((r) => r.ops.map((op) => `${r.source}.${op}`)));
    const missing = [...served.values()].flat().map((e) => e.def.id).filter((id) => !listed.has(id));
    if (missing.length) console.warn(`README's served list misses ${missing.length} served endpoints (${missing.slice(0, 8).join(', ')}…): run npm run docs`);
    expect(listed.size).toBeGreaterThan(0);
  });
});

describe('docs/api.md', () => {
  const headings = [...api.matchAll(/^### `([a-z0-9.]+)` — /gm)].map((m) => m[1]);

  it('documents only declared endpoints, and marks served and unserved ones as this build has them', () => {
    expect(headings.length).toBeGreaterThan(0);
    for (const id of headings) {
      const e = catalogue.get(id);
      expect(e, `docs/api.md documents ${id}, which the catalogue does not declare`).toBeDefined();
      const section = api.slice(api.indexOf(`### \`${id}\` — `)).split('\n### ')[0];
      expect(section.includes('not served by this build'), `${id}: served mark`).toBe(e!.unavailable !== undefined);
      expect(section).toContain(`\`POST ${e!.path}\``);
    }
    const undocumented = catalogue.endpoints.map((e) => e.def.id).filter((id) => !headings.includes(id));
    if (undocumented.length) console.warn(`docs/api.md misses ${undocumented.length} endpoints (${undocumented.slice(0, 8).join(', ')}…): run npm run docs`);
  });

  it('every docs/ page the README links to exists', () => {
    for (const m of readme.matchAll(/\]\((docs\/[a-z0-9-]+\.md)\)/g)) expect(fs.existsSync(path.join(ROOT, m[1])), m[1]).toBe(true);
  });
});
