/**
 * Answers given by more than one route, for the OpenAPI parts: usage (`/v1/usage`, `/v1/account/usage`), the paid
 * calls of variant A (`/v1/logs`, `/v1/account/logs`), the request log (`/v1/request-log`, `/v1/account/request-log`)
 * and budgets. The shapes are those of src/server/routes/usage.ts, src/server/routes/logs.ts and
 * src/server/request-log.ts.
 */
import { arrayOf, bool, int, isoTime, obj, str, type Param, type Schema } from './generator.js';

const nullable = (type: string, extra: Schema = {}): Schema => ({ type: [type, 'null'], ...extra });

export const BUDGET: Schema = obj({
  id: str,
  scope: { type: 'string', enum: ['key', 'tag'] },
  target: str,
  period: { type: 'string', enum: ['day', 'month'] },
  limitCredits: int,
  spentCredits: int,
  heldCredits: int,
  remainingCredits: int,
  periodStart: isoTime,
  resetsAt: isoTime,
  createdAt: isoTime,
});

const totals = (key: string): Schema => arrayOf(obj({ [key]: str, calls: int, credits: int }, [key, 'calls', 'credits']));

/** Empty listings and absent values are left out (src/render/prune.ts). */
export const USAGE: Schema = obj({
  from: isoTime,
  to: isoTime,
  days: int,
  tag: str,
  mode: { type: 'string', enum: ['live', 'test'] },
  live: obj({ calls: int, credits: int }),
  test: obj({ calls: int, credits: int }),
  calls: int,
  credits: int,
  byEndpoint: totals('endpoint'),
  byDay: totals('day'),
  byTag: totals('tag'),
  budgets: arrayOf(BUDGET),
});

export const USAGE_PARAMS: Param[] = [
  { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 90, default: 30 } },
  { name: 'tag', in: 'query', schema: str, description: 'only calls with this tag' },
  { name: 'mode', in: 'query', schema: { type: 'string', enum: ['live', 'test'] }, description: 'only live keys, or only test keys (reported prices, nothing spent)' },
];

/** Variant A of the logs (SPEC.md "Logs endpoint"): not wrapped in an envelope. */
export const LOGS_A: Schema = obj(
  {
    logs: arrayOf(
      obj({
        id: str,
        createdAt: isoTime,
        endpoint: str,
        credits: int,
        apiKeyId: nullable('string'),
        apiKeyName: nullable('string'),
        method: { const: 'POST' },
        status: { const: 200 },
        response: { const: 'success' },
        durationMs: nullable('integer'),
        cache: str,
        test: bool,
        channel: str,
        tags: arrayOf(str),
      }),
    ),
    endpoints: { ...arrayOf(str), description: 'every endpoint id, served ones first' },
    page: int,
    pageSize: { const: 50 },
    total: int,
    totalPages: int,
  },
  ['logs', 'endpoints', 'page', 'pageSize', 'total', 'totalPages'],
);

/** Variant B of the logs: `{success, requestId, data}`, numbers as strings. */
export const LOGS_B: Schema = obj(
  {
    success: { const: true },
    requestId: str,
    data: obj({
      logs: arrayOf(
        obj({
          id: str,
          userId: str,
          apiKeyId: nullable('string'),
          apiKeyName: nullable('string'),
          endpoint: { type: 'string', description: 'a path such as /reddit/subforum' },
          method: { const: 'POST' },
          credits: str,
          durationMs: nullable('string'),
          response: { const: 'success' },
          createdAt: isoTime,
          status: { const: 200 },
        }),
      ),
      total: int,
      page: int,
      pageSize: { const: 50 },
      totalPages: int,
      endpoints: { ...arrayOf(str), description: 'every endpoint as a path' },
    }),
  },
  ['success', 'requestId', 'data'],
);

export const LOGS_A_PARAMS: Param[] = [
  { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 90, default: 7 } },
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
  { name: 'endpoint', in: 'query', schema: str, description: 'an endpoint id such as web.search' },
  { name: 'tag', in: 'query', schema: str },
];

/** One request of the request log: every call of an account's keys, failed ones included. */
export const REQUEST_LOG_ENTRY: Schema = obj({
  id: { type: 'string', description: 'the request id (X-Request-ID)' },
  createdAt: isoTime,
  method: str,
  path: str,
  endpoint: nullable('string', { description: 'the endpoint id, the legacy path, or null when the request named none' }),
  channel: { type: 'string', enum: ['rest', 'mcp', 'legacy'] },
  status: int,
  ok: bool,
  error: obj({ code: str, message: nullable('string') }),
  durationMs: int,
  credits: int,
  cache: str,
  apiKeyId: str,
  apiKeyName: str,
  test: bool,
  tags: arrayOf(str),
  answerUrl: { type: 'string', description: "where a paid call's answer can be fetched again (GET /v1/requests/{requestId}); one entry only" },
});

export const REQUEST_LOG_PAGE: Schema = obj({
  requests: arrayOf(REQUEST_LOG_ENTRY),
  page: int,
  pageSize: { const: 50 },
  total: int,
  totalPages: int,
  days: int,
  keptDays: { type: 'integer', description: 'QUARRY_REQUEST_LOG_DAYS' },
});

export const REQUEST_LOG_PARAMS: Param[] = [
  { name: 'days', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 90, default: 7 } },
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
  { name: 'endpoint', in: 'query', schema: str, description: 'an endpoint id such as reddit.subforum' },
  { name: 'keyId', in: 'query', schema: str, description: 'only this key (apiKeyId is taken too)' },
  { name: 'tag', in: 'query', schema: str },
  { name: 'outcome', in: 'query', schema: { type: 'string', enum: ['ok', 'failed'] } },
  { name: 'mode', in: 'query', schema: { type: 'string', enum: ['live', 'test'] } },
];

export const REQUEST_ID_PARAM: Param = { name: 'requestId', in: 'path', schema: str };
