/**
 * Operator commands on the people who sign in to the dashboard (docs/account-api.md): `users create|list|reset-password`,
 * run on the server's data like `accounts …`.
 */
import type { Command } from 'commander';
import type { Accounts } from '../identity/accounts.js';
import { hashPassword, passwordProblem } from '../identity/password.js';
import { normaliseEmail } from '../identity/sessions.js';
import { newId } from '../lib/ids.js';
import { fail, print, wholeNumber, withData } from './common.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  // One trailing newline (from echo or a here-string) is not part of the password.
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

async function passwordFrom(o: { password?: string; passwordStdin?: boolean }, json: boolean): Promise<string> {
  if (o.password !== undefined && o.passwordStdin) fail('give --password or --password-stdin, not both', json);
  const password = o.passwordStdin ? await readStdin() : o.password;
  if (password === undefined) fail('a password is needed: --password-stdin (preferred: not in shell history) or --password', json);
  const problem = passwordProblem(password);
  if (problem) fail(problem, json);
  return password;
}

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('people who sign in to the dashboard');
  users
    .command('create')
    .description('create a person who signs in with e-mail and password, in an account or a new one')
    .requiredOption('--email <email>', 'their e-mail address (their sign-in name)')
    .option('--password <password>', 'the password (prefer --password-stdin: it stays out of shell history)')
    .option('--password-stdin', 'read the password from standard input')
    .option('--account <id>', 'the account they belong to')
    .option('--new-account', 'create an account (with its default key) for them')
    .option('--credits <n>', 'starting balance of the new account', wholeNumber('--credits', 0), 0)
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; password?: string; passwordStdin?: boolean; account?: string; newAccount?: boolean; credits: number; json?: boolean }) => {
      const json = !!o.json;
      if (!!o.account === !!o.newAccount) fail('give exactly one of --account <id> and --new-account', json);
      const email = normaliseEmail(o.email);
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || email.length > 254) fail('--email must be an e-mail address', json);
      const password = await passwordFrom(o, json);
      const r = await withData(async ({ store, side, accounts }) => {
        if (await side.userByEmail(email)) return { error: `a person with e-mail ${email} exists already` };
        const passwordHash = await hashPassword(password);
        let accountId = o.account;
        let created: Awaited<ReturnType<Accounts['createAccount']>> | undefined;
        if (accountId) {
          if (!(await store.getAccount(accountId))) return { error: `no account with id ${accountId}` };
        } else {
          created = await accounts.createAccount({ credits: o.credits, email });
          accountId = created.accountId;
        }
        const userId = newId('usr');
        if ((await side.createUser({ id: userId, accountId, email, passwordHash })) === 'emailTaken') {
          if (created) await store.revokeKey(created.keyId);
          return { error: `a person with e-mail ${email} exists already` };
        }
        return { userId, accountId, email, ...(created ? { keyId: created.keyId, apiKey: created.apiKey, credits: created.credits } : {}) };
      });
      if ('error' in r) fail(r.error!, json);
      const human = [`person ${r.userId} <${r.email}> in account ${r.accountId}`];
      if (r.apiKey) human.push(`new account with ${r.credits} credits; default key ${r.keyId}: ${r.apiKey}`, '(store the key now; it is shown once here)');
      print(json, r, human.join('\n'));
    });

  users
    .command('list')
    .description('every person, with their account')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const list = await withData(({ side }) => side.listUsers());
      const view = list.map((u) => ({ id: u.id, email: u.email, accountId: u.accountId, createdAt: new Date(u.createdAt).toISOString() }));
      print(!!o.json, { users: view }, view.length ? view.map((u) => `${u.id} <${u.email}> account ${u.accountId}`).join('\n') : 'no people yet');
    });

  users
    .command('reset-password')
    .description("set a person's password and end every session they have")
    .requiredOption('--email <email>', 'their e-mail address')
    .option('--password <password>', 'the new password (prefer --password-stdin)')
    .option('--password-stdin', 'read the new password from standard input')
    .option('--json', 'print one JSON object')
    .action(async (o: { email: string; password?: string; passwordStdin?: boolean; json?: boolean }) => {
      const json = !!o.json;
      const email = normaliseEmail(o.email);
      const password = await passwordFrom(o, json);
      const r = await withData(async ({ side }) => {
        const user = await side.userByEmail(email);
        if (!user) return null;
        await side.setPassword(user.id, await hashPassword(password));
        return { userId: user.id, email, sessionsEnded: await side.deleteUserSessions(user.id) };
      });
      if (!r) fail(`no person with e-mail ${email}`, json);
      print(json, r, `password of ${email} changed; ${r.sessionsEnded} session(s) ended`);
    });
}
