/** `npm start` / `npx quarry serve`: build, listen, and shut down gracefully on SIGTERM or SIGINT. */
import { loadConfig } from '../config.js';
import { buildGateway } from './build.js';

export async function serve(): Promise<void> {
  const config = loadConfig();
  const gateway = await buildGateway(config);
  const address = await gateway.app.listen({ port: config.port, host: config.host });
  gateway.deps.log.info({ address, dataDir: config.dataDir }, 'quarry listening');
  gateway.log.flush(); // the address line goes out at once, not with the next 4 KB of request lines
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
}

const invokedDirectly = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (invokedDirectly) {
  serve().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
