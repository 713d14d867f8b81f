/**
 * The API key's format, declared once (CONTRACT.md "Keys"): `qry_` and URL-safe characters; test-mode keys are
 * `qry_test_…`. Generated keys carry 32 characters (24 random bytes); what is accepted is 8 to 200 of them, so a
 * malformed key is refused before any store lookup. Authentication, MCP's key in the path, OpenAPI's parameter
 * pattern, key generation and the masking of keys in logs (src/http/redact.ts) all read it from here.
 */
import { randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'qry_';
export const TEST_KEY_PREFIX = 'qry_test_';

/** The characters after the prefix (URL-safe base64's), as a regular-expression class body. */
export const KEY_CHARS = 'A-Za-z0-9_-';

/** The accepted shape, as a JSON Schema / OpenAPI `pattern`. */
export const API_KEY_PATTERN = `^${KEY_PREFIX}[${KEY_CHARS}]{8,200}$`;
const API_KEY = new RegExp(API_KEY_PATTERN);

/** Whether `value` has the shape of an API key (not whether such a key exists). */
export function isKeyShaped(value: string): boolean {
  return API_KEY.test(value);
}

export function isTestKey(apiKey: string): boolean {
  return apiKey.startsWith(TEST_KEY_PREFIX);
}

export function generateApiKey(test: boolean): string {
  return (test ? TEST_KEY_PREFIX : KEY_PREFIX) + randomBytes(24).toString('base64url');
}
