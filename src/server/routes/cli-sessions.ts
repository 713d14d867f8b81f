/**
 * CLI login, PKCE-style (docs/account-api.md): the CLI creates a session with the S256 challenge of a random
 * verifier and shows the approval page's address; a signed-in person approves it in the dashboard; the CLI trades
 * the verifier for a new named key of that person's account, once. Sessions live 10 minutes.
 *
 * Where each code comes from: an id that is not one (or an expired session) → invalidCliSession; an unknown id →
 * cliSessionNotFound; proposing an id in use → cliSessionExists; a verifier that does not hash to the challenge →
 * invalidCliVerifier; exchanging twice or approving a finished one → cliSessionCompleted. Polling before approval
 * answers invalidCliSession with `retryable: true` and the poll interval in Retry-After.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CLI_SESSION_BODY, CLI_TOKEN_BODY, EMPTY_BODY } from '../../identity/api-schemas.js';
import { countCliCall } from '../../identity/attempts.js';
import { optionalJsonBody } from '../../http/body.js';
import { authContext } from '../../identity/context.js';
import { sendData } from '../../http/reply.js';
import { requireSession } from '../../identity/session-guard.js';
import { CLI_SESSION_ID_SHAPE, VERIFIER_SHAPE, cliVerificationCode, s256, safeEqual } from '../../identity/tokens.js';
import { compileInput } from '../../catalogue/validator.js';
import { QuarryError } from '../../errors.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import type { CliSessionRecord } from '../../store/account-side.js';
import { jsonBody } from '../../http/body.js';

type PublicStatus = 'pending' | 'approved' | 'completed' | 'expired';

export function cliStatus(s: CliSessionRecord, now: number): PublicStatus {
  if (s.status === 'completed') return 'completed';
  return now >= s.expiresAt ? 'expired' : s.status;
}

function sessionIdParam(request: FastifyRequest): string {
  const id = (request.params as { sessionId: string }).sessionId;
  if (!CLI_SESSION_ID_SHAPE.test(id)) {
    throw new QuarryError('invalidCliSession', 'sessionId: is not a CLI session id (16-64 letters, digits, _ or -).');
  }
  return id;
}

const expired = () => new QuarryError('invalidCliSession', 'This CLI login has expired (they last 10 minutes); run `quarry login` again.');
const completed = () => new QuarryError('cliSessionCompleted', 'This CLI login is finished: its key was already issued. Run `quarry login` again for another.');

/** QUARRY_BASE_URL when the operator set it; else the address this request reached (the default is a guess). */
function publicBase(request: FastifyRequest, deps: GatewayDeps): string {
  if (deps.config.baseUrlSet) return deps.config.baseUrl;
  return `${request.protocol}://${request.host}`;
}

export function registerCliSessionRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const ctx = authContext(app, deps);
  const createBody = compileInput(CLI_SESSION_BODY);
  const tokenBody = compileInput(CLI_TOKEN_BODY);
  const emptyBody = compileInput(EMPTY_BODY);
  const { cliSessionMs, cliPollSeconds } = ctx.settings;

  const find = async (id: string): Promise<CliSessionRecord> => {
    const s = await ctx.side.cliSession(id);
    if (!s) throw new QuarryError('cliSessionNotFound', `No CLI login ${id}; it may have been cleaned up. Run \`quarry login\` again.`);
    return s;
  };

  app.post('/v1/cli/sessions', async (request, reply) => {
    await countCliCall(ctx, request);
    const body = createBody(jsonBody(request)) as { codeChallenge: string; name?: string; sessionId?: string };
    if (body.sessionId !== undefined && !CLI_SESSION_ID_SHAPE.test(body.sessionId)) {
      throw new QuarryError('invalidCliSession', 'sessionId: must be 16-64 letters, digits, _ or -.');
    }
    const id = body.sessionId ?? `cli_${randomBytes(24).toString('base64url')}`;
    const now = deps.now();
    const name = body.name?.trim() || 'cli';
    const created = await ctx.side.createCliSession({ id, challenge: body.codeChallenge, name, createdAt: now, expiresAt: now + cliSessionMs });
    if (!created) throw new QuarryError('cliSessionExists', `sessionId: a CLI login with id ${id} exists already; choose another (or leave it out).`);
    return sendData(
      reply,
      request,
      {
        sessionId: id,
        approvalUrl: `${publicBase(request, deps)}/dashboard/cli/${id}`,
        verificationCode: cliVerificationCode(body.codeChallenge),
        expiresAt: new Date(now + cliSessionMs).toISOString(),
        pollIntervalSeconds: cliPollSeconds,
      },
    );
  });

  app.get('/v1/cli/sessions/:sessionId', async (request, reply) => {
    await requireSession(request);
    const s = await find(sessionIdParam(request));
    return sendData(reply, request, {
      sessionId: s.id,
      name: s.name,
      verificationCode: cliVerificationCode(s.challenge),
      status: cliStatus(s, deps.now()),
      createdAt: new Date(s.createdAt).toISOString(),
      expiresAt: new Date(s.expiresAt).toISOString(),
    });
  });

  app.post('/v1/cli/sessions/:sessionId/approve', async (request, reply) => {
    const session = await requireSession(request);
    const id = sessionIdParam(request);
    emptyBody(optionalJsonBody(request));
    const now = deps.now();
    if (await ctx.side.approveCliSession(id, session.userId, session.accountId, now)) {
      return sendData(reply, request, { sessionId: id, status: 'approved' });
    }
    // Not pending (or gone, or expired): say which.
    const s = await find(id);
    const status = cliStatus(s, now);
    if (status === 'completed') throw completed();
    if (status === 'expired') throw expired();
    if (status === 'approved' && s.userId === session.userId) return sendData(reply, request, { sessionId: id, status: 'approved' });
    throw new QuarryError('cliSessionCompleted', 'This CLI login was already approved by someone else.');
  });

  app.post('/v1/cli/sessions/:sessionId/token', async (request, reply) => {
    await countCliCall(ctx, request);
    const id = sessionIdParam(request);
    const body = tokenBody(jsonBody(request)) as { codeVerifier: string };
    const s = await find(id);
    // The verifier first: only the CLI that started the login learns anything more about it.
    if (!VERIFIER_SHAPE.test(body.codeVerifier) || !safeEqual(s256(body.codeVerifier), s.challenge)) {
      throw new QuarryError('invalidCliVerifier', 'codeVerifier: does not match the codeChallenge this login was started with.');
    }
    const now = deps.now();
    const status = cliStatus(s, now);
    if (status === 'completed') throw completed();
    if (status === 'expired') throw expired();
    if (status === 'pending') {
      throw new QuarryError('invalidCliSession', 'Not approved yet: open the approval address, sign in and approve; then ask again.', {
        retryable: true,
        retryAfterSeconds: cliPollSeconds,
      });
    }
    const approved = await ctx.side.completeCliSession(id, now);
    if (!approved) {
      const again = cliStatus(await find(id), deps.now());
      throw again === 'expired' ? expired() : completed();
    }
    const key = await ctx.accounts.createKey({ accountId: approved.accountId!, name: approved.name, test: false });
    await ctx.side.setCliSessionKey(id, key.keyId);
    const user = approved.userId ? await ctx.side.userById(approved.userId) : null;
    return sendData(reply, request, {
      apiKey: key.apiKey,
      keyId: key.keyId,
      name: key.name,
      accountId: approved.accountId,
      email: user?.email ?? null,
    });
  });
}
