/** `quarry budgets set|list|delete`: spend limits per key or tag, per day or month (enforced on every debit). */
import { Command, InvalidArgumentError } from 'commander';
import { setBudget } from '../budgets/budgets.js';
import { isQuarryError } from '../errors.js';
import { fail, print, withStore } from './common.js';

const wholeNumber = (raw: string): number => {
  if (!/^\d+$/.test(raw)) throw new InvalidArgumentError('--limit must be a whole number of credits');
  return Number(raw);
};

export function budgetCommands(): Command {
  const budgets = new Command('budgets').description('spend limits per key or tag, per day or month');
  budgets
    .command('set')
    .description('create or change a budget (one per account, key or tag, and period)')
    .requiredOption('--account <id>', 'account id')
    .option('--key <keyId>', 'limit what this key spends')
    .option('--tag <tag>', 'limit what calls carrying this tag spend')
    .requiredOption('--period <day|month>', 'calendar day or month, UTC')
    .requiredOption('--limit <credits>', 'credits the period may spend', wholeNumber)
    .option('--json', 'print one JSON object')
    .action(async (o: { account: string; key?: string; tag?: string; period: string; limit: number; json?: boolean }) => {
      const json = !!o.json;
      if (!o.key === !o.tag) fail('give exactly one of --key or --tag', json);
      try {
        const b = await withStore(async (s) => {
          if (!(await s.getAccount(o.account))) fail(`no account with id ${o.account}`, json);
          return setBudget(s, o.account, {
            scope: o.key ? 'key' : 'tag',
            target: o.key ?? o.tag,
            period: o.period,
            limitCredits: o.limit,
          });
        });
        print(json, b, `budget ${b.id}: ${b.scope} ${b.target}, ${b.limitCredits} credits per ${b.period}`);
      } catch (e) {
        if (isQuarryError(e)) fail(e.message, json);
        throw e;
      }
    });
  budgets
    .command('list')
    .description("an account's budgets with what they spent and have left this period")
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print one JSON object')
    .action(async (o: { account: string; json?: boolean }) => {
      const list = await withStore((s) => s.budgets(o.account, Date.now()));
      print(
        !!o.json,
        { accountId: o.account, budgets: list },
        list.length
          ? list
              .map((b) => `${b.id}  ${b.scope} ${b.target}  ${b.spentCredits}/${b.limitCredits} per ${b.period} (${b.remainingCredits} left, resets ${b.resetsAt})`)
              .join('\n')
          : 'no budgets',
      );
    });
  budgets
    .command('delete <budgetId>')
    .description('remove a budget')
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print one JSON object')
    .action(async (id: string, o: { account: string; json?: boolean }) => {
      const gone = await withStore((s) => s.deleteBudget(o.account, id));
      if (!gone) fail(`no budget ${id} in account ${o.account}`, !!o.json);
      print(!!o.json, { id, deleted: true }, `budget ${id} deleted`);
    });
  return budgets;
}
