/**
 * Sign-up with an invite, sign-in, sign-out (here or everywhere) and the current session (docs/account-api.md).
 */
import type { FastifyInstance } from 'fastify';
import { countPasswordAttempt } from '../../identity/attempts.js';
import { optionalJsonBody } from '../../http/body.js';
import { SIGNIN_BODY, SIGNOUT_BODY, SIGNUP_BODY } from '../../identity/api-schemas.js';
import { authContext } from '../../identity/context.js';
import { signUpWithInvite } from '../../identity/invites.js';
import { decoyHash, hashPassword, needsRehash, passwordProblem, verifyPassword } from '../../identity/password.js';
import { sendData } from '../../http/reply.js';
import { checkOrigin, clearSessionCookie, csrfTokenFor, currentSession, requireSession } from '../../identity/session-guard.js';
import { normaliseEmail, startSession } from '../../identity/sessions.js';
import { compileInput } from '../../catalogue/validator.js';
import { QuarryError } from '../../errors.js';
import type { GatewayDeps } from '../../pipeline/deps.js';
import { jsonBody } from '../../http/body.js';

export function registerAuthRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const ctx = authContext(app, deps);
  const signupBody = compileInput(SIGNUP_BODY);
  const signinBody = compileInput(SIGNIN_BODY);
  const signoutBody = compileInput(SIGNOUT_BODY);

  // Expired sessions and old CLI logins are dropped hourly (expiry is enforced on every lookup anyway).
  const sweeper = setInterval(() => {
    ctx.side.sweep(deps.now(), ctx.settings.idleMs).catch((e) => deps.log.warn({ err: e }, 'session sweep failed'));
  }, 3_600_000);
  sweeper.unref();
  app.addHook('onClose', (_app, done) => {
    clearInterval(sweeper);
    done();
  });

  app.post('/v1/auth/signup', async (request, reply) => {
    checkOrigin(request);
    const body = signupBody(jsonBody(request)) as { inviteCode: string; email: string; password: string };
    const problem = passwordProblem(body.password);
    if (problem) throw new QuarryError('invalidRequest', problem);
    await countPasswordAttempt(ctx, request);
    const email = normaliseEmail(body.email);
    const r = await signUpWithInvite(
      { side: ctx.side, store: deps.store, accounts: ctx.accounts, crypto: deps.crypto, now: () => deps.now() },
      { inviteCode: body.inviteCode, email, password: body.password },
    );
    await startSession(ctx, request, reply, r.userId);
    return sendData(reply, request, {
      user: { id: r.userId, email },
      account: { id: r.accountId, balance: r.balance },
      apiKey: r.key,
    });
  });

  app.post('/v1/auth/signin', async (request, reply) => {
    checkOrigin(request);
    const body = signinBody(jsonBody(request)) as { email: string; password: string };
    const email = normaliseEmail(body.email);
    await countPasswordAttempt(ctx, request, email);
    const user = await ctx.side.userByEmail(email);
    // An unknown address costs the same hash as a known one, so timing does not tell which addresses exist.
    const ok = await verifyPassword(body.password, user?.passwordHash ?? (await decoyHash()));
    if (!user || !ok) throw new QuarryError('unauthorized', 'Wrong e-mail or password.');
    // The cost setting rose since this hash was made: the password is at hand, so upgrade it now.
    if (needsRehash(user.passwordHash)) await ctx.side.setPassword(user.id, await hashPassword(body.password));
    await startSession(ctx, request, reply, user.id);
    return sendData(reply, request, { user: { id: user.id, email: user.email } });
  });

  app.post('/v1/auth/signout', async (request, reply) => {
    const body = signoutBody(optionalJsonBody(request)) as { everywhere?: boolean };
    if (!(await currentSession(request))) {
      clearSessionCookie(reply, request, deps.config.baseUrl);
      return sendData(reply, request, { signedOut: 0 });
    }
    const session = await requireSession(request);
    const signedOut = body.everywhere ? await ctx.side.deleteUserSessions(session.userId) : await ctx.side.deleteSession(session.sessionId);
    clearSessionCookie(reply, request, deps.config.baseUrl);
    return sendData(reply, request, { signedOut });
  });

  app.get('/v1/auth/session', async (request, reply) => {
    const session = await requireSession(request);
    const found = (await currentSession(request))!;
    const account = await deps.store.getAccount(session.accountId);
    if (!account) throw new QuarryError('unauthorized', 'Sign in first: this account no longer exists.');
    return sendData(reply, request, {
      user: { id: session.userId, email: session.email },
      account: { id: account.id, balance: account.balance, billingUrl: deps.config.billingUrl },
      csrfToken: csrfTokenFor(request, found.token),
    });
  });
}
