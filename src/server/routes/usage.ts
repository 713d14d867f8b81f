/** GET /v1/usage (CONTRACT.md): totals per endpoint, per day and per tag, filterable by `tag`. Free; needs a key. */
import type { FastifyInstance } from 'fastify';
import { TAG_PATTERN } from '../../catalogue/fields.js';
import { QuarryError } from '../../errors.js';
import { authenticate } from '../../pipeline/authenticate.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { pruneData } from '../../render/prune.js';

const DAY_MS = 86_400_000;
const TAG = new RegExp(TAG_PATTERN);

/** The usage totals of an account, from `days` (1-90, default 30) and `tag`; shared by /v1/account/usage. */
export async function usageData(deps: GatewayDeps, accountId: string, q: Record<string, string | undefined>): Promise<Record<string, unknown>> {
  const daysRaw = q.days ?? '30';
  if (!/^\d+$/.test(daysRaw) || Number(daysRaw) < 1 || Number(daysRaw) > 90) {
    throw new QuarryError('invalidRequest', 'days: must be an integer from 1 to 90');
  }
  if (q.tag !== undefined && !TAG.test(q.tag)) {
    throw new QuarryError('invalidRequest', 'tag: must be 1-50 letters, digits, -, _, . or :');
  }
  const days = Number(daysRaw);
  const now = Date.now();
  const [totals, budgets] = await Promise.all([
    deps.store.usage(accountId, { sinceMs: now - days * DAY_MS, tag: q.tag }),
    deps.store.budgets(accountId, now),
  ]);
  return pruneData({
    from: new Date(now - days * DAY_MS).toISOString(),
    to: new Date(now).toISOString(),
    days,
    ...(q.tag ? { tag: q.tag } : {}),
    calls: totals.calls,
    credits: totals.credits,
    byEndpoint: totals.byEndpoint,
    byDay: totals.byDay,
    byTag: totals.byTag,
    // Budgets of the current periods, whatever `days` asks: what the account may still spend now.
    budgets: budgets.map(({ accountId: _, ...rest }) => rest),
  });
}

export function registerUsageRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/v1/usage', async (request, reply) => {
    const principal = await authenticate(deps, request.headers.authorization);
    if (!principal) throw new QuarryError('unauthorized', 'Invalid or missing API key.');
    const data = await usageData(deps, principal.accountId, request.query as Record<string, string | undefined>);
    reply.header('content-type', 'application/json; charset=utf-8');
    return reply.send({ success: true, data, creditsUsed: 0, requestId: request.id });
  });
}
