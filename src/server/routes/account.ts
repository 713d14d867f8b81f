/**
 * The signed-in person's account (docs/account-api.md): balance, keys (create, reveal after re-entering the
 * password, revoke, last used), usage and logs. Usage and logs reuse the handlers of GET /v1/usage and GET /v1/logs.
 *
 * Two calls also take an API key instead of a session, for the CLI: `GET /v1/account` (who am I) and revoking the
 * very key that authenticates (`quarry logout`). A key can never list, create or reveal keys.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { countPasswordAttempt } from '../../identity/attempts.js';
import { optionalJsonBody } from '../../http/body.js';
import { CREATE_KEY_BODY, EMPTY_BODY, REVEAL_KEY_BODY } from '../../identity/api-schemas.js';
import { authContext } from '../../identity/context.js';
import { trackKeyUse } from '../../identity/key-usage.js';
import { verifyPassword } from '../../identity/password.js';
import { sendData } from '../../http/reply.js';
import { requireSession } from '../../identity/session-guard.js';
import { compileInput } from '../../catalogue/validator.js';
import { QuarryError } from '../../errors.js';
import { authenticate } from '../../identity/authenticate.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import type { Principal } from '../../identity/principal.js';
import type { KeyView } from '../../store/types.js';
import { jsonBody } from '../../http/body.js';
import { logsVariantA, type Query } from './logs.js';
import { usageData } from './usage.js';

const KEY_ID = /^key_[A-Za-z0-9_-]{1,64}$/;

function keyIdParam(request: FastifyRequest): string {
  const keyId = (request.params as { keyId: string }).keyId;
  if (!KEY_ID.test(keyId)) throw new QuarryError('notFound', `keyId: no key ${JSON.stringify(keyId.slice(0, 80))} in this account.`);
  return keyId;
}

export function registerAccountRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const ctx = authContext(app, deps);
  const createKeyBody = compileInput(CREATE_KEY_BODY);
  const revealKeyBody = compileInput(REVEAL_KEY_BODY);
  const emptyBody = compileInput(EMPTY_BODY);
  trackKeyUse(app, ctx);

  /** The key sent as `Authorization: Bearer`, when one was sent (401 for a bad one). */
  const keyPrincipal = (request: FastifyRequest): Promise<Principal | null> => authenticate(deps, request.headers.authorization);

  const ownKey = async (accountId: string, keyId: string): Promise<KeyView> => {
    const account = await deps.store.getAccount(accountId);
    const key = account?.keys.find((k) => k.id === keyId);
    if (!key) throw new QuarryError('notFound', `keyId: no key ${keyId} in this account.`);
    return key;
  };

  app.get('/v1/account', async (request, reply) => {
    const principal = await keyPrincipal(request);
    const session = principal ? null : await requireSession(request);
    const accountId = principal?.accountId ?? session!.accountId;
    const account = await deps.store.getAccount(accountId);
    if (!account) throw new QuarryError('unauthorized', 'This account no longer exists.');
    return sendData(reply, request, {
      id: account.id,
      email: session?.email ?? account.email,
      balance: account.balance,
      billingUrl: deps.config.billingUrl,
      createdAt: account.createdAt,
      ...(principal ? { key: { id: principal.keyId, name: principal.keyName, test: principal.test } } : {}),
    });
  });

  app.get('/v1/account/keys', async (request, reply) => {
    const session = await requireSession(request);
    const account = await deps.store.getAccount(session.accountId);
    const keys = account?.keys ?? [];
    const used = await ctx.side.lastUsed(keys.map((k) => k.id));
    return sendData(reply, request, {
      keys: keys.map((k) => ({ ...k, lastUsedAt: used.has(k.id) ? new Date(used.get(k.id)!).toISOString() : null })),
    });
  });

  app.post('/v1/account/keys', async (request, reply) => {
    const session = await requireSession(request);
    const body = createKeyBody(jsonBody(request)) as { name: string; test?: boolean };
    const created = await ctx.accounts.createKey({ accountId: session.accountId, name: body.name.trim() || body.name, test: !!body.test });
    const view = await ownKey(session.accountId, created.keyId);
    return sendData(reply, request, { id: view.id, name: view.name, prefix: view.prefix, test: view.test, createdAt: view.createdAt, key: created.apiKey });
  });

  app.post('/v1/account/keys/:keyId/reveal', async (request, reply) => {
    const session = await requireSession(request);
    const keyId = keyIdParam(request);
    const body = revealKeyBody(jsonBody(request)) as { password: string };
    // Re-entering the password is a password check like sign-in: the same brute-force limits.
    await countPasswordAttempt(ctx, request, session.email);
    const user = await ctx.side.userById(session.userId);
    if (!user || !(await verifyPassword(body.password, user.passwordHash))) {
      throw new QuarryError('forbidden', 'password: is wrong; the key stays hidden.');
    }
    const key = await ctx.accounts.revealKey(session.accountId, keyId);
    if (key === null) throw new QuarryError('notFound', `keyId: no key ${keyId} in this account.`);
    return sendData(reply, request, { id: keyId, key });
  });

  app.post('/v1/account/keys/:keyId/revoke', async (request, reply) => {
    const keyId = keyIdParam(request);
    const principal = await keyPrincipal(request);
    let accountId: string;
    if (principal) {
      // A key may end itself (quarry logout) and nothing else.
      if (principal.keyId !== keyId) throw new QuarryError('forbidden', 'An API key can revoke only itself; sign in to revoke other keys.');
      accountId = principal.accountId;
    } else {
      accountId = (await requireSession(request)).accountId;
    }
    emptyBody(optionalJsonBody(request));
    await ownKey(accountId, keyId);
    await deps.store.revokeKey(keyId);
    return sendData(reply, request, { id: keyId, revoked: true });
  });

  app.get('/v1/account/usage', async (request, reply) => {
    const session = await requireSession(request);
    return sendData(reply, request, await usageData(deps, session.accountId, request.query as Record<string, string | undefined>));
  });

  app.get('/v1/account/logs', async (request, reply) => {
    const session = await requireSession(request);
    const q = { ...(request.query as Query) };
    // The dashboard says keyId; GET /v1/logs says apiKeyId. Both are taken.
    if (q.keyId !== undefined && q.apiKeyId === undefined) q.apiKeyId = q.keyId;
    // The dashboard's filter marks the endpoints this server does not serve (issue 38.6).
    return sendData(reply, request, { ...(await logsVariantA(deps, session.accountId, q)), unavailableEndpoints: deps.catalogue.unavailableIds() });
  });
}
