/**
 * The account side's storage contract, on whichever backend the suite runs (SQLite, or PostgreSQL with
 * QUARRY_TEST_DATABASE_URL): the guarded transitions hold under concurrency, and the sweep drops only what expired.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInvite } from '../../src/identity/invites.js';
import { sessionTokenHash, newSessionToken } from '../../src/identity/tokens.js';
import { accountSideFor, type AccountSideStore } from '../../src/store/account-side.js';
import { startGateway, type TestGateway } from '../helpers/gateway.js';
import { uniqueEmail } from './helpers.js';

let t: TestGateway;
let side: AccountSideStore;
let userId: string;

beforeAll(async () => {
  t = await startGateway();
  side = accountSideFor(t.gateway.deps.store);
  const { accountId } = await t.accounts.createAccount({ credits: 0 });
  userId = 'usr_store_test';
  expect(await side.createUser({ id: userId, accountId, email: uniqueEmail(), passwordHash: 'scrypt$x' })).toBe('created');
});
afterAll(() => t?.close());

describe('account-side storage', () => {
  it('one e-mail, one person', async () => {
    const { accountId } = await t.accounts.createAccount({ credits: 0 });
    const email = uniqueEmail();
    const results = await Promise.all([1, 2, 3].map((i) => side.createUser({ id: `usr_dup${i}`, accountId, email, passwordHash: 'h' })));
    expect(results.filter((r) => r === 'created')).toHaveLength(1);
    expect(results.filter((r) => r === 'emailTaken')).toHaveLength(2);
  });

  it('a CLI session completes exactly once, however many exchanges race', async () => {
    const now = Date.now();
    expect(await side.createCliSession({ id: 'cli_race_race_race_1', challenge: 'c', name: 'n', createdAt: now, expiresAt: now + 60_000 })).toBe(true);
    expect(await side.createCliSession({ id: 'cli_race_race_race_1', challenge: 'c', name: 'n', createdAt: now, expiresAt: now + 60_000 })).toBe(false);
    expect(await side.completeCliSession('cli_race_race_race_1', now)).toBeNull(); // not approved yet
    expect(await side.approveCliSession('cli_race_race_race_1', userId, 'acct_x', now)).toBe(true);
    expect(await side.approveCliSession('cli_race_race_race_1', userId, 'acct_x', now)).toBe(false);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => side.completeCliSession('cli_race_race_race_1', Date.now())));
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(outcomes.find(Boolean)).toMatchObject({ userId, accountId: 'acct_x', status: 'completed' });
  });

  it('an invite claim given back frees its use', async () => {
    const { code, invite } = await createInvite(side, t.gateway.deps.crypto, { credits: 0, maxUses: 1, expiresAt: null });
    const hash = t.gateway.deps.crypto.hash(code.replace(/-/g, ''));
    const email = uniqueEmail();
    expect((await side.claimInvite(hash, email, Date.now())).ok).toBe(true);
    expect(await side.claimInvite(hash, uniqueEmail(), Date.now())).toEqual({ ok: false, reason: 'usedUp' });
    await side.releaseClaim(invite.id, email);
    expect((await side.inviteById(invite.id))!.uses).toBe(0);
    expect(await side.hasClaim(invite.id, email)).toBe(false);
    expect((await side.claimInvite(hash, uniqueEmail(), Date.now())).ok).toBe(true);
  });

  it('the sweep drops sessions past either expiry and day-old CLI sessions, nothing else', async () => {
    const now = Date.now();
    const idle = 3_600_000;
    const mk = async (id: string, createdAt: number, expiresAt: number) => {
      const token = newSessionToken();
      await side.createSession({ id, tokenHash: sessionTokenHash(token), userId, createdAt, expiresAt });
      return token;
    };
    const live = await mk('ses_live', now, now + 10 * idle);
    const idleToken = await mk('ses_idle', now - 2 * idle, now + 10 * idle);
    const over = await mk('ses_over', now - 1000, now - 1);
    await side.createCliSession({ id: 'cli_old_old_old_old_1', challenge: 'c', name: 'n', createdAt: now - 2 * 86_400_000, expiresAt: now - 2 * 86_400_000 + 600_000 });
    await side.createCliSession({ id: 'cli_recent_recent_1', challenge: 'c', name: 'n', createdAt: now - 3_600_000, expiresAt: now - 3_000_000 });
    expect(await side.sweep(now, idle)).toBeGreaterThanOrEqual(3);
    expect(await side.findSession(sessionTokenHash(live))).toMatchObject({ id: 'ses_live', userId });
    expect(await side.findSession(sessionTokenHash(idleToken))).toBeNull();
    expect(await side.findSession(sessionTokenHash(over))).toBeNull();
    expect(await side.cliSession('cli_old_old_old_old_1')).toBeNull();
    expect(await side.cliSession('cli_recent_recent_1')).not.toBeNull();
  });

  it('last use keeps the latest time', async () => {
    await side.keyUsed('key_a', 2000);
    await side.keyUsed('key_a', 1000);
    await side.keyUsed('key_b', 5);
    expect(await side.lastUsed(['key_a', 'key_b', 'key_c'])).toEqual(new Map([['key_a', 2000], ['key_b', 5]]));
    expect(await side.lastUsed([])).toEqual(new Map());
  });
});
