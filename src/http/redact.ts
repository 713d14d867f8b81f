/**
 * Addresses fit for a log line or an error message. Keys never reach either: a URL is decoded as the router decodes it
 * (`/v1/%6Dcp/%71ry_…` is the MCP path and a key), then the MCP path key and anything key-like are masked.
 */
import type { FastifyRequest } from 'fastify';
import { KEY_CHARS, KEY_PREFIX } from '../identity/key-format.js';

const KEY_IN_PATH = /\/v1\/mcp\/[^/?#]+/gi;
/** Anything key-like, of any length: a mistyped or cut key is masked too. */
const KEY_LIKE = new RegExp(`${KEY_PREFIX}[${KEY_CHARS}]+`, 'gi');
const ESCAPE = /%(2[0-9a-f]|[3-6][0-9a-f]|7[0-9a-e])/gi;

/** Percent-escapes of printable ASCII decoded, again and again while any is left (a doubly encoded path too). */
function decodePrintable(url: string): string {
  for (let round = 0; round < 8; round++) {
    const next = url.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === url) break;
    url = next;
  }
  return url;
}

/** A URL fit for a log line or an error message: decoded, then the MCP path key and anything key-like masked. */
export function redactUrl(url: string): string {
  return decodePrintable(url).replace(KEY_IN_PATH, '/v1/mcp/[redacted]').replace(KEY_LIKE, `${KEY_PREFIX}[redacted]`);
}

/** What a log line says of a request's address: the route it matched, else its path (no query), masked. */
export function loggedUrl(request: FastifyRequest): string {
  return request.routeOptions.url ?? redactUrl(request.url.split('?')[0]!);
}
