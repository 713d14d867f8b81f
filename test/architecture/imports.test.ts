/**
 * The import graph of src/ against the declared layers (.dependency-cruiser.cjs): no module imports a layer above
 * its own, none takes part in a cycle, every module sits in a layer, and the README lists the same layers.
 * Measured by dependency-cruiser, type-only imports included.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { cruise, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs');
const layers: { name: string; paths: string[] }[] = config.layers;

let violations: IViolation[];
let modules: string[];

beforeAll(async () => {
  const { forbidden, options } = config;
  const result = await cruise(['src'], { ...options, ruleSet: { forbidden }, validate: true }, undefined, { tsConfig: extractTSConfig('tsconfig.json') });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text, not a result');
  violations = result.output.summary.violations;
  modules = result.output.modules.map((m) => m.source);
}, 60_000);

const named = (v: IViolation) => `${v.rule.name} ${v.from} → ${v.to}`;

describe('the import graph of src/', () => {
  it('has no upward import and no cycle', () => {
    const detail = violations.map((v) => `${named(v)}${v.cycle ? `\n    cycle: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}` : ''}`);
    expect(detail, `violations (layers lowest first: ${layers.map((l) => l.name).join(' → ')})`).toEqual([]);
  });

  it('places every module in a declared layer', () => {
    expect(modules.length).toBeGreaterThan(100);
    const inLayer = (m: string) => layers.some((l) => l.paths.some((p) => new RegExp(`^(?:${p})`).test(m)));
    expect(modules.filter((m) => m.startsWith('src/') && !inLayer(m))).toEqual([]);
  });

  it('matches the layers the README lists', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const block = /<!-- layers:start -->\n([\s\S]*?)<!-- layers:end -->/.exec(readme)?.[1] ?? '';
    const listed = [...block.matchAll(/^\d+\. \*\*([\w-]+)\*\*: ([^—\n]+?) —/gm)].map((m) => ({ name: m[1], folders: m[2].match(/`[^`]+`/g) ?? [] }));
    const declared = layers.map((l) => ({ name: l.name, folders: l.paths.map((p) => `\`${p.replace(/\\\./g, '.').replace(/\$$/, '')}\``) }));
    expect(listed).toEqual(declared);
  });
});
