/**
 * The crypto source: market data from CoinGecko, DEX pairs and listings from DexScreener, the pump.fun launchpad,
 * Binance announcements, and wallets and token holders from block explorers (Blockscout, Esplora, Solana RPC).
 */
import { CRYPTO } from '../../catalogue/endpoints/crypto.js';
import { operation } from '../kit/operation.js';
import type { SourceModule } from '../types.js';
import { announcements } from './binance/client.js';
import * as coingecko from './coingecko/operations.js';
import * as dex from './dexscreener/client.js';
import { holders, wallet } from './explorers/index.js';
import * as pumpfun from './pumpfun/client.js';
import binanceAnnouncements from './samples/binance.announcements.json' with { type: 'json' };
import categories from './samples/categories.json' with { type: 'json' };
import coinHistory from './samples/coin.history.json' with { type: 'json' };
import coin from './samples/coin.json' with { type: 'json' };
import dexNew from './samples/dex.new.json' with { type: 'json' };
import dexPairs from './samples/dex.pairs.json' with { type: 'json' };
import dexSearch from './samples/dex.search.json' with { type: 'json' };
import dexToken from './samples/dex.token.json' with { type: 'json' };
import movers from './samples/movers.json' with { type: 'json' };
import newCoins from './samples/new.json' with { type: 'json' };
import pumpfunCoin from './samples/pumpfun.coin.json' with { type: 'json' };
import pumpfunCoins from './samples/pumpfun.coins.json' with { type: 'json' };
import pumpfunTrades from './samples/pumpfun.trades.json' with { type: 'json' };
import tokenHolders from './samples/token.holders.json' with { type: 'json' };
import trending from './samples/trending.json' with { type: 'json' };
import walletSamples from './samples/wallet.json' with { type: 'json' };

const crypto: SourceModule = {
  id: 'crypto',
  needs: {
    settings: [
      {
        name: 'COINGECKO_KEY',
        required: false,
        purpose: 'a CoinGecko API key (demo or paid): higher rate limits; crypto.new and history older than 365 days need a paid one',
      },
      {
        name: 'COINGECKO_PLAN',
        required: false,
        purpose: 'demo (default with a key: api.coingecko.com, x-cg-demo-api-key) or pro (pro-api.coingecko.com, x-cg-pro-api-key)',
      },
      {
        name: 'SOLANA_RPC_URL',
        required: false,
        purpose: "crypto.wallet's Solana RPC address (a provider's address carries its key); default the rate-limited public endpoint",
      },
    ],
    // pump.fun (Cloudflare) and Binance (AWS WAF) turn many data-centre addresses away.
    proxy: 'advised',
  },
  operations: [
    operation(CRYPTO.trending, { run: (_i, ctx) => coingecko.trending(ctx), samples: trending }),
    operation(CRYPTO.categories, { run: (i, ctx) => coingecko.categories(ctx, i), samples: categories }),
    operation(CRYPTO.movers, { run: (i, ctx) => coingecko.movers(ctx, i), samples: movers }),
    operation(CRYPTO.new, { run: (i, ctx) => coingecko.newCoins(ctx, i), samples: newCoins }),
    operation(CRYPTO.dexSearch, { run: (i, ctx) => dex.search(ctx, i), samples: dexSearch }),
    operation(CRYPTO.dexPairs, { run: (i, ctx) => dex.pairs(ctx, i), samples: dexPairs }),
    operation(CRYPTO.dexToken, { run: (i, ctx) => dex.token(ctx, i), samples: dexToken }),
    operation(CRYPTO.dexNew, { run: (i, ctx) => dex.newTokens(ctx, i), samples: dexNew }),
    operation(CRYPTO.pumpfunCoins, { run: (i, ctx) => pumpfun.coins(ctx, i), samples: pumpfunCoins }),
    operation(CRYPTO.pumpfunCoin, { run: (i, ctx) => pumpfun.coin(ctx, i), samples: pumpfunCoin }),
    operation(CRYPTO.pumpfunTrades, { run: (i, ctx) => pumpfun.trades(ctx, i), samples: pumpfunTrades }),
    operation(CRYPTO.wallet, { run: (i, ctx) => wallet(ctx, i), samples: walletSamples }),
    operation(CRYPTO.tokenHolders, { run: (i, ctx) => holders(ctx, i), samples: tokenHolders }),
    operation(CRYPTO.binanceAnnouncements, { run: (i, ctx) => announcements(ctx, i), samples: binanceAnnouncements }),
    operation(CRYPTO.coin, { run: (i, ctx) => coingecko.coin(ctx, i), samples: coin }),
    operation(CRYPTO.coinHistory, { run: (i, ctx) => coingecko.history(ctx, i), samples: coinHistory }),
  ],
};

export default crypto;
