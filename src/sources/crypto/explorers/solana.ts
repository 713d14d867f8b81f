/**
 * Solana wallets over JSON-RPC (docs: solana.com/docs/rpc): `getBalance` and `getSignaturesForAddress`, paged with
 * its `before` signature. The public endpoint is tightly rate-limited; QUARRY_CRYPTO_SOLANA_RPC_URL points at the
 * operator's own RPC (providers put their key in that address, so it is a credential and never logged).
 */
import { QuarryError } from '../../../errors.js';
import type { TRANSFER, WALLET } from '../../../catalogue/endpoints/crypto.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { compact, int, isoFromSeconds, readsOf, num, obj, str } from '../../kit/read.js';
import type { SourceContext } from '../../types.js';
import { badCursor, getJson, invalid, needsSetting } from '../http.js';
import { fromBaseUnits } from '../values.js';

export type Transfer = TypeOf<typeof TRANSFER>;
export type Wallet = TypeOf<typeof WALLET>;

const PUBLIC_RPC = 'https://api.mainnet-beta.solana.com';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const LAMPORTS = 9;
/** JSON-RPC "invalid params": a malformed address or signature. */
const INVALID_PARAMS = -32602;

const { need, changed } = readsOf('crypto', 'Solana RPC');

export function rpcUrl(settings: SourceContext['settings']): string {
  const url = settings.SOLANA_RPC_URL?.trim() || PUBLIC_RPC;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw needsSetting('QUARRY_CRYPTO_SOLANA_RPC_URL is not an http(s) address');
  return url;
}

class RpcError extends Error {
  constructor(readonly code: number | undefined, message: string) {
    super(message);
  }
}

async function rpc(ctx: SourceContext, method: string, params: unknown[]): Promise<unknown> {
  const res = await getJson(ctx, {
    url: rpcUrl(ctx.settings),
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = obj(res.body);
  if (!body) throw changed(`${method} answer is not an object`);
  const error = obj(body.error);
  if (error) throw new RpcError(int(error.code), str(error.message) ?? 'error');
  if (!('result' in body)) throw changed(`${method} answer without result`);
  return body.result;
}

export function transfer(v: unknown): Transfer {
  const s = obj(v);
  if (!s) throw changed('signature entry that is not an object');
  const signature = need(str(s.signature), 'signature entry without a signature');
  return compact({
    type: 'transfer' as const,
    id: signature,
    chain: 'solana',
    hash: signature,
    url: `https://solscan.io/tx/${signature}`,
    createdAt: isoFromSeconds(s.blockTime),
    block: int(s.slot),
    status: s.err === null || s.err === undefined ? ('success' as const) : ('failed' as const),
    memo: str(s.memo),
  });
}

/** `s~<signature>`: the oldest signature answered, sent back as `before`. */
export function walletCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const m = /^s~([1-9A-HJ-NP-Za-km-z]{64,88})$/.exec(cursor);
  if (!m) throw badCursor();
  return m[1];
}

export async function walletPage(
  ctx: SourceContext,
  address: string,
  limit: number,
  cursor: string | undefined,
): Promise<{ wallet: Wallet; transactions: Transfer[]; cursor?: string }> {
  if (!BASE58.test(address) || address.length < 32 || address.length > 44) throw invalid('wallet', 'must be a Solana address (32-44 base58 characters)');
  const before = walletCursor(cursor);
  try {
    const [balance, signatures] = await Promise.all([
      rpc(ctx, 'getBalance', [address, { commitment: 'confirmed' }]),
      rpc(ctx, 'getSignaturesForAddress', [address, { limit, commitment: 'confirmed', ...(before ? { before } : {}) }]),
    ]);
    const lamports = need(num(obj(balance)?.value), 'getBalance answer without value');
    if (!Array.isArray(signatures)) throw changed('getSignaturesForAddress answer is not a list');
    const transactions = signatures.slice(0, limit).map(transfer);
    const last = transactions[transactions.length - 1];
    const next = transactions.length === limit && last ? `s~${last.hash}` : undefined;
    const wallet = compact({
      chain: 'solana',
      address,
      url: `https://solscan.io/account/${address}`,
      balance: { amount: fromBaseUnits(String(lamports), LAMPORTS) ?? 0, symbol: 'SOL' },
    });
    return { wallet, transactions, ...(next && next.length <= 128 ? { cursor: next } : {}) };
  } catch (e) {
    if (e instanceof RpcError) {
      if (e.code === INVALID_PARAMS) throw before ? badCursor('the Solana RPC refused this cursor or address') : invalid('wallet', 'the Solana RPC refused this address');
      throw new QuarryError('sourceUnavailable', `crypto: the Solana RPC answered error ${e.code ?? '?'}: ${e.message.slice(0, 200)}`);
    }
    throw e;
  }
}

