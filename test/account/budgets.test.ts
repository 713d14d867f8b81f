/**
 * Budgets from the dashboard (issue 8, docs/account-api.md "Budgets"): a signed-in person lists, sets and deletes
 * the account's budgets over HTTP with the session cookie and CSRF token; the rules are those of the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startGateway, type TestGateway } from '../helpers/gateway.js';
import { Browser, PASSWORD, newInvite, uniqueEmail } from './helpers.js';

let t: TestGateway;
let b: Browser;
let key: { id: string; key: string };

beforeAll(async () => {
  t = await startGateway();
  b = new Browser(t.url);
  const r = await b.signUp((await newInvite(t, { credits: 40 })).code, uniqueEmail(), PASSWORD);
  expect(r.status).toBe(200);
  key = r.json.data.apiKey;
});
afterAll(() => t?.close());

describe('/v1/account/budgets', () => {
  it('set (create, then change), list with this period figures, delete; usage shows them', async () => {
    const set = await b.call('PUT', '/v1/account/budgets', { scope: 'key', target: key.id, period: 'day', limitCredits: 25 });
    expect(set.status, set.text).toBe(200);
    expect(set.json.data).toMatchObject({ scope: 'key', target: key.id, period: 'day', limitCredits: 25, spentCredits: 0, remainingCredits: 25 });
    expect(set.json.data.resetsAt).toMatch(/T00:00:00.000Z$/);
    const changed = await b.call('PUT', '/v1/account/budgets', { scope: 'key', target: key.id, period: 'day', limitCredits: 30 });
    expect(changed.json.data).toMatchObject({ id: set.json.data.id, limitCredits: 30 });
    const list = await b.get('/v1/account/budgets');
    expect(list.json.data.budgets).toHaveLength(1);
    expect(list.json.data.budgets[0]).not.toHaveProperty('accountId');
    expect((await get(t.url, '/v1/usage', { key: key.key })).json.data.budgets).toMatchObject([{ id: set.json.data.id, limitCredits: 30 }]);
    expect((await b.get('/v1/account/usage')).json.data.budgets).toMatchObject([{ id: set.json.data.id }]);
    const del = await b.call('DELETE', `/v1/account/budgets/${set.json.data.id}`);
    expect(del.json.data).toEqual({ id: set.json.data.id, deleted: true });
    expect((await b.get('/v1/account/budgets')).json.data.budgets).toEqual([]);
    expect((await b.call('DELETE', `/v1/account/budgets/${set.json.data.id}`)).status).toBe(404);
  });

  it('bad specs name the field and the rule; another account cannot touch them; CSRF and sign-in are required', async () => {
    const bad = await b.call('PUT', '/v1/account/budgets', { scope: 'tag', target: 'x', period: 'week', limitCredits: 1 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/^period: must be "day" or "month"/);
    const extra = await b.call('PUT', '/v1/account/budgets', { scope: 'tag', target: 'x', period: 'day', limitCredits: 1, cap: 2 });
    expect(extra.json.error.message).toMatch(/^cap: unknown field/);
    const foreign = await b.call('PUT', '/v1/account/budgets', { scope: 'key', target: 'key_notmine', period: 'day', limitCredits: 1 });
    expect(foreign.json.error.message).toMatch(/^target: no key key_notmine/);
    const mine = await b.call('PUT', '/v1/account/budgets', { scope: 'tag', target: 'nightly', period: 'month', limitCredits: 5 });
    expect(mine.status).toBe(200);

    const other = new Browser(t.url);
    await other.signUp((await newInvite(t, { credits: 1 })).code, uniqueEmail(), PASSWORD);
    expect((await other.get('/v1/account/budgets')).json.data.budgets).toEqual([]);
    expect((await other.call('DELETE', `/v1/account/budgets/${mine.json.data.id}`)).status).toBe(404);

    const noCsrf = await b.call('PUT', '/v1/account/budgets', { scope: 'tag', target: 'y', period: 'day', limitCredits: 1 }, { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(403);
    expect((await new Browser(t.url).get('/v1/account/budgets')).status).toBe(401);
  });
});
