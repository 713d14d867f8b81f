/** `npm start` / `npx quarry serve`: build, listen, and shut down gracefully on SIGTERM or SIGINT. */
import { loadConfig, type Config } from '../config.js';
import { buildGateway, type Gateway } from './build.js';
import { startupBanner, startupFailure } from './startup.js';
import { recordServer } from '../lib/data-dir.js';

export async function serve(): Promise<void> {
  let config: Config;
  let gateway: Gateway;
  try {
    config = loadConfig();
    gateway = await buildGateway(config);
  } catch (e) {
    return fail(e, undefined);
  }
  let address: string;
  try {
    address = await gateway.app.listen({ port: config.port, host: config.host });
  } catch (e) {
    await gateway.close().catch(() => {});
    return fail(e, config);
  }
  // Signals are taken before the line saying the server listens: whoever waits for that line may stop it at once.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gateway.deps.log.info({ signal }, 'shutting down: finishing calls in flight');
    gateway.close().then(
      () => gateway.log.flush(() => process.exit(0)),
      (e) => {
        gateway.deps.log.error({ err: e }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  gateway.deps.log.info({ address, dataDir: config.dataDir }, 'quarry listening');
  gateway.log.flush(); // the address line goes out at once, not with the next 4 KB of request lines
  // The operator CLI finds this server's data directory from here, wherever it is run (src/lib/data-dir.ts).
  recordServer({
    dataDir: config.dataDir,
    baseUrl: config.baseUrl,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    storage: config.databaseUrl ? 'postgres' : 'sqlite',
  });
  // A person at a terminal gets a few lines saying where things are and what to do next; services and pipes do not.
  if (process.stdout.isTTY) process.stdout.write(startupBanner(config));
}

/** A start-up failure as one sentence on stderr (the stack too with QUARRY_LOG_LEVEL=debug), exit 1. */
function fail(e: unknown, config: Config | undefined): never {
  process.stderr.write(`quarry: ${startupFailure(e, config, process.env)}\n`);
  if (/^(debug|trace)$/.test(process.env.QUARRY_LOG_LEVEL ?? '') && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  process.exit(1);
}

const invokedDirectly = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) void serve();
