/**
 * The layers of src/, lowest first: a module may import its own layer and the layers below it, never one above, and
 * no module may take part in an import cycle. The README's architecture section lists the same layers;
 * test/architecture/imports.test.ts runs these rules on every `npm test`, and `npx depcruise src` runs them by hand.
 * Type-only imports count: they tie the modules as much as any other.
 */
const LAYERS = [
  { name: 'foundation', paths: ['src/lib/', 'src/errors\\.ts$'] },
  { name: 'config', paths: ['src/config\\.ts$', 'src/config/'] },
  { name: 'openapi', paths: ['src/openapi/'] },
  { name: 'catalogue', paths: ['src/catalogue/'] },
  { name: 'services', paths: ['src/budgets/', 'src/render/', 'src/upstream/', 'src/parse/', 'src/health/'] },
  { name: 'storage', paths: ['src/store/', 'src/limits/'] },
  { name: 'domain', paths: ['src/identity/', 'src/sources/'] },
  { name: 'http', paths: ['src/http/'] },
  { name: 'pipeline', paths: ['src/pipeline/'] },
  { name: 'transports', paths: ['src/mcp/', 'src/legacy/'] },
  { name: 'entry', paths: ['src/server/', 'src/cli/'] },
];

const pattern = (paths) => `^(?:${paths.join('|')})`;

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `upward-from-${layer.name}`,
  comment: `${layer.name} imports nothing of the layers above it (${LAYERS.slice(i + 1).map((l) => l.name).join(', ')})`,
  severity: 'error',
  from: { path: pattern(layer.paths) },
  to: { path: pattern(LAYERS.slice(i + 1).flatMap((l) => l.paths)) },
}));

module.exports = {
  forbidden: [
    { name: 'no-cycle', comment: 'no module takes part in an import cycle', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'outside-the-layers',
      comment: 'every module of src/ belongs to a declared layer',
      severity: 'error',
      from: { path: '^src/', pathNot: pattern(LAYERS.flatMap((l) => l.paths)) },
      to: {},
    },
    ...upward,
  ],
  options: {
    includeOnly: '^src/',
    exclude: { path: '^src/dashboard/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};

// For the test and the README check; not enumerable, since dependency-cruiser refuses keys it does not know.
Object.defineProperty(module.exports, 'layers', { value: LAYERS });
