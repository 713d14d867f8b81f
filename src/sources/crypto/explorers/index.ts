/** crypto.wallet and crypto.token.holders: each chain to its explorer (Blockscout, Esplora, Solana RPC). */
import type { CRYPTO } from '../../../catalogue/endpoints/crypto.js';
import type { InputOf, OutputOf } from '../../../catalogue/types.js';
import type { OperationResult, SourceContext } from '../../types.js';
import { badCursor } from '../http.js';
import * as blockscout from './blockscout.js';
import * as esplora from './esplora.js';
import * as solana from './solana.js';

type Out<K extends keyof typeof CRYPTO> = Promise<OperationResult<OutputOf<(typeof CRYPTO)[K]>>>;

/** Each chain's cursors start with their own letter, so a cursor from another chain is refused, never misread. */
const CURSOR_PREFIX = { evm: 'e~', bitcoin: 'b~', solana: 's~' } as const;

export async function wallet(ctx: SourceContext, input: InputOf<typeof CRYPTO.wallet>): Out<'wallet'> {
  const kind = input.chain === 'bitcoin' ? 'bitcoin' : input.chain === 'solana' ? 'solana' : 'evm';
  if (input.cursor !== undefined && !input.cursor.startsWith(CURSOR_PREFIX[kind])) throw badCursor(`not a cursor of a ${input.chain} wallet`);
  const address = input.wallet.trim();
  const page =
    kind === 'bitcoin'
      ? await esplora.walletPage(ctx, address, input.limit, input.cursor)
      : kind === 'solana'
        ? await solana.walletPage(ctx, address, input.limit, input.cursor)
        : await blockscout.walletPage(ctx, input.chain as blockscout.EvmChain, address, input.limit, input.cursor);
  const empty = page.transactions.length === 0 && page.wallet.balance.amount === 0;
  return { data: page, ...(empty ? { free: true } : {}) };
}

export async function holders(ctx: SourceContext, input: InputOf<typeof CRYPTO.tokenHolders>): Out<'tokenHolders'> {
  const page = await blockscout.holders(ctx, input.chain, input.token, input.limit, input.cursor);
  return page.holders.length ? { data: page } : { data: page, free: true };
}
