/** Starting a session: a new random token, stored hashed, and its cookie. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newId } from '../lib/ids.js';
import type { AuthContext } from './context.js';
import { currentSession, setSessionCookie } from './session-guard.js';
import { newSessionToken, sessionTokenHash } from './tokens.js';

/** A fresh token on every sign-in (never a fixated one); the session the browser had before ends. */
export async function startSession(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<string> {
  const previous = await currentSession(request);
  if (previous) await ctx.side.deleteSession(previous.session.sessionId);
  const token = newSessionToken();
  const now = ctx.deps.now();
  const id = newId('ses');
  await ctx.side.createSession({ id, tokenHash: sessionTokenHash(token), userId, createdAt: now, expiresAt: now + ctx.settings.absoluteMs });
  setSessionCookie(reply, request, token, Math.floor(ctx.settings.absoluteMs / 1000), ctx.deps.config.baseUrl);
  return id;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
