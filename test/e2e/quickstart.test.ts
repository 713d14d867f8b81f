/**
 * Issue 38, "How it must be shown": the README's quick start, walked as written. Its shell block runs in bash against
 * a real gateway on loopback (`npx quarry` is the CLI from source on the gateway's data; `localhost:8080` is the
 * gateway's address); then headless Chromium (Debian's, driven by playwright-core) opens `/`, lands on the sign-in,
 * signs in with the login the quick start made, and reads the request log: the test-mode call, the live one and the
 * mistake, then the mistake's detail. Screenshots at desktop size and 375 px go to test-results/screenshots/.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
const TSX = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')).href;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 375, height: 812 };

/** The quick start's second shell block: the one a newcomer runs in a second terminal. */
export function quickStartScript(readme: string): string {
  const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks.length, 'the quick start has its two shell blocks').toBeGreaterThanOrEqual(2);
  return blocks[1];
}

function runBash(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!HAVE_CHROMIUM)("the README's quick start, then the request log in the dashboard", () => {
  let gw: TestGateway;
  let browser: Browser;
  let run: { code: number | null; stdout: string; stderr: string };
  const pageProblems: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    gw = await startGateway();
    const script = quickStartScript(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const host = new URL(gw.url).host;
    const prelude = [
      'set -euo pipefail',
      // `npx quarry` as after `npm ci`: the CLI, here from source.
      `npx() { if [ "$1" = quarry ]; then shift; node --import ${TSX} ${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))} "$@"; else command npx "$@"; fi; }`,
    ].join('\n');
    const env: NodeJS.ProcessEnv = { ...process.env, QUARRY_DATA_DIR: gw.dataDir, QUARRY_CONFIG_DIR: path.join(gw.dataDir, 'config'), QUARRY_LOG_LEVEL: 'silent' };
    // On PostgreSQL the gateway helper exported its schema and its QUARRY_SECRET, which the CLI then needs.
    if (!process.env.QUARRY_TEST_DATABASE_URL) delete env.QUARRY_SECRET;
    run = await runBash(`${prelude}\n${script.replaceAll('localhost:8080', host)}`, env);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('runs as written: keys captured, a sample answer marked as one, a live answer, a mistake explained', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^quarry-test-mode: sample\r?$/im);
    expect(run.stdout).toContain('"posts":[');
    expect(run.stdout, run.stdout).toMatch(/"markdown":"# Hello\\n\\nfrom Quarry/);
    expect(run.stdout).toContain('"code":"invalidRequest"');
    expect(run.stdout).toContain('subforum: is required | limt: unknown field');
    expect(run.stdout).toMatch(/person usr_\S+ <you@example\.com>/);
    expect(run.stderr).toMatch(/account acct_\S+ with 1000 credits/);
  });

  async function newPage(viewport: typeof DESKTOP, storage?: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<Page> {
    const context = await browser.newContext({ viewport, storageState: storage, locale: 'en-GB', timezoneId: 'UTC' });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    page.on('pageerror', (e) => pageProblems.push(e.message));
    return page;
  }

  async function shots(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `${name}-desktop.png`), fullPage: true });
    const phone = await newPage(PHONE, await page.context().storageState());
    await phone.goto(page.url());
    await phone.locator('h1').first().waitFor();
    await phone.waitForLoadState('networkidle');
    await phone.screenshot({ path: path.join(SHOTS, `${name}-phone.png`), fullPage: true });
    // At 375 px nothing is wider than the screen.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await phone.context().close();
  }

  it('/ leads to sign-in; the request log lists the three calls, the mistake with its error; its detail says why', async () => {
    const page = await newPage(DESKTOP);
    await page.goto(`${gw.url}/`);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/signin');
    await page.getByLabel('E-mail').fill('you@example.com');
    await page.getByLabel('Password', { exact: true }).fill('choose a long passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('heading', { level: 1, name: 'Requests' }).waitFor();
    const rows = page.locator('table.table-requests tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain('400');
    expect(texts[0]).toContain('invalidRequest');
    expect(texts[1]).toContain('web.parse');
    expect(texts[2]).toContain('reddit.subforum');
    expect(texts[2]).toContain('test');
    await shots(page, 'quickstart-requests');

    await page.getByLabel('Outcome').selectOption('failed');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().locator('a').click();
    await page.getByRole('heading', { level: 1, name: /POST reddit\.subforum/ }).waitFor();
    const detail = await page.locator('dl.dl').textContent();
    expect(detail).toContain('invalidRequest');
    expect(detail).toContain('subforum: is required');
    expect(detail).toMatch(/Duration\d[\d,]* ms/);
    expect(await page.locator('main .page').textContent()).not.toMatch(/\bnull\b|undefined/);
    await shots(page, 'quickstart-request-detail');

    await page.goto(`${gw.url}/billing`);
    await page.getByRole('heading', { level: 1, name: 'Credits' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'quickstart-billing-desktop.png'), fullPage: true });
    expect(pageProblems).toEqual([]);
    await page.context().close();
  }, 90_000);
});
