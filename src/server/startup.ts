/**
 * What a person starting the server reads (issue 38.2): a short banner when stdout is a terminal (where the API, the
 * dashboard and the docs are, and the next command), and any start-up failure as one sentence saying what to do,
 * instead of a stack trace.
 */
import type { Config } from '../config.js';

/** The address people type: the public base address, else localhost for a wildcard listen. */
export function publicBase(config: Config): string {
  return config.baseUrl;
}

export function startupBanner(config: Config): string {
  const base = publicBase(config);
  const storage = config.databaseUrl ? 'PostgreSQL (QUARRY_DATABASE_URL)' : `${config.dataDir} (SQLite)`;
  return [
    '',
    '  Quarry is running.',
    '',
    `  API        ${base}/v1/…          (every endpoint: ${base}/v1/catalogue)`,
    `  Dashboard  ${base}/dashboard/`,
    `  Docs       ${base}/openapi.json    (and docs/ in this folder)`,
    `  Data       ${storage}`,
    '',
    '  Next, in another terminal (from this folder): an account with 1000 credits, its key in $QUARRY_KEY',
    '    eval "$(npx quarry accounts create --credits 1000 --export)"',
    `    curl -s ${base}/v1/catalogue | head -c 300`,
    '',
    '  Stop with Ctrl-C. Logs follow as JSON lines.',
    '',
    '',
  ].join('\n');
}

/** One sentence for a failure before the server could serve. */
export function startupFailure(e: unknown, config: Config | undefined, env: NodeJS.ProcessEnv): string {
  const err = e as { code?: string; message?: string; port?: number; address?: string };
  const port = config?.port ?? env.PORT ?? 8080;
  if (err?.code === 'EADDRINUSE') {
    return `port ${port} is already in use (another Quarry, or another program). Stop it, or start on another port: PORT=${Number(port) + 1} npm start`;
  }
  if (err?.code === 'EACCES') return `no permission to listen on port ${port}; use a port above 1023 (PORT=8080) or a reverse proxy.`;
  if (err?.code === 'EADDRNOTAVAIL') return `HOST=${config?.host ?? env.HOST} is not an address of this machine; use 0.0.0.0 or 127.0.0.1.`;
  if (err?.code === 'SQLITE_CANTOPEN' || err?.code === 'EACCES' || err?.code === 'EROFS') {
    return `cannot open the database in ${config?.dataDir ?? env.QUARRY_DATA_DIR ?? './data'}: ${err.message}. Set QUARRY_DATA_DIR to a writable folder.`;
  }
  if (err?.code === 'ECONNREFUSED' || /ECONNREFUSED|connect/i.test(err?.message ?? '')) {
    return `could not reach a backend: ${err?.message}. Check QUARRY_DATABASE_URL and QUARRY_REDIS_URL, or unset them to run embedded.`;
  }
  const message = (err?.message ?? String(e)).split('\n')[0];
  return `could not start: ${message}`;
}
