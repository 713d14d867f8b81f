/**
 * The account dashboard: a fixed list of static files under src/dashboard, read once at start and served from
 * memory at /dashboard/. Any other path under /dashboard/ without a file extension is a page of the single-page app
 * (a deep link such as /dashboard/keys or /dashboard/cli/{sessionId}) and gets index.html.
 *
 * The files are served from the source tree (src/dashboard) both under tsx and from dist/: there is no build step
 * for them, so a build (npm run build, or bin/quarry.js's own tsc run) can never leave a stale copy behind.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QuarryError } from '../../errors.js';
import { sendError } from '../../http/reply.js';

/** Every file the dashboard serves. Nothing else under the directory is ever read or served. */
export const DASHBOARD_FILES = [
  'index.html',
  'styles.css',
  'app.js',
  'api.js',
  'ui.js',
  'chart.js',
  'icons.js',
  'page-auth.js',
  'page-overview.js',
  'page-keys.js',
  'page-usage.js',
  'page-logs.js',
  'page-requests.js',
  'page-catalogue.js',
  'page-mcp.js',
  'page-budgets.js',
  'page-account.js',
  'page-cli.js',
] as const;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export const DASHBOARD_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/** src/dashboard seen from src/server/routes (tsx, vitest) or from dist/server/routes (npm start). */
export function dashboardDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '..', '..', 'dashboard'), path.resolve(here, '..', '..', '..', 'src', 'dashboard')];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html')));
  if (!found) throw new Error(`dashboard files not found (looked in ${candidates.join(', ')}); the checkout is incomplete`);
  return found;
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of DASHBOARD_FILES) {
    const body = fs.readFileSync(path.join(dir, name));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { body, type: CONTENT_TYPES[path.extname(name)], etag });
  }
  return assets;
}

function securityHeaders(reply: FastifyReply): void {
  reply.headers({
    'Content-Security-Policy': DASHBOARD_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  securityHeaders(reply);
  // File names carry no content hash, so browsers revalidate every time and get 304 while nothing changed.
  reply.header('Cache-Control', 'no-cache');
  reply.header('ETag', asset.etag);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  reply.header('content-type', asset.type);
  return reply.send(asset.body);
}

export function registerDashboardRoutes(app: FastifyInstance, dir = dashboardDir()): void {
  const assets = loadAssets(dir);
  const index = assets.get('index.html')!;

  app.get('/dashboard', async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/dashboard/${query}`, 308);
  });
  app.get('/dashboard/', async (request, reply) => sendAsset(request, reply, index));
  app.get('/dashboard/*', async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    const asset = assets.get(rest);
    if (asset) return sendAsset(request, reply, asset);
    // A page of the app: letters, digits and -_/ only, no extension. Anything else (a missing asset, dots,
    // encoded separators) is a 404, never a file-system lookup.
    if (/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/?$/.test(rest)) return sendAsset(request, reply, index);
    securityHeaders(reply);
    return sendError(reply, new QuarryError('notFound', 'No such dashboard file.'), request.id);
  });
}
