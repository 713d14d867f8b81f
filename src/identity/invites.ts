/**
 * Invite codes. Decision: a code is shown once, when the operator creates it, and stored only as the keyed lookup
 * hash of the server secret (like API keys' lookup hash), so a copy of the database cannot sign anybody up. The
 * listing shows the first four characters. Codes are 16 characters of Crockford base32 (80 random bits), typed
 * with or without hyphens, in any case.
 *
 * Sign-up takes one use atomically, then creates the account (with its `default` key, ./accounts.ts),
 * grants the invite's credits through the ledger, and creates the person; a failure after the claim gives the use
 * back and revokes the half-made account's key.
 */
import type { Accounts } from './accounts.js';
import type { KeyCrypto } from './secret.js';
import { QuarryError } from '../errors.js';
import { newId } from '../lib/ids.js';
import type { AccountSideStore, ClaimRefusal, InviteRecord } from '../store/account-side.js';
import type { Store } from '../store/types.js';
import { hashPassword } from './password.js';
import { canonicalInviteCode, newInviteCode } from './tokens.js';

export async function createInvite(
  side: AccountSideStore,
  crypto: KeyCrypto,
  o: { credits: number; maxUses: number; expiresAt: number | null },
): Promise<{ invite: InviteRecord; code: string }> {
  const code = newInviteCode();
  const id = newId('inv');
  await side.createInvite({
    id,
    codeHash: crypto.hash(canonicalInviteCode(code)!),
    codePrefix: code.slice(0, 4),
    credits: o.credits,
    maxUses: o.maxUses,
    expiresAt: o.expiresAt,
  });
  return { invite: (await side.inviteById(id))!, code };
}

/** An invite by its id (`inv_…`) or by its code. */
export async function findInvite(side: AccountSideStore, crypto: KeyCrypto, idOrCode: string): Promise<InviteRecord | null> {
  if (idOrCode.startsWith('inv_')) return side.inviteById(idOrCode);
  const code = canonicalInviteCode(idOrCode);
  return code ? side.inviteByCodeHash(crypto.hash(code)) : null;
}

export function inviteError(reason: ClaimRefusal): QuarryError {
  switch (reason) {
    case 'notFound':
      return new QuarryError('notFound', 'inviteCode: no invite has this code; check it for typos.');
    case 'disabled':
      return new QuarryError('inviteDisabled', 'inviteCode: this invite has been disabled by the operator.');
    case 'expired':
      return new QuarryError('inviteExpired', 'inviteCode: this invite has expired.');
    case 'claimed':
      return new QuarryError('inviteClaimed', 'inviteCode: this e-mail address already signed up with this invite; sign in instead.');
    case 'usedUp':
      return new QuarryError('inviteUsedUp', 'inviteCode: every use of this invite has been taken.');
  }
}

export interface SignUpDeps {
  side: AccountSideStore;
  store: Store;
  accounts: Accounts;
  crypto: KeyCrypto;
  now(): number;
}

export interface SignUpResult {
  userId: string;
  accountId: string;
  balance: number;
  key: { id: string; name: string; key: string };
}

export async function signUpWithInvite(d: SignUpDeps, o: { inviteCode: string; email: string; password: string }): Promise<SignUpResult> {
  const code = canonicalInviteCode(o.inviteCode);
  if (!code) throw inviteError('notFound');
  const codeHash = d.crypto.hash(code);
  // Checks before the (slow) password hash, for clear answers; the claim below re-checks them atomically.
  const invite = await d.side.inviteByCodeHash(codeHash);
  if (!invite) throw inviteError('notFound');
  if (invite.disabled) throw inviteError('disabled');
  if (invite.expiresAt !== null && invite.expiresAt <= d.now()) throw inviteError('expired');
  if (await d.side.hasClaim(invite.id, o.email)) throw inviteError('claimed');
  if (invite.uses >= invite.maxUses) throw inviteError('usedUp');
  if (await d.side.userByEmail(o.email)) {
    throw new QuarryError('invalidRequest', 'email: already has an account on this server; sign in instead.');
  }
  const passwordHash = await hashPassword(o.password);

  const claim = await d.side.claimInvite(codeHash, o.email, d.now());
  if (!claim.ok) throw inviteError(claim.reason);
  let created: Awaited<ReturnType<Accounts['createAccount']>> | undefined;
  try {
    created = await d.accounts.createAccount({ credits: 0, email: o.email });
    const balance = claim.invite.credits > 0 ? await d.store.addCredits(created.accountId, claim.invite.credits, `invite ${claim.invite.id}`) : 0;
    // The person last: a sign-up that fails before this leaves no one able to sign in to the half-made account.
    const userId = newId('usr');
    if ((await d.side.createUser({ id: userId, accountId: created.accountId, email: o.email, passwordHash })) === 'emailTaken') {
      throw new QuarryError('invalidRequest', 'email: already has an account on this server; sign in instead.');
    }
    return {
      userId,
      accountId: created.accountId,
      balance: balance ?? 0,
      key: { id: created.keyId, name: 'default', key: created.apiKey },
    };
  } catch (e) {
    await d.side.releaseClaim(claim.invite.id, o.email).catch(() => {});
    if (created) await d.store.revokeKey(created.keyId).catch(() => {});
    throw e;
  }
}
