/**
 * The parse endpoint for a test file's markdown rules: a gateway on loopback for the file's tests, and `md(bytes)`
 * posting the document to `POST /v1/web/parse` (keyless, every page read unless `maxPages` says) and returning the markdown. Rules are
 * tested where users meet them: through the HTTP endpoint and its worker pool, not the converter alone.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { b64 } from './files.js';

export function parseEndpoint(): (file: Uint8Array | string, maxPages?: number) => Promise<string> {
  let gw: TestGateway | undefined;
  beforeAll(async () => {
    gw = await startGateway({ QUARRY_KEYLESS_RATE_LIMIT_PER_MINUTE: '100000', QUARRY_MAX_IN_FLIGHT: '100' });
  });
  afterAll(async () => {
    await gw?.close();
  });
  return async (file, maxPages = 100) => {
    const r = await post(gw!.url, '/v1/web/parse', { file: b64(file), maxPages });
    expect(r.status, r.text).toBe(200);
    return r.json.data.markdown as string;
  };
}
