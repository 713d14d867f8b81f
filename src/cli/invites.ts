/**
 * Operator commands on invite codes (docs/account-api.md): `invites create|list|disable|enable`, run on the server's
 * data like `accounts …`. A code is shown once, when created; only its keyed hash is kept.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { createInvite, findInvite } from '../identity/invites.js';
import { lastServer } from '../lib/data-dir.js';
import type { InviteRecord } from '../store/account-side.js';
import { fail, print, wholeNumber, withData } from './common.js';

const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `30m`, `12h`, `7d`, `2w`, or an ISO date / date-time: the moment the invite stops working. */
export function parseExpiry(raw: string, now = Date.now()): number {
  const m = /^(\d{1,5})([mhdw])$/.exec(raw.trim());
  if (m) {
    if (Number(m[1]) === 0) throw new InvalidArgumentError('--expires must be a positive duration');
    return now + Number(m[1]) * UNITS[m[2]];
  }
  const at = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(at)) throw new InvalidArgumentError('--expires must be a duration (30m, 12h, 7d, 2w) or an ISO date such as 2027-01-31');
  if (at <= now) throw new InvalidArgumentError('--expires must be in the future');
  return at;
}

function inviteView(i: InviteRecord) {
  return {
    id: i.id,
    codePrefix: i.codePrefix,
    credits: i.credits,
    maxUses: i.maxUses,
    uses: i.uses,
    expiresAt: i.expiresAt === null ? null : new Date(i.expiresAt).toISOString(),
    disabled: i.disabled,
    createdAt: new Date(i.createdAt).toISOString(),
  };
}

function inviteLine(i: InviteRecord, now = Date.now()): string {
  const state = i.disabled ? 'disabled' : i.expiresAt !== null && i.expiresAt <= now ? 'expired' : i.uses >= i.maxUses ? 'used up' : 'open';
  const expiry = i.expiresAt === null ? 'no expiry' : `expires ${new Date(i.expiresAt).toISOString()}`;
  return `${i.id} ${i.codePrefix}-… ${i.credits} credits, ${i.uses}/${i.maxUses} used, ${expiry}, ${state}`;
}

/** The server's public address: QUARRY_BASE_URL, else the one the last started server announced, else localhost. */
function publicBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.QUARRY_BASE_URL || lastServer(env)?.baseUrl || `http://localhost:${env.PORT || 8080}`;
  return base.replace(/\/+$/, '');
}

export function registerInviteCommands(program: Command): void {
  const invites = program.command('invites').description('invite codes people sign up with');
  invites
    .command('create')
    .description('create an invite code (shown once: only its hash is kept)')
    .option('--credits <n>', 'credits the new account starts with', wholeNumber('--credits', 0), 0)
    .option('--uses <n>', 'how many people can sign up with it', wholeNumber('--uses', 1), 1)
    .option('--expires <when>', 'a duration (30m, 12h, 7d, 2w) or an ISO date; none by default')
    .option('--json', 'print one JSON object')
    .action(async (o: { credits: number; uses: number; expires?: string; json?: boolean }) => {
      const expiresAt = o.expires === undefined ? null : parseExpiry(o.expires);
      const r = await withData(({ side, crypto }) => createInvite(side, crypto, { credits: o.credits, maxUses: o.uses, expiresAt }));
      const signupUrl = `${publicBaseUrl()}/dashboard/signup?invite=${encodeURIComponent(r.code)}`;
      print(
        !!o.json,
        { code: r.code, signupUrl, ...inviteView(r.invite) },
        `invite ${r.invite.id}: ${r.code}\n${inviteLine(r.invite)}\nsign-up address to send: ${signupUrl}\n(copy the code now; it is shown once here)`,
      );
    });

  invites
    .command('list')
    .description('every invite (codes are not shown again, only their first characters)')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const list = await withData(({ side }) => side.listInvites());
      print(!!o.json, { invites: list.map(inviteView) }, list.length ? list.map((i) => inviteLine(i)).join('\n') : 'no invites yet');
    });

  for (const disabled of [true, false]) {
    invites
      .command(`${disabled ? 'disable' : 'enable'} <codeOrId>`)
      .description(disabled ? 'stop an invite from being used (inviteDisabled)' : 'let a disabled invite be used again')
      .option('--json', 'print one JSON object')
      .action(async (codeOrId: string, o: { json?: boolean }) => {
        const r = await withData(async ({ side, crypto }) => {
          const invite = await findInvite(side, crypto, codeOrId);
          if (!invite) return null;
          await side.setInviteDisabled(invite.id, disabled);
          return (await side.inviteById(invite.id))!;
        });
        if (!r) fail(`no invite ${codeOrId}`, !!o.json);
        print(!!o.json, inviteView(r), `invite ${r.id} ${disabled ? 'disabled' : 'enabled'}`);
      });
  }
}
