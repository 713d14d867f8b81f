/** GET /v1/usage (CONTRACT.md): totals per endpoint, per day and per tag, filterable by `tag`. Free; needs a key. */
import type { FastifyInstance } from 'fastify';
import { TAG_PATTERN } from '../../lib/tags.js';
import { QuarryError } from '../../errors.js';
import { authenticate } from '../../identity/authenticate.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { pruneData } from '../../render/prune.js';
import type { UsageTotals } from '../../store/types.js';

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
  if (q.mode !== undefined && q.mode !== 'live' && q.mode !== 'test') {
    throw new QuarryError('invalidRequest', 'mode: must be live or test');
  }
  const days = Number(daysRaw);
  const now = Date.now();
  // Live and test-mode calls apart (issue 38.5): a test key's credits are reported prices, never spent.
  const [live, test, budgets] = await Promise.all([
    deps.store.usage(accountId, { sinceMs: now - days * DAY_MS, tag: q.tag, mode: 'live' }),
    deps.store.usage(accountId, { sinceMs: now - days * DAY_MS, tag: q.tag, mode: 'test' }),
    deps.store.budgets(accountId, now),
  ]);
  const totals = q.mode === 'live' ? live : q.mode === 'test' ? test : mergeUsage(live, test);
  return pruneData({
    from: new Date(now - days * DAY_MS).toISOString(),
    to: new Date(now).toISOString(),
    days,
    ...(q.tag ? { tag: q.tag } : {}),
    ...(q.mode ? { mode: q.mode } : {}),
    // What the balance paid (live keys) and what test-mode keys would have cost; `calls` and `credits` below are
    // the listing's (both modes unless `mode` says which).
    live: { calls: live.calls, credits: live.credits },
    test: { calls: test.calls, credits: test.credits },
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

type Row<K extends string> = { [k in K]: string } & { calls: number; credits: number };

function mergeRows<K extends string>(key: K, a: Row<K>[], b: Row<K>[], order: (x: Row<K>, y: Row<K>) => number): Row<K>[] {
  const out = new Map<string, Row<K>>();
  for (const r of [...a, ...b]) {
    const seen = out.get(r[key]);
    if (seen) out.set(r[key], { ...seen, calls: seen.calls + r.calls, credits: seen.credits + r.credits });
    else out.set(r[key], { ...r });
  }
  return [...out.values()].sort(order);
}

/** Live and test totals as one listing, in the stores' orders (credits, then name; days ascending). */
function mergeUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  const byCredits = <K extends string>(key: K) => (x: Row<K>, y: Row<K>) => y.credits - x.credits || (x[key] < y[key] ? -1 : x[key] > y[key] ? 1 : 0);
  return {
    calls: a.calls + b.calls,
    credits: a.credits + b.credits,
    byEndpoint: mergeRows('endpoint', a.byEndpoint, b.byEndpoint, byCredits('endpoint')),
    byDay: mergeRows('day', a.byDay, b.byDay, (x, y) => (x.day < y.day ? -1 : x.day > y.day ? 1 : 0)),
    byTag: mergeRows('tag', a.byTag, b.byTag, byCredits('tag')),
  };
}
