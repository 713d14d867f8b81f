/**
 * The request bodies of the account side's routes, as JSON Schema: compiled once for validation (unknown fields
 * rejected, each failure naming the field and the rule) and published unchanged in OpenAPI (./openapi.ts).
 */
import type { ObjectSchema } from '../catalogue/types.js';
import { PASSWORD_MAX } from './password.js';

const email = { type: 'string', format: 'email', maxLength: 254, description: 'e-mail address (compared lower-cased)' };
/** The length rules of a new password are checked after NFKC normalisation (src/identity/password.ts). */
const newPassword = { type: 'string', maxLength: PASSWORD_MAX * 4, description: 'at least 10, at most 200 characters' };
const password = { type: 'string', minLength: 1, maxLength: PASSWORD_MAX * 4 };
const keyName = {
  type: 'string',
  minLength: 1,
  maxLength: 50,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description: '1-50 characters, no control characters',
};

export const SIGNUP_BODY: ObjectSchema = {
  type: 'object',
  properties: {
    inviteCode: { type: 'string', minLength: 1, maxLength: 64 },
    email,
    password: newPassword,
  },
  required: ['inviteCode', 'email', 'password'],
  additionalProperties: false,
};

export const SIGNIN_BODY: ObjectSchema = {
  type: 'object',
  properties: { email, password },
  required: ['email', 'password'],
  additionalProperties: false,
};

export const SIGNOUT_BODY: ObjectSchema = {
  type: 'object',
  properties: { everywhere: { type: 'boolean', description: "end every one of this person's sessions" } },
  additionalProperties: false,
};

export const CREATE_KEY_BODY: ObjectSchema = {
  type: 'object',
  properties: { name: keyName, test: { type: 'boolean', description: 'a test-mode key (qry_test_…)' } },
  required: ['name'],
  additionalProperties: false,
};

export const REVEAL_KEY_BODY: ObjectSchema = {
  type: 'object',
  properties: { password },
  required: ['password'],
  additionalProperties: false,
};

export const EMPTY_BODY: ObjectSchema = { type: 'object', properties: {}, additionalProperties: false };

export const CLI_SESSION_BODY: ObjectSchema = {
  type: 'object',
  properties: {
    codeChallenge: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{43}$',
      description: 'base64url (no padding) SHA-256 of the code verifier: 43 characters',
    },
    codeChallengeMethod: { type: 'string', enum: ['S256'] },
    name: { ...keyName, description: 'name of the key the login creates (1-50 characters)' },
    sessionId: { type: 'string', description: 'optional id proposed by the client: 16-64 letters, digits, _ or -' },
  },
  required: ['codeChallenge', 'codeChallengeMethod'],
  additionalProperties: false,
};

export const CLI_TOKEN_BODY: ObjectSchema = {
  type: 'object',
  properties: { codeVerifier: { type: 'string', minLength: 1, maxLength: 256, description: 'the verifier (RFC 7636: 43-128 characters)' } },
  required: ['codeVerifier'],
  additionalProperties: false,
};
