/**
 * The account side's part of OpenAPI (GET /openapi.json): sign-in, account, keys, usage, logs and CLI login. Bodies
 * are the very schemas the routes validate with (./api-schemas.ts); test/account/openapi.test.ts checks every
 * registered account-side route is listed here.
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

type Security = 'none' | 'session' | 'session-or-key';

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const iso = { type: 'string', format: 'date-time' };
const obj = (properties: Record<string, unknown>) => ({ type: 'object', properties });

interface OperationSpec {
  id: string;
  summary: string;
  security: Security;
  body?: Record<string, unknown>;
  data: Record<string, unknown>;
  params?: { name: string; in: 'path' | 'query'; schema: Record<string, unknown>; required?: boolean }[];
  errors: string;
}

function operation(o: OperationSpec, errorResponse: Record<string, unknown>): Record<string, unknown> {
  const security =
    o.security === 'none' ? [] : o.security === 'session' ? [{ session: [] }] : [{ session: [] }, { bearer: [] }];
  // POSTs made with a session carry the CSRF token (not needed when a key authenticates instead).
  const csrf = o.body && o.security !== 'none' ? [{ ...csrfHeader, required: o.security === 'session' }] : [];
  const params = [...(o.params ?? []).map((p) => ({ required: p.in === 'path', ...p })), ...csrf];
  return {
    operationId: o.id,
    summary: o.summary,
    description: `${o.errors}${o.security !== 'none' ? ' State-changing calls with a session need `X-CSRF-Token`.' : ''}`,
    tags: ['account'],
    security,
    ...(params.length ? { parameters: params } : {}),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
    responses: {
      '200': {
        description: 'Success envelope',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['success', 'data', 'requestId'],
              properties: { success: { const: true }, data: o.data, requestId: str },
            },
          },
        },
      },
      '4XX': errorResponse,
      '5XX': errorResponse,
    },
  };
}

const user = obj({ id: str, email: str });
const keyView = obj({ id: str, name: str, prefix: str, test: bool, revoked: bool, createdAt: iso, lastUsedAt: { type: ['string', 'null'], format: 'date-time' } });
const keyIdParam = { name: 'keyId', in: 'path' as const, schema: str };
const budget = obj({
  id: str,
  scope: str,
  target: str,
  period: str,
  limitCredits: int,
  spentCredits: int,
  heldCredits: int,
  remainingCredits: int,
  periodStart: iso,
  resetsAt: iso,
  createdAt: iso,
});
const sessionIdParam = { name: 'sessionId', in: 'path' as const, schema: str };
const csrfHeader = { name: 'X-CSRF-Token', in: 'header', required: true, schema: str };

/** The paths, their error responses using the document's error envelope schema. */
export function accountSidePaths(errorSchema: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const errorResponse = { description: 'Error envelope', content: { 'application/json': { schema: errorSchema } } };
  const op = (o: OperationSpec) => operation(o, errorResponse);
  return {
  '/v1/auth/signup': {
    post: op({
      id: 'auth.signup',
      summary: 'Sign up with an invite code; sets the session cookie',
      security: 'none',
      body: SIGNUP_BODY,
      data: obj({ user, account: obj({ id: str, balance: int }), apiKey: obj({ id: str, name: str, key: str }) }),
      errors: 'notFound (unknown code), inviteDisabled, inviteExpired, inviteUsedUp, inviteClaimed, invalidRequest, rateLimited.',
    }),
  },
  '/v1/auth/signin': {
    post: op({
      id: 'auth.signin',
      summary: 'Sign in with e-mail and password; sets the session cookie',
      security: 'none',
      body: SIGNIN_BODY,
      data: obj({ user }),
      errors: 'unauthorized (wrong e-mail or password), rateLimited (too many attempts, with Retry-After).',
    }),
  },
  '/v1/auth/signout': {
    post: op({
      id: 'auth.signout',
      summary: 'Sign out here, or everywhere',
      security: 'session',
      body: SIGNOUT_BODY,
      data: obj({ signedOut: int }),
      errors: 'forbidden (CSRF).',
    }),
  },
  '/v1/auth/session': {
    get: op({
      id: 'auth.session',
      summary: 'The signed-in person, the account and the CSRF token',
      security: 'session',
      data: obj({ user, account: obj({ id: str, balance: int, billingUrl: str }), csrfToken: str }),
      errors: 'unauthorized (no session).',
    }),
  },
  '/v1/account': {
    get: op({
      id: 'account.show',
      summary: 'The account: balance, billing link',
      security: 'session-or-key',
      data: obj({ id: str, email: { type: ['string', 'null'] }, balance: int, billingUrl: str, createdAt: iso, key: obj({ id: str, name: str, test: bool }) }),
      errors: 'unauthorized.',
    }),
  },
  '/v1/account/keys': {
    get: op({ id: 'account.keys.list', summary: 'The keys, never whole', security: 'session', data: obj({ keys: { type: 'array', items: keyView } }), errors: 'unauthorized.' }),
    post: op({
      id: 'account.keys.create',
      summary: 'Create a named key; the whole key is in the answer',
      security: 'session',
      body: CREATE_KEY_BODY,
      data: obj({ id: str, name: str, prefix: str, test: bool, createdAt: iso, key: str }),
      errors: 'invalidRequest, unauthorized, forbidden (CSRF).',
    }),
  },
  '/v1/account/keys/{keyId}/reveal': {
    post: op({
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
    post: op({
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
    get: op({
      id: 'account.usage',
      summary: 'Usage totals per endpoint, day and tag (as GET /v1/usage)',
      security: 'session',
      params: [
        { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 90, default: 30 } },
        { name: 'tag', in: 'query', schema: str },
      ],
      data: obj({ calls: int, credits: int, byEndpoint: { type: 'array' }, byDay: { type: 'array' }, byTag: { type: 'array' }, budgets: { type: 'array' } }),
      errors: 'invalidRequest, unauthorized.',
    }),
  },
  '/v1/account/budgets': {
    get: op({
      id: 'account.budgets',
      summary: "The account's budgets with what they spent, hold and have left this period",
      security: 'session',
      data: obj({ budgets: { type: 'array', items: budget } }),
      errors: 'unauthorized.',
    }),
    put: op({
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
      data: budget,
      errors: 'invalidRequest (names the field and rule), unauthorized, forbidden (CSRF).',
    }),
  },
  '/v1/account/budgets/{budgetId}': {
    delete: op({
      id: 'account.budgets.delete',
      summary: 'Remove a budget',
      security: 'session',
      params: [{ name: 'budgetId', in: 'path', schema: str }],
      data: obj({ id: str, deleted: bool }),
      errors: 'notFound, unauthorized, forbidden (CSRF).',
    }),
  },
  '/v1/account/logs': {
    get: op({
      id: 'account.logs',
      summary: 'Paid calls, newest first, 50 a page (as GET /v1/logs variant A)',
      security: 'session',
      params: [
        { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 90, default: 7 } },
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0 } },
        { name: 'endpoint', in: 'query', schema: str },
        { name: 'keyId', in: 'query', schema: str },
        { name: 'tag', in: 'query', schema: str },
      ],
      data: obj({ logs: { type: 'array' }, endpoints: { type: 'array' }, page: int, pageSize: int, total: int, totalPages: int }),
      errors: 'invalidRequest, unauthorized.',
    }),
  },
  '/v1/cli/sessions': {
    post: op({
      id: 'cli.sessions.create',
      summary: 'Start a CLI login (PKCE-style S256 challenge)',
      security: 'none',
      body: CLI_SESSION_BODY,
      data: obj({ sessionId: str, approvalUrl: str, verificationCode: str, expiresAt: iso, pollIntervalSeconds: int }),
      errors: 'cliSessionExists, invalidCliSession (malformed sessionId), invalidRequest, rateLimited.',
    }),
  },
  '/v1/cli/sessions/{sessionId}': {
    get: op({
      id: 'cli.sessions.show',
      summary: 'A CLI login, for its approval page',
      security: 'session',
      params: [sessionIdParam],
      data: obj({ sessionId: str, name: str, verificationCode: str, status: { type: 'string', enum: ['pending', 'approved', 'completed', 'expired'] }, createdAt: iso, expiresAt: iso }),
      errors: 'cliSessionNotFound, invalidCliSession, unauthorized.',
    }),
  },
  '/v1/cli/sessions/{sessionId}/approve': {
    post: op({
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
    post: op({
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
}

/** The session cookie, next to the bearer key scheme. */
export const ACCOUNT_SIDE_SECURITY_SCHEMES = {
  session: { type: 'apiKey', in: 'cookie', name: 'quarry_session' },
};
