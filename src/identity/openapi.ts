/**
 * The account side's part of OpenAPI (GET /openapi.json): sign-in, account, keys, usage, logs, budgets, the request
 * log and CLI login. Bodies are the very schemas the routes validate with (./api-schemas.ts). Built into the document
 * by the one generator (src/openapi/generator.ts); test/gateway/openapi.test.ts checks every registered route is in it.
 */
import {
  CLI_SESSION_BODY,
  CLI_TOKEN_BODY,
  CREATE_KEY_BODY,
  EMPTY_BODY,
  REVEAL_KEY_BODY,
  SIGNIN_BODY,
  SIGNOUT_BODY,
  SIGNUP_BODY,
} from './api-schemas.js';
import { arrayOf, bool, envelope, int, isoTime, obj, str, type Method, type OperationSpec, type Param, type Part, type PathSpecs, type Schema } from '../openapi/generator.js';
import { BUDGET, LOGS_A, LOGS_A_PARAMS, REQUEST_ID_PARAM, REQUEST_LOG_ENTRY, REQUEST_LOG_PAGE, REQUEST_LOG_PARAMS, USAGE, USAGE_PARAMS } from '../openapi/records.js';
import { SESSION_COOKIE } from './session-guard.js';

interface AccountOperation {
  id: string;
  summary: string;
  security: 'none' | 'session' | 'session-or-key';
  body?: Schema;
  data: Schema;
  params?: Param[];
  errors: string;
}

const csrfHeader = { name: 'X-CSRF-Token', in: 'header' as const, schema: str, description: 'the csrfToken of GET /v1/auth/session' };

/** Everything on the account side is free; state-changing calls made with a session carry the CSRF token. */
function operation(method: Method, o: AccountOperation): OperationSpec {
  const changes = method !== 'get' && o.security !== 'none';
  // Not needed when a key authenticates instead of the session.
  const csrf = changes ? [{ ...csrfHeader, required: o.security === 'session' }] : [];
  return {
    id: o.id,
    summary: o.summary,
    description: `${o.errors}${changes ? ' State-changing calls with a session need `X-CSRF-Token`.' : ''}`,
    tag: 'account',
    credits: 0,
    security: o.security,
    params: [...(o.params ?? []), ...csrf],
    ...(o.body ? { body: { schema: o.body } } : {}),
    answers: { '200': { description: 'Success envelope', json: envelope(o.data, false) } },
    failures: 'envelope',
  };
}

const user = obj({ id: str, email: str });
const keyView = obj({ id: str, name: str, prefix: str, test: bool, revoked: bool, createdAt: isoTime, lastUsedAt: { type: ['string', 'null'], format: 'date-time' } });
const keyIdParam: Param = { name: 'keyId', in: 'path', schema: str };
const sessionIdParam: Param = { name: 'sessionId', in: 'path', schema: str };

const paths: PathSpecs = {
  '/v1/auth/signup': {
    post: operation('post', {
      id: 'auth.signup',
      summary: 'Sign up with an invite code; sets the session cookie',
      security: 'none',
      body: SIGNUP_BODY,
      data: obj({ user, account: obj({ id: str, balance: int }), apiKey: obj({ id: str, name: str, key: str }) }),
      errors: 'notFound (unknown code), inviteDisabled, inviteExpired, inviteUsedUp, inviteClaimed, invalidRequest, rateLimited.',
    }),
  },
  '/v1/auth/signin': {
    post: operation('post', {
      id: 'auth.signin',
      summary: 'Sign in with e-mail and password; sets the session cookie',
      security: 'none',
      body: SIGNIN_BODY,
      data: obj({ user }),
      errors: 'unauthorized (wrong e-mail or password), rateLimited (too many attempts, with Retry-After).',
    }),
  },
  '/v1/auth/signout': {
    post: operation('post', {
      id: 'auth.signout',
      summary: 'Sign out here, or everywhere',
      security: 'session',
      body: SIGNOUT_BODY,
      data: obj({ signedOut: int }),
      errors: 'forbidden (CSRF).',
    }),
  },
  '/v1/auth/session': {
    get: operation('get', {
      id: 'auth.session',
      summary: 'The signed-in person, the account and the CSRF token',
      security: 'session',
      data: obj({ user, account: obj({ id: str, balance: int, billingUrl: str }), csrfToken: str }),
      errors: 'unauthorized (no session).',
    }),
  },
  '/v1/account': {
    get: operation('get', {
      id: 'account.show',
      summary: 'The account: balance, billing link',
      security: 'session-or-key',
      data: obj({ id: str, email: { type: ['string', 'null'] }, balance: int, billingUrl: str, createdAt: isoTime, key: obj({ id: str, name: str, test: bool }) }),
      errors: 'unauthorized.',
    }),
  },
  '/v1/account/keys': {
    get: operation('get', { id: 'account.keys.list', summary: 'The keys, never whole', security: 'session', data: obj({ keys: arrayOf(keyView) }), errors: 'unauthorized.' }),
    post: operation('post', {
      id: 'account.keys.create',
      summary: 'Create a named key; the whole key is in the answer',
      security: 'session',
      body: CREATE_KEY_BODY,
      data: obj({ id: str, name: str, prefix: str, test: bool, createdAt: isoTime, key: str }),
      errors: 'invalidRequest, unauthorized, forbidden (CSRF).',
    }),
  },
  '/v1/account/keys/{keyId}/reveal': {
    post: operation('post', {
      id: 'account.keys.reveal',
      summary: 'The whole key, after re-entering the password',
      security: 'session',
      params: [keyIdParam],
      body: REVEAL_KEY_BODY,
      data: obj({ id: str, key: str }),
      errors: 'forbidden (wrong password or CSRF), notFound, rateLimited.',
    }),
  },
  '/v1/account/keys/{keyId}/revoke': {
    post: operation('post', {
      id: 'account.keys.revoke',
      summary: 'Revoke a key (a key may also revoke itself)',
      security: 'session-or-key',
      params: [keyIdParam],
      body: EMPTY_BODY,
      data: obj({ id: str, revoked: { const: true } }),
      errors: 'notFound, forbidden.',
    }),
  },
  '/v1/account/usage': {
    get: operation('get', {
      id: 'account.usage',
      summary: 'Usage totals per endpoint, day and tag (as GET /v1/usage)',
      security: 'session',
      params: USAGE_PARAMS,
      data: USAGE,
      errors: 'invalidRequest, unauthorized.',
    }),
  },
  '/v1/account/budgets': {
    get: operation('get', {
      id: 'account.budgets',
      summary: "The account's budgets with what they spent, hold and have left this period",
      security: 'session',
      data: obj({ budgets: arrayOf(BUDGET) }),
      errors: 'unauthorized.',
    }),
    put: operation('put', {
      id: 'account.budgets.set',
      summary: 'Create or change the budget of a key or tag for a day or month (UTC)',
      security: 'session',
      body: {
        type: 'object',
        required: ['scope', 'target', 'period', 'limitCredits'],
        properties: {
          scope: { type: 'string', enum: ['key', 'tag'] },
          target: { type: 'string', description: 'a key id, or a tag' },
          period: { type: 'string', enum: ['day', 'month'] },
          limitCredits: { type: 'integer', minimum: 0 },
        },
        additionalProperties: false,
      },
      data: BUDGET,
      errors: 'invalidRequest (names the field and rule), unauthorized, forbidden (CSRF).',
    }),
  },
  '/v1/account/budgets/{budgetId}': {
    delete: operation('delete', {
      id: 'account.budgets.delete',
      summary: 'Remove a budget',
      security: 'session',
      params: [{ name: 'budgetId', in: 'path', schema: str }],
      data: obj({ id: str, deleted: bool }),
      errors: 'notFound, unauthorized, forbidden (CSRF).',
    }),
  },
  '/v1/account/logs': {
    get: operation('get', {
      id: 'account.logs',
      summary: 'Paid calls, newest first, 50 a page (as GET /v1/logs variant A)',
      security: 'session',
      params: [...LOGS_A_PARAMS, { name: 'keyId', in: 'query', schema: str, description: 'only this key (apiKeyId is taken too)' }],
      data: LOGS_A,
      errors: 'invalidRequest, unauthorized.',
    }),
  },
  '/v1/account/request-log': {
    get: operation('get', {
      id: 'account.requestLog',
      summary: "Every call of the account's keys, failed ones included, newest first, 50 a page (as GET /v1/request-log)",
      security: 'session',
      params: REQUEST_LOG_PARAMS,
      data: REQUEST_LOG_PAGE,
      errors: 'invalidRequest (names the filter), unauthorized.',
    }),
  },
  '/v1/account/request-log/{requestId}': {
    get: operation('get', {
      id: 'account.requestLog.show',
      summary: 'One request of the request log, and where a paid answer can be fetched again',
      security: 'session',
      params: [REQUEST_ID_PARAM],
      data: REQUEST_LOG_ENTRY,
      errors: 'notFound, unauthorized.',
    }),
  },
  '/v1/cli/sessions': {
    post: operation('post', {
      id: 'cli.sessions.create',
      summary: 'Start a CLI login (PKCE-style S256 challenge)',
      security: 'none',
      body: CLI_SESSION_BODY,
      data: obj({ sessionId: str, approvalUrl: str, verificationCode: str, expiresAt: isoTime, pollIntervalSeconds: int }),
      errors: 'cliSessionExists, invalidCliSession (malformed sessionId), invalidRequest, rateLimited.',
    }),
  },
  '/v1/cli/sessions/{sessionId}': {
    get: operation('get', {
      id: 'cli.sessions.show',
      summary: 'A CLI login, for its approval page',
      security: 'session',
      params: [sessionIdParam],
      data: obj({ sessionId: str, name: str, verificationCode: str, status: { type: 'string', enum: ['pending', 'approved', 'completed', 'expired'] }, createdAt: isoTime, expiresAt: isoTime }),
      errors: 'cliSessionNotFound, invalidCliSession, unauthorized.',
    }),
  },
  '/v1/cli/sessions/{sessionId}/approve': {
    post: operation('post', {
      id: 'cli.sessions.approve',
      summary: "Approve a CLI login for the signed-in person's account",
      security: 'session',
      params: [sessionIdParam],
      body: EMPTY_BODY,
      data: obj({ sessionId: str, status: { const: 'approved' } }),
      errors: 'cliSessionNotFound, invalidCliSession (expired), cliSessionCompleted, forbidden (CSRF).',
    }),
  },
  '/v1/cli/sessions/{sessionId}/token': {
    post: operation('post', {
      id: 'cli.sessions.token',
      summary: 'Exchange the verifier for a new named key, once',
      security: 'none',
      params: [sessionIdParam],
      body: CLI_TOKEN_BODY,
      data: obj({ apiKey: str, keyId: str, name: str, accountId: str, email: { type: ['string', 'null'] } }),
      errors:
        'invalidCliVerifier, cliSessionNotFound, cliSessionCompleted, invalidCliSession (expired; or retryable while not yet approved).',
    }),
  },
};

export function accountSideOpenApi(): Part {
  return {
    tags: [{ name: 'account', description: 'The account side: sign-in, the account, keys, usage, logs, budgets, the request log and CLI login (docs/account-api.md). Free.' }],
    paths,
    // The session cookie, next to the bearer key scheme.
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
  };
}
