/**
 * How Quarry serves the dashboard's static files (src/server/routes/dashboard.ts), over real HTTP: the fixed list of
 * files, content types, the security headers, revalidation, the SPA fallback for deep links, and that nothing else
 * is reachable. Also checks the files themselves fit the CSP (no inline code or styles, no external addresses).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, DASHBOARD_FILES, dashboardDir } from '../../src/server/routes/dashboard.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';

const DIR = dashboardDir();
const read = (name: string) => fs.readFileSync(path.join(DIR, name), 'utf8');

describe('dashboard files', () => {
  it('lists every file of src/dashboard, and only those', () => {
    expect([...DASHBOARD_FILES].sort()).toEqual(fs.readdirSync(DIR).sort());
  });

  it('imports only listed modules', () => {
    for (const name of DASHBOARD_FILES.filter((f) => f.endsWith('.js'))) {
      for (const m of read(name).matchAll(/\bfrom\s+'([^']+)'/g)) {
        expect(m[1], `${name} imports ${m[1]}`).toMatch(/^\.\/[a-z-]+\.js$/);
        expect(DASHBOARD_FILES as readonly string[], `${name} imports ${m[1]}`).toContain(m[1].slice(2));
      }
    }
  });

  it('has no inline script or style, no innerHTML, and asks for nothing outside the server', () => {
    const html = read('index.html');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style/);
    for (const name of DASHBOARD_FILES) {
      const text = read(name);
      expect(text, name).not.toMatch(/\bstyle=/);
      expect(text, name).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
      expect(text, name).not.toMatch(/@import|url\(\s*['"]?https?:/);
      // The only absolute address allowed is the SVG namespace, which is a name, never fetched.
      const urls = [...text.matchAll(/https?:\/\/[^\s'"`)<>]+/g)].map((m) => m[0]);
      expect(urls.filter((u) => u !== 'http://www.w3.org/2000/svg'), name).toEqual([]);
    }
  });
});

describe('serving /dashboard/', () => {
  let g: TestGateway;
  beforeAll(async () => {
    g = await startGateway();
  });
  afterAll(async () => {
    await g.close();
  });

  const fetchRaw = (p: string, init: RequestInit = {}) => fetch(`${g.url}${p}`, { redirect: 'manual', ...init });

  it('serves the page with the security headers and revalidation', async () => {
    const res = await fetchRaw('/dashboard/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toBe(
      "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(await res.text()).toBe(read('index.html'));

    const again = await fetchRaw('/dashboard/', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves each listed file with its content type', async () => {
    for (const [name, type] of [
      ['styles.css', 'text/css; charset=utf-8'],
      ['app.js', 'text/javascript; charset=utf-8'],
      ['chart.js', 'text/javascript; charset=utf-8'],
    ]) {
      const res = await fetchRaw(`/dashboard/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toBe(read(name));
    }
    const head = await fetchRaw('/dashboard/app.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers deep links with the page (the app routes them) and redirects /dashboard to /dashboard/', async () => {
    for (const p of ['/dashboard/keys', '/dashboard/logs/', '/dashboard/cli/cli_AbCdEfGhIjKlMnOpQrSt-_09']) {
      const res = await fetchRaw(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    }
    const bare = await fetchRaw('/dashboard?invite=ABCD');
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/dashboard/?invite=ABCD');
  });

  it('never serves anything outside the list', async () => {
    for (const p of [
      '/dashboard/missing.js',
      '/dashboard/../package.json',
      '/dashboard/%2e%2e/%2e%2e/package.json',
      '/dashboard/..%2f..%2fpackage.json',
      '/dashboard/app.js%00.html',
      '/dashboard/APP.JS',
      '/dashboard/.env',
      '/dashboard/cli/a.b',
    ]) {
      const res = await fetchRaw(p);
      expect(res.status, p).toBe(404);
      const body = await res.json();
      expect(body.success, p).toBe(false);
      expect(body.error.code, p).toBe('notFound');
    }
  });
});
