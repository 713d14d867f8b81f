/**
 * The signed-in person's budgets (docs/account-api.md "Budgets"): list with what each has spent and left this
 * period, create or change one, delete one. The same rules as `npx quarry budgets` (src/budgets/budgets.ts).
 */
import type { FastifyInstance } from 'fastify';
import { setBudget } from '../../budgets/budgets.js';
import { sendData } from '../../http/reply.js';
import { requireSession } from '../../identity/session-guard.js';
import { QuarryError } from '../../errors.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { jsonBody } from '../../http/body.js';

const BUDGET_ID = /^bdg_[A-Za-z0-9_-]{1,64}$/;
const FIELDS = new Set(['scope', 'target', 'period', 'limitCredits']);

export function registerBudgetRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  app.get('/v1/account/budgets', async (request, reply) => {
    const me = await requireSession(request);
    const budgets = await deps.store.budgets(me.accountId, Date.now());
    return sendData(reply, request, { budgets: budgets.map(({ accountId: _, ...b }) => b) });
  });

  app.put('/v1/account/budgets', async (request, reply) => {
    const me = await requireSession(request);
    const body = jsonBody(request);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new QuarryError('invalidRequest', 'body: must be a JSON object');
    const unknown = Object.keys(body).find((k) => !FIELDS.has(k));
    if (unknown) throw new QuarryError('invalidRequest', `${unknown}: unknown field; a budget is {scope, target, period, limitCredits}.`);
    const budget = await setBudget(deps.store, me.accountId, body as Record<string, unknown>);
    // Answered with this period's figures, like the listing.
    const status = (await deps.store.budgets(me.accountId, Date.now())).find((b) => b.id === budget.id) ?? budget;
    const { accountId: _, ...view } = status;
    return sendData(reply, request, view);
  });

  app.delete<{ Params: { budgetId: string } }>('/v1/account/budgets/:budgetId', async (request, reply) => {
    const me = await requireSession(request);
    const { budgetId } = request.params;
    const gone = BUDGET_ID.test(budgetId) && (await deps.store.deleteBudget(me.accountId, budgetId));
    if (!gone) throw new QuarryError('notFound', `budgetId: no budget ${JSON.stringify(budgetId.slice(0, 80))} in this account.`);
    return sendData(reply, request, { id: budgetId, deleted: true });
  });
}
