/**
 * The operator CLI (CONTRACT.md "Operator CLI"): works while the server runs, on the same data directory.
 * Every command takes --json for one JSON object on stdout.
 */
import cluster from 'node:cluster';
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config.js';
import { sharedSecretProblem } from '../identity/secret.js';
import { budgetCommands } from './budgets.js';
import { fail, print, withData } from './common.js';
import { registerInviteCommands } from './invites.js';
import { registerLoginCommands } from './login.js';
import { registerUserCommands } from './users.js';
import { VERSION } from './version.js';

function positiveInt(name: string, allowZero = false) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || (!allowZero && n === 0)) {
      throw new InvalidArgumentError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} whole number`);
    }
    return n;
  };
}

/**
 * The primary of `serve --workers N`: forks N workers (each runs `serve`, sharing the listening port), replaces a
 * worker that dies unexpectedly, and passes SIGTERM/SIGINT on so every worker finishes its calls before exiting.
 */
function runCluster(workers: number): void {
  let stopping = false;
  const started = new Map<number, number>();
  const fork = () => {
    const w = cluster.fork();
    started.set(w.id, Date.now());
  };
  for (let i = 0; i < workers; i++) fork();
  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (started.get(w.id) ?? 0);
    started.delete(w.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`quarry: worker ${w.process.pid} exited (${signal ?? code}); starting another\n`);
    // A worker that dies at once (bad config, database down at start) is retried after a pause, not in a tight loop.
    setTimeout(fork, lived < 5000 ? 1000 : 0);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** `export NAME='value'` lines for `eval "$(npx quarry … --export)"` (values are ids and keys: no quote inside). */
function exportLines(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([k, v]) => `export ${k}='${v.replace(/'/g, `'\\''`)}'`)
    .join('\n');
}

const EXAMPLES = `
Examples:
  $ eval "$(npx quarry accounts create --credits 1000 --export)"     # QUARRY_ACCOUNT and QUARRY_KEY in this shell
  $ eval "$(npx quarry keys create --account $QUARRY_ACCOUNT --test --export)"   # QUARRY_TEST_KEY: samples, free
  $ npx quarry accounts list
  $ npx quarry keys list --account $QUARRY_ACCOUNT
  $ npx quarry credits add --account $QUARRY_ACCOUNT --amount 500
  $ npx quarry users create --account $QUARRY_ACCOUNT --email you@example.com --password-stdin   # a dashboard login
  $ npx quarry invites create --credits 100                          # prints the sign-up address to send

The commands work on the data directory of the server (QUARRY_DATA_DIR, or the one the last \`npm start\` used),
or on QUARRY_DATABASE_URL. Every command takes --json for one JSON object on stdout.`;

export function buildCli(): Command {
  const program = new Command('quarry')
    .description('Operate a Quarry server: accounts, keys, credits, people and invites; serve it; sign a computer in.')
    .version(VERSION, '-V, --version', 'print the version of Quarry')
    .addHelpText('after', EXAMPLES);

  program
    .command('serve')
    .description('start the API server (same as npm start)')
    .option('--workers <n>', 'server processes sharing the port (node:cluster); more than 1 needs QUARRY_DATABASE_URL', positiveInt('--workers'), 1)
    .action(async (o: { workers: number }) => {
      if (cluster.isWorker || o.workers === 1) {
        const { serve } = await import('../server/main.js');
        await serve();
        return;
      }
      const config = loadConfig();
      if (!config.databaseUrl) {
        fail(
          `--workers ${o.workers} needs a shared database: set QUARRY_DATABASE_URL=postgres://… (one process owns the embedded SQLite file, so several workers cannot share it)`,
          false,
        );
      }
      // Refused here, once, rather than by every worker the primary would then keep restarting.
      const secretProblem = sharedSecretProblem(config);
      if (secretProblem) fail(secretProblem, false);
      if (!config.redisUrl) {
        process.stderr.write('quarry: QUARRY_REDIS_URL is not set: each worker keeps its own cache, rate limits and in-flight counts\n');
      }
      runCluster(o.workers);
    });

  program
    .command('parse <file>')
    .description('convert a PDF, .docx, .xlsx, .pptx or HTML file to markdown (the web.parse converter, in a worker)')
    .option('--max-pages <n>', 'read at most this many PDF pages, sheets or slides (1-100)', positiveInt('--max-pages'), 100)
    .option('--json', 'print the Parse result as one JSON object')
    .action(async (file: string, o: { maxPages: number; json?: boolean }) => {
      const { readFile } = await import('node:fs/promises');
      const { ParsePool } = await import('../parse/pool.js');
      if (o.maxPages > 100) fail('--max-pages must be between 1 and 100', !!o.json);
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (e) {
        fail(`cannot read ${file}: ${(e as Error).message}`, !!o.json);
      }
      const pool = new ParsePool({ size: 1 });
      try {
        const r = await pool.convert(new Uint8Array(bytes), o.maxPages);
        process.stdout.write(o.json ? JSON.stringify(r) + '\n' : r.markdown);
      } catch (e) {
        fail((e as Error).message, !!o.json);
      } finally {
        await pool.close();
      }
    });

  const accounts = program.command('accounts').description('create and inspect accounts');
  accounts
    .command('create')
    .description('create an account with a default key')
    .requiredOption('--credits <n>', 'starting balance', positiveInt('--credits', true))
    .option('--email <email>', 'contact address')
    .option('--json', 'print one JSON object')
    .option('--export', 'print shell lines setting QUARRY_ACCOUNT and QUARRY_KEY: eval "$(npx quarry accounts create --credits 1000 --export)"')
    .action(async (o: { credits: number; email?: string; json?: boolean; export?: boolean }) => {
      const r = await withData(({ accounts }) => accounts.createAccount({ credits: o.credits, email: o.email ?? null }));
      if (o.export && !o.json) {
        process.stdout.write(exportLines({ QUARRY_ACCOUNT: r.accountId, QUARRY_KEY: r.apiKey }) + '\n');
        process.stderr.write(`quarry: account ${r.accountId} with ${r.credits} credits; its default key is in $QUARRY_KEY (shown once: keep it)\n`);
        return;
      }
      print(!!o.json, r, `account ${r.accountId} with ${r.credits} credits\ndefault key ${r.keyId}: ${r.apiKey}\n(store the key now; it is shown once here)`);
    });
  accounts
    .command('list')
    .description('every account with its balance and keys')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }) => {
      const list = await withData(({ store }) => store.listAccounts());
      const human = list.length
        ? list.map((a) => `${a.id}${a.email ? ` <${a.email}>` : ''} ${a.balance} credits, ${a.keys} key${a.keys === 1 ? '' : 's'}${a.revokedKeys ? ` (+${a.revokedKeys} revoked)` : ''}`).join('\n')
        : 'no accounts yet: npx quarry accounts create --credits 1000';
      print(!!o.json, { accounts: list }, human);
    });
  accounts
    .command('show <id>')
    .description('balance and keys of an account (never a whole key)')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { json?: boolean }) => {
      const view = await withData(({ store }) => store.getAccount(id));
      if (!view) fail(`no account with id ${id}`, !!o.json);
      const human = [`account ${view.id}${view.email ? ` <${view.email}>` : ''}`, `balance ${view.balance} credits`]
        .concat(view.keys.map((k) => `key ${k.id} "${k.name}" ${k.prefix}…${k.test ? ' test' : ''}${k.revoked ? ' revoked' : ''}`))
        .join('\n');
      print(!!o.json, { accountId: view.id, email: view.email, balance: view.balance, credits: view.balance, createdAt: view.createdAt, keys: view.keys }, human);
    });

  const keys = program.command('keys').description('create and revoke keys');
  keys
    .command('create')
    .description('create a key for an account')
    .requiredOption('--account <id>', 'account id')
    .option('--name <name>', 'a label shown in logs')
    .option('--test', 'a test-mode key (qry_test_…): recorded samples, no real credits spent')
    .option('--json', 'print one JSON object')
    .option('--export', 'print a shell line setting QUARRY_KEY (QUARRY_TEST_KEY with --test), for eval "$(…)"')
    .action(async (o: { account: string; name?: string; test?: boolean; json?: boolean; export?: boolean }) => {
      const r = await withData(async ({ store, accounts }) => {
        if (!(await store.getAccount(o.account))) return null;
        return accounts.createKey({ accountId: o.account, name: o.name, test: !!o.test });
      });
      if (!r) fail(`no account with id ${o.account}`, !!o.json);
      if (o.export && !o.json) {
        const name = r.test ? 'QUARRY_TEST_KEY' : 'QUARRY_KEY';
        process.stdout.write(exportLines({ [name]: r.apiKey }) + '\n');
        process.stderr.write(`quarry: ${r.test ? 'test-mode ' : ''}key ${r.keyId} is in $${name} (shown once: keep it)\n`);
        return;
      }
      print(!!o.json, { keyId: r.keyId, apiKey: r.apiKey, name: r.name, test: r.test }, `key ${r.keyId}: ${r.apiKey}`);
    });
  keys
    .command('list')
    .description("an account's keys: ids, names, first characters (never a whole key), test or live, revoked")
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print one JSON object')
    .action(async (o: { account: string; json?: boolean }) => {
      const view = await withData(({ store }) => store.getAccount(o.account));
      if (!view) fail(`no account with id ${o.account}`, !!o.json);
      const human = view.keys.length
        ? view.keys.map((k) => `${k.id} "${k.name}" ${k.prefix}…${k.test ? ' test' : ''}${k.revoked ? ' revoked' : ''} created ${k.createdAt}`).join('\n')
        : 'no keys';
      print(!!o.json, { accountId: view.id, keys: view.keys }, human);
    });
  keys
    .command('revoke <keyId>')
    .description('revoke a key; calls with it fail from now on')
    .option('--json', 'print one JSON object')
    .action(async (keyId: string, o: { json?: boolean }) => {
      const ok = await withData(({ store }) => store.revokeKey(keyId));
      if (!ok) fail(`no key with id ${keyId}`, !!o.json);
      print(!!o.json, { keyId, revoked: true }, `key ${keyId} revoked`);
    });

  const credits = program.command('credits').description('manage balances');
  credits
    .command('add')
    .description('add credits to an account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--amount <n>', 'credits to add', positiveInt('--amount'))
    .option('--json', 'print one JSON object')
    .action(async (o: { account: string; amount: number; json?: boolean }) => {
      const balance = await withData(({ store }) => store.addCredits(o.account, o.amount, 'operator'));
      if (balance === null) fail(`no account with id ${o.account}`, !!o.json);
      print(!!o.json, { accountId: o.account, added: o.amount, balance }, `account ${o.account}: balance ${balance} credits`);
    });

  program.addCommand(budgetCommands());

  registerUserCommands(program);
  registerInviteCommands(program);
  registerLoginCommands(program);
  return program;
}

buildCli()
  .parseAsync(process.argv)
  .catch((e: unknown) => fail(e instanceof Error ? e.message : String(e), process.argv.includes('--json')));
