/**
 * A source's gateway tests without their scaffolding: the replay double, a gateway whose upstream hosts all go to it
 * (QUARRY_UPSTREAM_OVERRIDES, QUARRY_OUTBOUND_ALLOW 127.0.0.1), an account with a live key and a test key, its
 * balance, and the checks every source's gateway table makes:
 *
 * - `expectDrift` / `expectRefused` / `expectFailure`: a call fails with this status and code, unbilled;
 * - `expectTestMode`: a block of calls goes nowhere upstream and spends nothing;
 * - `expectExamples`: every catalogue example of a source answers 200 to the test key.
 *
 * ```ts
 * describe('acme through the gateway', () => {
 *   const g = useSourceGateway(() => ({ replay: acmeReplay(), hosts: ACME_HOSTS, env: { QUARRY_ACME_TOKEN: 't' } }));
 *   it('live', async () => expect((await g.post('/v1/acme/search', { query: 'x' })).json.creditsUsed).toBe(1));
 *   it('test mode', () => g.expectTestMode(() => g.expectExamples('acme')));
 *   it('drift', () => g.expectDrift('/v1/acme/item', { item: '1', maxAge: 0 }, (name, body) => body.replace('"id"', '"ID"')));
 * });
 * ```
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { ENDPOINTS } from '../../src/catalogue/endpoints/index.js';
import type { EndpointDef } from '../../src/catalogue/types.js';
import { post, startGateway, type CallOptions, type CallResponse, type TestGateway } from './gateway.js';
import { startReplay, type Replay, type ReplayOptions, type Seen } from './replay.js';

/** Rewrites a recording on its way out (see `ReplayOptions.mutate`): a drifted or walled upstream. */
export type Mutate = (name: string, body: string) => string;

/** Who calls: the account's live key, its test key, no key at all, or options of one's own (headers, another key). */
export type Caller = 'live' | 'test' | 'anonymous' | CallOptions;

export interface SourceGatewayOptions {
  /** The replay double: options to start one (closed with the gateway), or a running one its caller owns and closes. */
  replay: ReplayOptions | Replay;
  /** Hosts beyond the recorded ones that the override sends to the double (`replay.overrides(hosts)`). */
  hosts?: string[];
  /** More gateway settings: the operator's credentials, QUARRY_UPSTREAM_RETRIES, rate limits. */
  env?: Record<string, string>;
  /** The account's opening balance in credits (100). */
  credits?: number;
}

/** A failure a call must end in; `code` and `message` are checked when given. */
export interface ExpectedFailure {
  status: number;
  code?: string;
  message?: string;
  /** Installed on the double for this call only (the previous rewrite is put back after, even when the call throws). */
  mutate?: Mutate;
  /** Who calls (`live` unless said). */
  as?: Caller;
}

export interface SourceGateway {
  replay: Replay;
  gateway: TestGateway;
  /** The gateway's base address (`http://127.0.0.1:port`). */
  url: string;
  /** The settings the gateway started with: the overrides, QUARRY_OUTBOUND_ALLOW and `env` (to start a sibling). */
  env: Record<string, string>;
  accountId: string;
  /** The account's live key. */
  key: string;
  /** The account's test key (`qry_test_…`): answers from the samples. */
  testKey: string;
  /** The account's balance now. */
  balance(): Promise<number>;
  /** POSTs a JSON body to `path` as `as` says (the live key unless said). */
  post(path: string, body: unknown, as?: Caller): Promise<CallResponse>;
  /** Calls and expects the failure: its status, code and message where given, and the balance unchanged. */
  expectFailure(path: string, body: unknown, expected: ExpectedFailure): Promise<CallResponse>;
  /** Drift: 502 `sourceChanged`, unbilled; `mutate` (the drifted upstream) installed for this call only. */
  expectDrift(path: string, body: unknown, mutate?: Mutate): Promise<CallResponse>;
  /** A wall or a refusal: 502 `sourceRefused`, unbilled; `mutate` (the walled upstream) for this call only. */
  expectRefused(path: string, body: unknown, mutate?: Mutate): Promise<CallResponse>;
  /**
   * Runs `calls` (test-mode calls) and expects that they sent nothing upstream and spent no credits. `counts` picks
   * the requests that count (the source's own host), where a stray request from elsewhere could reach the double.
   */
  expectTestMode<T>(calls: () => Promise<T>, counts?: (request: Seen) => boolean): Promise<T>;
  /**
   * Calls the catalogue example of each endpoint (a source's id prefix, `bluesky`, or a list) with the test key and
   * expects 200 from each; `check` asserts more of each answer. Answers by endpoint id, in order.
   */
  expectExamples(endpoints: string | readonly EndpointDef[], check?: (r: CallResponse, def: EndpointDef) => void): Promise<Map<string, CallResponse>>;
  /** Closes the gateway, then the double when it started it. */
  close(): Promise<void>;
}

/** The data path of an endpoint: `bluesky.profile` → `/v1/bluesky/profile`. */
export const pathOf = (id: string): string => `/v1/${id.replaceAll('.', '/')}`;

/** The catalogue's endpoints of a source (`bluesky` → every `bluesky.*` declaration). */
export const endpointsOf = (source: string): EndpointDef[] => ENDPOINTS.filter((d) => d.id.startsWith(`${source}.`));

const isRunning = (r: ReplayOptions | Replay): r is Replay => 'seen' in r;

/** Starts the double (unless given one), the gateway and the account. */
export async function startSourceGateway(options: SourceGatewayOptions): Promise<SourceGateway> {
  const owned = !isRunning(options.replay);
  const replay = isRunning(options.replay) ? options.replay : await startReplay(options.replay);
  let gateway: TestGateway | undefined;
  try {
    const env = { QUARRY_UPSTREAM_OVERRIDES: replay.overrides(options.hosts), QUARRY_OUTBOUND_ALLOW: '127.0.0.1', ...options.env };
    gateway = await startGateway(env);
    const account = await gateway.accounts.createAccount({ credits: options.credits ?? 100 });
    const testKey = (await gateway.accounts.createKey({ accountId: account.accountId, test: true })).apiKey;
    return sourceGateway(replay, gateway, env, account.accountId, account.apiKey, testKey, owned);
  } catch (e) {
    await gateway?.close();
    if (owned) await replay.close();
    throw e;
  }
}

/**
 * `startSourceGateway` for a describe block: started before its tests, closed after them. The options are read when
 * the block starts (so they may name a double an enclosing block started). The fields are there once it started.
 */
export function useSourceGateway(options: SourceGatewayOptions | (() => SourceGatewayOptions)): SourceGateway {
  const g = {} as SourceGateway;
  beforeAll(async () => {
    Object.assign(g, await startSourceGateway(typeof options === 'function' ? options() : options));
  });
  afterAll(async () => {
    await g.close?.();
  });
  return g;
}

function sourceGateway(replay: Replay, gateway: TestGateway, env: Record<string, string>, accountId: string, key: string, testKey: string, ownsReplay: boolean): SourceGateway {
  const balance = async () => (await gateway.gateway.deps.store.getAccount(accountId))!.balance;
  const options = (as: Caller): CallOptions => (as === 'live' ? { key } : as === 'test' ? { key: testKey } : as === 'anonymous' ? {} : as);
  const call = (path: string, body: unknown, as: Caller = 'live') => post(gateway.url, path, body, options(as));

  async function expectFailure(path: string, body: unknown, expected: ExpectedFailure): Promise<CallResponse> {
    const before = await balance();
    const previous = replay.mutate;
    if (expected.mutate) replay.mutate = expected.mutate;
    let r: CallResponse;
    try {
      r = await call(path, body, expected.as);
    } finally {
      if (expected.mutate) replay.mutate = previous;
    }
    const got: unknown[] = [r.status];
    const want: unknown[] = [expected.status];
    if (expected.code !== undefined) {
      got.push(r.json?.error?.code);
      want.push(expected.code);
    }
    if (expected.message !== undefined) {
      got.push(r.json?.error?.message);
      want.push(expected.message);
    }
    expect(got, `${path} ${JSON.stringify(body)}: ${r.text.slice(0, 200)}`).toEqual(want);
    expect(await balance(), `${path} ${JSON.stringify(body)} is unbilled`).toBe(before);
    return r;
  }

  return {
    replay,
    gateway,
    url: gateway.url,
    env,
    accountId,
    key,
    testKey,
    balance,
    post: call,
    expectFailure,
    expectDrift: (path, body, mutate) => expectFailure(path, body, { status: 502, code: 'sourceChanged', mutate }),
    expectRefused: (path, body, mutate) => expectFailure(path, body, { status: 502, code: 'sourceRefused', mutate }),
    async expectTestMode(calls, counts = () => true) {
      const before = await balance();
      const from = replay.seen.length;
      const out = await calls();
      expect(replay.seen.slice(from).filter(counts), 'test mode sends nothing upstream').toEqual([]);
      expect(await balance(), 'test mode spends no credits').toBe(before);
      return out;
    },
    async expectExamples(endpoints, check) {
      const defs = typeof endpoints === 'string' ? endpointsOf(endpoints) : endpoints;
      expect(defs.length, `endpoints of ${String(endpoints)}`).toBeGreaterThan(0);
      const answers = new Map<string, CallResponse>();
      for (const def of defs) {
        const r = await call(pathOf(def.id), def.example, 'test');
        expect(r.status, `${def.id}: ${r.text.slice(0, 200)}`).toBe(200);
        check?.(r, def);
        answers.set(def.id, r);
      }
      return answers;
    },
    async close() {
      await gateway.close();
      if (ownsReplay) await replay.close();
    },
  };
}
