/**
 * domain.technologies' committed data, built from ../shared/upstream:
 * 1. src/sources/domain/technologies/retire-scripts.json: the script-address rules (`extractors.uri` and
 *    `extractors.filename`) of Retire.js's jsrepository.json (Apache-2.0, so a derived subset may be redistributed
 *    with the licence and a statement of changes, both carried in the file and in retire-scripts.LICENSE), turned into
 *    our fingerprint format. Content, hash and function extractors and every vulnerability entry are left out.
 * 2. src/sources/domain/samples/technologies.json: a real recorded page (site/pages) through the live operation
 *    against the replay double. Called from scripts/make-samples.ts.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseFingerprintFile, type FingerprintSet } from '../../src/sources/domain/technologies/fingerprints.js';
import { unsafeReason } from '../../src/sources/domain/technologies/safe-regex.js';
import loadedRetire from '../../src/sources/domain/technologies/retire-scripts.json' with { type: 'json' };
import { startBrokenDns } from '../../test/sources/technologies-doubles.js';
import { recordSamples, type SampleCase } from './kit.js';
import { ORIGINS, TDA } from './openweb.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const upstream = `${repo}../shared/upstream/`;
const RETIRE_FILE = 'domain/technologies/retirejs-jsrepository.json';
const RETIRE_ORIGIN = {
  repository: 'RetireJS/retire.js',
  commit: 'fd8df0d6f1da46d4bc0446321395fcf708619e07',
  path: 'repository/jsrepository.json',
  licence: 'Apache-2.0',
};

/** Retire.js keys → the names our own set uses, so one technology is reported once. */
const NAMES: Record<string, string> = {
  jquery: 'jQuery',
  'jquery-migrate': 'jQuery Migrate',
  'jquery-ui': 'jQuery UI',
  'jquery-mobile': 'jQuery Mobile',
  'jquery-validation': 'jQuery Validation',
  'jquery.datatables': 'DataTables',
  react: 'React',
  'react-dom': 'React',
  vue: 'Vue.js',
  angularjs: 'AngularJS',
  '@angular/core': 'Angular',
  nextjs: 'Next.js',
  svelte: 'Svelte',
  alpinejs: 'Alpine.js',
  bootstrap: 'Bootstrap',
  lodash: 'Lodash',
  'moment.js': 'Moment.js',
  'underscore.js': 'Underscore.js',
  'backbone.js': 'Backbone.js',
  ember: 'Ember.js',
  knockout: 'Knockout',
  handlebars: 'Handlebars',
  'mustache.js': 'Mustache',
  dojo: 'Dojo',
  prototypejs: 'Prototype',
  mootools: 'MooTools',
  'chart.js': 'Chart.js',
  d3: 'D3',
  threejs: 'Three.js',
  highcharts: 'Highcharts',
  echarts: 'ECharts',
  'video.js': 'Video.js',
  swiper: 'Swiper',
  select2: 'Select2',
  tinyMCE: 'TinyMCE',
  ckeditor: 'CKEditor',
  ckeditor5: 'CKEditor',
  axios: 'Axios',
  mathjax: 'MathJax',
  'pdf.js': 'PDF.js',
  highlightjs: 'highlight.js',
  marked: 'Marked',
  quill: 'Quill',
  ExtJS: 'Ext JS',
  YUI: 'YUI',
};
const SKIP = new Set(['retire-example', 'dont check']);
/** Retire.js's `§§version§§` placeholder, as a bounded version: 1.2.3, 4.0.0-rc1, 2.1.0-beta.2. */
const VERSION = String.raw`\d{1,4}(?:\.\d{1,6}){0,3}(?:-[0-9a-z]{1,12}(?:\.\d{1,4})?)?`;
const HOLE = '\u0000';

/** Every capturing group becomes non-capturing except the version, so the version is the first capture group. */
function convert(pattern: string, kind: 'uri' | 'filename'): string {
  let p = pattern.replaceAll('(§§version§§)', HOLE).replaceAll('§§version§§', VERSION);
  let out = '';
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      out += c + (p[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' && p[i + 1] !== '?') {
      out += '(?:';
      continue;
    }
    out += c;
  }
  p = out.replaceAll(HOLE, `(${VERSION})`);
  // A file name starts a path segment.
  if (kind === 'filename') p = `/${p.replace(/^\^/, '').replace(/^\//, '')}`;
  return p;
}

export function deriveRetireScripts(): { technologies: number; patterns: number; dropped: string[] } {
  const repository = JSON.parse(readFileSync(`${upstream}${RETIRE_FILE}`, 'utf8')) as Record<
    string,
    { extractors?: { uri?: string[]; filename?: string[] } }
  >;
  const technologies: FingerprintSet = {};
  const dropped: string[] = [];
  let patterns = 0;
  for (const [key, lib] of Object.entries(repository)) {
    if (SKIP.has(key)) continue;
    const list = [
      ...(lib.extractors?.uri ?? []).map((p) => convert(p, 'uri')),
      ...(lib.extractors?.filename ?? []).map((p) => convert(p, 'filename')),
    ];
    const safe = list.filter((p) => {
      const reason = unsafeReason(p);
      if (reason) dropped.push(`${key}: ${reason}: ${p}`);
      return !reason;
    });
    if (!safe.length) continue;
    const name = NAMES[key] ?? key;
    const existing = technologies[name]?.scriptSrc ?? [];
    const scriptSrc = [...new Set([...(existing as string[]), ...safe])];
    patterns += scriptSrc.length - existing.length;
    technologies[name] = { category: 'JavaScript libraries', scriptSrc };
  }
  const out = {
    _licence:
      'Derived from Retire.js (https://github.com/RetireJS/retire.js), Copyright the Retire.js contributors, licensed under the ' +
      'Apache License 2.0 (see retire-scripts.LICENSE). Changes: only the `uri` and `filename` extractors are kept; ' +
      '§§version§§ is replaced by a bounded version pattern, other capturing groups made non-capturing, file names ' +
      'anchored at a path segment, libraries renamed to Quarry names; vulnerability data and other extractors removed.',
    _origin: RETIRE_ORIGIN,
    technologies: Object.fromEntries(Object.entries(technologies).sort(([a], [b]) => a.localeCompare(b))),
  };
  parseFingerprintFile(out, 'retire-scripts.json');
  const dir = `${repo}src/sources/domain/technologies/`;
  writeFileSync(`${dir}retire-scripts.json`, `${JSON.stringify(out, null, 1)}\n`);
  // The Apache License 2.0 text, which a redistribution must carry (TypeScript ships the unmodified text).
  copyFileSync(`${repo}node_modules/typescript/LICENSE.txt`, `${dir}retire-scripts.LICENSE`);
  return { technologies: Object.keys(technologies).length, patterns, dropped };
}

/**
 * The sample: the live domain.technologies path against the replay double, serving the recorded page at its
 * address. Only the page body was recorded: no header, cookie or DNS evidence, so the DNS double answers SERVFAIL and
 * the record says dnsChecked false.
 */
export function technologiesCase(dnsServer: string): SampleCase {
  return {
    endpoint: 'domain.technologies',
    replay: { folders: [], routes: [{ host: new URL(TDA.url).host, path: new URL(TDA.url).pathname, file: TDA.file }] },
    settings: { DNS_SERVERS: dnsServer },
    pages: [{ domain: TDA.url }],
    origins: ORIGINS,
    note:
      "Produced by the live domain.technologies path (src/sources/domain/technologies: the kit fetcher, signals and matcher) " +
      'against the replay double from a real recorded page (scripts/samples/technologies.ts). Only the page body was ' +
      'recorded, so there is no header, cookie or DNS evidence (the DNS double fails every question) and dnsChecked is ' +
      'false. Test data only.',
  };
}

export async function technologiesSample(): Promise<void> {
  // The matcher's sets were imported when this process started: a Retire subset rewritten just now is not in them.
  const loaded = JSON.stringify(loadedRetire);
  const onDisk = JSON.stringify(JSON.parse(readFileSync(`${repo}src/sources/domain/technologies/retire-scripts.json`, 'utf8')));
  if (loaded !== onDisk) throw new Error('retire-scripts.json changed in this run: run scripts/make-samples.ts once more for the technologies sample');
  const dns = await startBrokenDns();
  try {
    const target = await recordSamples(technologiesCase(dns.server));
    console.log(`wrote technologies sample: ${target}`);
  } finally {
    await dns.close();
  }
}

/** The one call scripts/make-samples.ts makes. */
export async function technologies(): Promise<void> {
  const r = deriveRetireScripts();
  console.log(`wrote retire-scripts.json: ${r.technologies} libraries, ${r.patterns} patterns, ${r.dropped.length} dropped`);
  for (const d of r.dropped) console.log(`  dropped ${d}`);
  await technologiesSample();
}
