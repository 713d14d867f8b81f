/**
 * The one error table. REST, MCP and the legacy convention all render from it, so a code's status, retryability
 * and legacy variant are declared exactly once (CONTRACT.md "Errors", "Legacy convention").
 */
export const ERRORS = {
  invalidRequest: { status: 400, retryable: false, legacy: 'INVALID_INPUT' },
  unauthorized: { status: 401, retryable: false, legacy: 'UNAUTHORIZED' },
  insufficientCredits: { status: 402, retryable: false, legacy: 'INSUFFICIENT_CREDITS' },
  forbidden: { status: 403, retryable: false, legacy: 'FORBIDDEN' },
  notFound: { status: 404, retryable: false, legacy: 'NOT_FOUND' },
  unsupportedMediaType: { status: 415, retryable: false, legacy: 'INVALID_INPUT' },
  rateLimited: { status: 429, retryable: true, legacy: 'RATE_LIMITED' },
  tooManyInFlight: { status: 429, retryable: true, legacy: 'RATE_LIMITED' },
  internalError: { status: 500, retryable: true, legacy: 'INTERNAL_ERROR' },
  sourceChanged: { status: 502, retryable: true, legacy: 'UPSTREAM_ERROR' },
  sourceRefused: { status: 502, retryable: true, legacy: 'UPSTREAM_ERROR' },
  sourceUnavailable: { status: 503, retryable: true, legacy: 'UPSTREAM_ERROR' },
  sourceTimeout: { status: 504, retryable: true, legacy: 'UPSTREAM_ERROR' },
  // Idempotency-Key: the first request with this key is still running; retry shortly (README "Security"). The
  // legacy convention has no such variant: its clients know "try again later" as RATE_LIMITED.
  idempotencyKeyInUse: { status: 409, retryable: true, legacy: 'RATE_LIMITED' },
  // The account side (docs/account-api.md): invites and CLI login.
  inviteDisabled: { status: 403, retryable: false, legacy: 'INVITE_DISABLED' },
  inviteClaimed: { status: 409, retryable: false, legacy: 'INVITE_CLAIMED' },
  inviteExpired: { status: 410, retryable: false, legacy: 'INVITE_EXPIRED' },
  inviteUsedUp: { status: 410, retryable: false, legacy: 'INVITE_USED_UP' },
  cliSessionNotFound: { status: 404, retryable: false, legacy: 'CLI_SESSION_NOT_FOUND' },
  invalidCliSession: { status: 400, retryable: false, legacy: 'INVALID_CLI_SESSION' },
  invalidCliVerifier: { status: 400, retryable: false, legacy: 'INVALID_CLI_VERIFIER' },
  cliSessionExists: { status: 409, retryable: false, legacy: 'CLI_SESSION_EXISTS' },
  cliSessionCompleted: { status: 409, retryable: false, legacy: 'CLI_SESSION_COMPLETED' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export interface ErrorExtras {
  retryable?: boolean;
  retryAfterSeconds?: number;
  requiredCredits?: number;
  availableCredits?: number;
  billingUrl?: string;
}

/** Thrown anywhere in the request path; rendered by the server's error handler. */
export class QuarryError extends Error {
  readonly code: ErrorCode;
  readonly extras: ErrorExtras;

  constructor(code: ErrorCode, message: string, extras: ErrorExtras = {}) {
    super(message);
    this.name = 'QuarryError';
    this.code = code;
    this.extras = extras;
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  get retryable(): boolean {
    return this.extras.retryable ?? ERRORS[this.code].retryable;
  }

  /** Seconds a client should wait; 0 when trying again is pointless. */
  get retryAfterSeconds(): number {
    if (this.extras.retryAfterSeconds !== undefined) return this.extras.retryAfterSeconds;
    return this.retryable ? 1 : 0;
  }
}

export function isQuarryError(e: unknown): e is QuarryError {
  return e instanceof QuarryError;
}

/** Anything thrown that is not ours becomes internalError; the original is logged, never shown. */
export function toQuarryError(e: unknown): QuarryError {
  if (isQuarryError(e)) return e;
  return new QuarryError('internalError', 'Something went wrong on our side; nothing was billed. Try again.');
}

/** JSON Schema of the error object `errorEnvelope` writes: OpenAPI's failure answers and MCP's failed tool calls. */
export const ERROR_OBJECT_PROPERTIES = {
  code: { type: 'string', enum: Object.keys(ERRORS) },
  message: { type: 'string' },
  retryable: { type: 'boolean' },
  requestId: { type: 'string' },
  retryAfterSeconds: { type: 'integer' },
  requiredCredits: { type: 'number' },
  availableCredits: { type: 'number' },
  billingUrl: { type: 'string' },
} as const;

/** The current convention's error envelope. */
export function errorEnvelope(err: QuarryError, requestId: string): Record<string, unknown> {
  const error: Record<string, unknown> = {
    code: err.code,
    message: err.message,
    retryable: err.retryable,
    requestId,
  };
  if (err.retryable || err.extras.retryAfterSeconds !== undefined) error.retryAfterSeconds = err.retryAfterSeconds;
  if (err.extras.requiredCredits !== undefined) error.requiredCredits = err.extras.requiredCredits;
  if (err.extras.availableCredits !== undefined) error.availableCredits = err.extras.availableCredits;
  if (err.extras.billingUrl !== undefined) error.billingUrl = err.extras.billingUrl;
  return { success: false, error };
}

/**
 * Statuses of the legacy variants (CONTRACT.md "Legacy convention"): every source failure is one UPSTREAM_ERROR 502,
 * every bad input one INVALID_INPUT 400. Variants the contract does not list keep their code's own status.
 */
const LEGACY_STATUS: Record<string, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_CREDITS: 402,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  UPSTREAM_ERROR: 502,
};

export function legacyStatus(err: QuarryError): number {
  return LEGACY_STATUS[ERRORS[err.code].legacy] ?? err.status;
}

/** The legacy flat convention (SPEC.md "Legacy convention"). */
export function legacyErrorBody(err: QuarryError): Record<string, unknown> {
  const message = err.code === 'unauthorized' ? 'Invalid or missing API key.' : err.message;
  return { success: false, code: ERRORS[err.code].legacy, error: message, details: null };
}
