/**
 * `npm run docs`: writes what the README and docs/ say about the catalogue from the catalogue itself (issue 38.1),
 * so nothing about what this server serves is written by hand:
 *
 * - README.md, between `<!-- served-sources:begin -->` and `<!-- served-sources:end -->`: the sources this build
 *   serves, each with its operations;
 * - docs/api.md: the API reference, every endpoint with its price, cache lifetime, fields and example.
 *
 * `test/docs.test.ts` checks that neither names anything this build does not serve or declare. Run it after adding a
 * source (docs/adding-a-source.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Catalogue, type CatalogueEndpoint } from '../src/catalogue/catalogue.js';
import { ENDPOINTS } from '../src/catalogue/endpoints/index.js';
import type { JsonSchema } from '../src/catalogue/types.js';
import { notBuiltReason } from '../src/sources/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVED_BEGIN = '<!-- served-sources:begin (npm run docs writes this list from the registry) -->';
export const SERVED_END = '<!-- served-sources:end -->';

/** The catalogue as a server with every source enabled sees it. */
export function fullCatalogue(): Catalogue {
  return new Catalogue(ENDPOINTS, notBuiltReason);
}

/** Served endpoints grouped by source, in declaration order. */
export function servedBySource(catalogue = fullCatalogue()): Map<string, CatalogueEndpoint[]> {
  const out = new Map<string, CatalogueEndpoint[]>();
  for (const e of catalogue.endpoints) {
    if (e.unavailable !== undefined) continue;
    if (!out.has(e.source)) out.set(e.source, []);
    out.get(e.source)!.push(e);
  }
  return out;
}

const operationOf = (e: CatalogueEndpoint) => e.def.id.slice(e.source.length + 1);

export function servedBlock(catalogue = fullCatalogue()): string {
  const served = servedBySource(catalogue);
  const endpoints = [...served.values()].reduce((n, l) => n + l.length, 0);
  const rows = [...served].map(([source, list]) => `| \`${source}\` | ${list.map((e) => `\`${operationOf(e)}\``).join(', ')} |`);
  const missing = catalogue.endpoints.filter((e) => e.unavailable !== undefined).length;
  return [
    SERVED_BEGIN,
    `${served.size} sources, ${endpoints} endpoints${missing ? ` (${missing} more declared, not built yet)` : ''}. Each is \`POST /v1/<source>/<operation>\`;`,
    'prices, fields and examples are in [docs/api.md](docs/api.md), `GET /v1/catalogue` and the dashboard\'s Catalogue.',
    'Some need an operator setting (a key or a cookie) before they answer live: `GET /v1/sources` says which.',
    '',
    '| source | operations |',
    '|---|---|',
    ...rows,
    SERVED_END,
  ].join('\n');
}

export function withServedBlock(readme: string, block = servedBlock()): string {
  const a = readme.indexOf(SERVED_BEGIN);
  const b = readme.indexOf(SERVED_END);
  if (a < 0 || b < a) throw new Error('README.md has no served-sources markers');
  return readme.slice(0, a) + block + readme.slice(b + SERVED_END.length);
}

// ---------------------------------------------------------------- docs/api.md

function typeOf(s: JsonSchema): string {
  const x = s as Record<string, unknown>;
  if (Array.isArray(x.enum)) return (x.enum as unknown[]).map((v) => `\`${String(v)}\``).join(', ');
  if (x.type === 'array') {
    const items = (x.items ?? {}) as JsonSchema;
    return `array of ${typeOf(items)}${x.maxItems !== undefined ? `, at most ${String(x.maxItems)}` : ''}`;
  }
  const bounds: string[] = [];
  if (x.minimum !== undefined) bounds.push(`≥ ${String(x.minimum)}`);
  if (x.maximum !== undefined) bounds.push(`≤ ${String(x.maximum)}`);
  if (x.minLength !== undefined || x.maxLength !== undefined) bounds.push(`${String(x.minLength ?? 0)}-${String(x.maxLength ?? '…')} chars`);
  if (x.format) bounds.push(String(x.format));
  const t = Array.isArray(x.type) ? (x.type as string[]).join(' or ') : String(x.type ?? 'any');
  return bounds.length ? `${t} (${bounds.join(', ')})` : t;
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function fieldsTable(e: CatalogueEndpoint): string {
  const input = e.def.input as { properties: Record<string, JsonSchema>; required?: string[] };
  const required = new Set(input.required ?? []);
  const rows = Object.entries(input.properties).map(([name, s]) => {
    const x = s as Record<string, unknown>;
    const def = x.default === undefined ? '' : `\`${JSON.stringify(x.default)}\``;
    return `| \`${name}\` | ${required.has(name) ? 'yes' : ''} | ${cell(typeOf(s))} | ${def} | ${cell(String(x.description ?? ''))} |`;
  });
  return ['| field | required | type | default | notes |', '|---|---|---|---|---|', ...rows].join('\n');
}

function price(e: CatalogueEndpoint): string {
  const d = e.def;
  const per = d.perItems ? ` per ${d.perItems} results` : '';
  return `${d.credits} credit${d.credits === 1 ? '' : 's'}${per}${d.keyless ? '; keyless (per-address limits)' : ''}; cached ${d.cacheTtlSeconds} s`;
}

export function apiReference(catalogue = fullCatalogue()): string {
  const out: string[] = [
    '# API reference',
    '',
    '*Generated from the catalogue by `npm run docs` (scripts/docs.ts); do not edit by hand. A running server answers the',
    'same from `GET /v1/catalogue` and `GET /openapi.json`, for exactly what it serves (`QUARRY_SOURCES` may leave',
    'sources out).*',
    '',
    'Every endpoint is `POST` with a JSON body and `Authorization: Bearer <key>` (keyless ones may omit it), and',
    'answers `{"success": true, "data": …, "creditsUsed": n, "requestId": "…"}` or an error envelope',
    '(`{"success": false, "error": {"code", "message", "retryable", …}}`). Common to all: `maxAge` (seconds, up to the',
    'cache lifetime; `0` asks the source), `tags` (up to 10 labels for logs and usage), the query parameter',
    '`maxTextLength`, `Accept: text/markdown`, `Idempotency-Key` and `Cache-Control` (only-if-cached,',
    'stale-if-error). Failed calls are never billed; cache hits are billed like live calls. Test-mode keys',
    '(`qry_test_…`) answer from recorded samples (header `Quarry-Test-Mode: sample`) and spend nothing.',
    '',
  ];
  const bySource = new Map<string, CatalogueEndpoint[]>();
  for (const e of catalogue.listed()) {
    if (!bySource.has(e.source)) bySource.set(e.source, []);
    bySource.get(e.source)!.push(e);
  }
  out.push('## Sources', '', [...bySource.keys()].map((s) => `[${s}](#${s})`).join(' · '), '');
  for (const [source, list] of bySource) {
    out.push(`## ${source}`, '');
    for (const e of list) {
      out.push(`### \`${e.def.id}\` — ${e.def.title}`, '');
      out.push(`\`POST ${e.path}\` · ${price(e)}${e.unavailable ? ` · **not served by this build**: ${e.unavailableReason ?? ''}` : ''}`, '');
      out.push(e.def.summary, '');
      out.push(fieldsTable(e), '');
      if (e.def.example) out.push('Example body:', '', '```json', JSON.stringify(e.def.example), '```', '');
    }
  }
  return out.join('\n');
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const readmePath = path.join(ROOT, 'README.md');
  fs.writeFileSync(readmePath, withServedBlock(fs.readFileSync(readmePath, 'utf8')));
  fs.writeFileSync(path.join(ROOT, 'docs', 'api.md'), apiReference());
  const served = servedBySource();
  console.log(`README.md: ${served.size} sources served; docs/api.md: ${fullCatalogue().endpoints.length} endpoints`);
}
