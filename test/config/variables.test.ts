/**
 * Issue 37.4: one configuration. Every variable the configuration reads (src/config.ts) and every setting a source
 * declares (QUARRY_<SOURCE>_<NAME>) is a row of the README's configuration table, every row names one of them, no
 * other module reads the environment for a setting, and a bad value stops the real server's start, naming the
 * variable.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkSourceSettings, CLI_VARIABLES, ConfigError, configVariables, loadConfig, sourceSettings, sourceVariable } from '../../src/config.js';
import { SOURCES } from '../../src/sources/registry.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The README's table: each row's first cell names one variable or several. */
function tableVariables(): string[] {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = /^## Configuration\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('| `'));
  return rows.flatMap((row) => row.split('|')[1].match(/`[A-Z][A-Z0-9_]*`/g) ?? []).map((v) => v.slice(1, -1));
}

const declared = (): string[] => [
  ...configVariables(),
  ...CLI_VARIABLES,
  ...SOURCES.flatMap((s) => (s.needs?.settings ?? []).map((d) => sourceVariable(s.id, d.name))),
];

/** QUARRY_<SOURCE>_PROXY: every source's own outbound proxy, documented by example. */
const isSourceProxy = (name: string) => SOURCES.some((s) => name === sourceVariable(s.id, 'PROXY'));

/** Names in src/ that look like variables and are not: shell variables `--export` prints, an error code, a word a PDF table broke (parse/pdf/tables.ts). */
const NOT_VARIABLES = new Set(['QUARRY_ACCOUNT', 'QUARRY_KEY', 'QUARRY_TEST_KEY', 'QUARRY_SECRET_MISSING', 'QUARRY_BILLING_UR']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('the configuration and the README table', () => {
  it('every variable read or declared is a row of the table', () => {
    const rows = new Set(tableVariables());
    expect(rows.size).toBeGreaterThan(50);
    expect(declared().filter((v) => !rows.has(v))).toEqual([]);
  });

  it('every row names a variable that is read or declared', () => {
    const known = new Set(declared());
    expect(tableVariables().filter((v) => !known.has(v) && !isSourceProxy(v))).toEqual([]);
  });

  it('every variable named in src/ is declared (so documented)', () => {
    const known = new Set(declared());
    const named = new Set<string>();
    for (const file of sourceFiles(path.join(ROOT, 'src'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bQUARRY_[A-Z0-9_]*[A-Z0-9]\b/g)) named.add(m[0]);
    }
    expect([...named].filter((v) => !known.has(v) && !isSourceProxy(v) && !NOT_VARIABLES.has(v)).sort()).toEqual([]);
  });

  it('nothing but the configuration reads the environment for a setting', () => {
    // The CLI's client side (where `quarry login` keeps its key, which data directory to open) and the server's entry
    // point, which hands the environment to loadConfig, are the only other readers.
    const allowed = [/^src\/config\.ts$/, /^src\/config\//, /^src\/cli\//, /^src\/lib\/data-dir\.ts$/, /^src\/server\/main\.ts$/];
    const readers = sourceFiles(path.join(ROOT, 'src'))
      .map((f) => path.relative(ROOT, f))
      .filter((f) => /process\.env\b/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')) && !allowed.some((a) => a.test(f)));
    expect(readers).toEqual([]);
  });
});

describe('bad values', () => {
  it('a gateway variable: loadConfig throws, naming it', () => {
    for (const [name, value] of [
      ['QUARRY_SESSION_IDLE_MINUTES', 'soon'],
      ['QUARRY_PARSE_WORKERS', '0'],
      ['QUARRY_PASSWORD_SCRYPT_LOG2N', '30'],
      ['QUARRY_RATE_LIMIT_PER_MINUTE', '1.5'],
    ]) {
      expect(() => loadConfig({ [name]: value }), name).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value }), name).toThrow(new RegExp(`^${name} must be an integer`));
    }
  });

  it("a source's declared integer setting: the start-up check throws, naming it", () => {
    const config = loadConfig({ QUARRY_EMAIL_SMTP_TIMEOUT_MS: '8s' });
    expect(() => checkSourceSettings(config, SOURCES)).toThrow(/^QUARRY_EMAIL_SMTP_TIMEOUT_MS must be an integer/);
    expect(() => checkSourceSettings(loadConfig({ QUARRY_SITE_TIME_BUDGET_MS: '999' }), SOURCES)).toThrow(/QUARRY_SITE_TIME_BUDGET_MS/);
    expect(() => checkSourceSettings(loadConfig({ QUARRY_EMAIL_SMTP_TIMEOUT_MS: '8000', QUARRY_SITE_TIME_BUDGET_MS: '1000' }), SOURCES)).not.toThrow();
  });

  it('a source reads only what it declares', () => {
    const config = loadConfig({ QUARRY_REDDIT_CLIENT_ID: 'id', QUARRY_REDDIT_OTHER: 'x' });
    const reddit = SOURCES.find((s) => s.id === 'reddit')!;
    const settings = sourceSettings(config, 'reddit', reddit.needs?.settings);
    expect(settings.CLIENT_ID).toBe('id');
    expect(settings.PROXY).toBeUndefined();
    expect(() => settings.OTHER).toThrow(/QUARRY_REDDIT_OTHER, which its needs.settings does not declare/);
  });

  it('stops the real server before it listens, with one sentence naming the variable', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-config-'));
    const start = (env: Record<string, string>) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: ROOT, env: { ...process.env, QUARRY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...env }, timeout: 60_000 }, (err, _stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
        );
      });
    try {
      const [gateway, source] = await Promise.all([start({ QUARRY_CLI_LOGIN_CALLS_PER_MINUTE: 'many' }), start({ QUARRY_WEB_CONTACTS_BUDGET_MS: '-1' })]);
      expect(gateway.code).toBe(1);
      expect(gateway.stderr).toBe('quarry: could not start: QUARRY_CLI_LOGIN_CALLS_PER_MINUTE must be an integer of at least 1, got "many"\n');
      expect(source.code).toBe(1);
      expect(source.stderr).toBe('quarry: could not start: QUARRY_WEB_CONTACTS_BUDGET_MS must be an integer of at least 100, got "-1"\n');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
