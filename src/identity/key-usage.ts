/**
 * "Last used" of keys, cheaply: an onResponse hook sees the key of every data call (request.callState.principal)
 * and writes its time at most once a minute per key and process, off the request's path (after the answer went
 * out, errors only logged). So `lastUsedAt` is exact to the minute and costs nothing on the paid hot path.
 */
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from './context.js';

const WRITE_EVERY_MS = 60_000;
const MAX_TRACKED = 100_000;

export function trackKeyUse(app: FastifyInstance, ctx: AuthContext): void {
  const written = new Map<string, number>();
  app.addHook('onResponse', (request, _reply, done) => {
    const keyId = request.callState?.principal?.keyId;
    if (keyId) {
      const now = ctx.deps.now();
      const last = written.get(keyId);
      if (last === undefined || now - last >= WRITE_EVERY_MS) {
        if (written.size >= MAX_TRACKED) written.clear();
        written.set(keyId, now);
        ctx.side.keyUsed(keyId, now).catch((e) => ctx.deps.log.warn({ err: e, keyId }, 'could not record when a key was last used'));
      }
    }
    done();
  });
}
