/**
 * Brute-force limits of password checks (sign-in, sign-up, key reveal), through the project's rate limiter (memory
 * or Redis, so the count is shared by every instance): per e-mail address and per client address (IPv6 by /64),
 * fixed windows of 15 minutes. Every attempt counts, successful or not: the limiter has no "peek", and a person
 * who signs in ten times in fifteen minutes is rare. Over the limit: 429 rateLimited with Retry-After.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { QuarryError } from '../errors.js';
import { clientAddress } from '../lib/client-address.js';
import type { AuthContext } from './context.js';

export async function countPasswordAttempt(ctx: AuthContext, request: FastifyRequest, email?: string): Promise<void> {
  const { attemptsPerAddress, attemptsPerEmail, attemptWindowSeconds: window } = ctx.settings;
  const limiter = ctx.deps.rateLimiter;
  const hits = [limiter.hit(`auth:addr:${clientAddress(request.ip)}`, attemptsPerAddress, window)];
  if (email) {
    // Hashed: an address in a Redis key would outlive the person's account and show in any key dump.
    const id = createHash('sha256').update(email).digest('base64url').slice(0, 22);
    hits.push(limiter.hit(`auth:email:${id}`, attemptsPerEmail, window));
  }
  const refused = (await Promise.all(hits)).filter((d) => !d.allowed);
  if (refused.length === 0) return;
  const resetUnix = Math.max(...refused.map((d) => d.resetUnix));
  const retryAfterSeconds = Math.max(1, resetUnix - Math.floor(Date.now() / 1000));
  throw new QuarryError('rateLimited', `Too many password attempts; try again in ${retryAfterSeconds} seconds.`, {
    retryAfterSeconds,
  });
}

/** Per-address cap of the unauthenticated CLI login calls (create and poll; default 120 a minute: polling every 2 s uses a quarter). */
export async function countCliCall(ctx: AuthContext, request: FastifyRequest): Promise<void> {
  const d = await ctx.deps.rateLimiter.hit(`auth:cli:${clientAddress(request.ip)}`, ctx.settings.cliCallsPerMinute, 60);
  if (d.allowed) return;
  const retryAfterSeconds = Math.max(1, d.resetUnix - Math.floor(Date.now() / 1000));
  throw new QuarryError('rateLimited', `Too many CLI login calls from this address; try again in ${retryAfterSeconds} seconds.`, {
    retryAfterSeconds,
  });
}
