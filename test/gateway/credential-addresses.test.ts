/**
 * Issue 30.6: the container credential addresses join the cloud metadata ones on the never-allowed list: refused
 * (400, before any connection) though the operator's QUARRY_OUTBOUND_ALLOW covers their range.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post, startGateway, type TestGateway } from '../helpers/gateway.js';

describe('the never-allowed addresses (issue 30.6)', () => {
  let gw: TestGateway;
  let apiKey: string;
  beforeAll(async () => {
    // An operator letting an internal service through: all of link-local and fd00::/8.
    gw = await startGateway({ QUARRY_OUTBOUND_ALLOW: '169.254.0.0/16,fd00::/8', QUARRY_UPSTREAM_TIMEOUT_MS: '1000', QUARRY_UPSTREAM_RETRIES: '0' });
    apiKey = (await gw.accounts.createAccount({ credits: 10 })).apiKey;
  });
  afterAll(() => gw.close());

  it.each(['http://169.254.170.2', 'http://169.254.170.23', 'http://[fd00:ec2::23]', 'http://[::ffff:169.254.170.2]', 'http://169.254.169.254'])(
    'the container and cloud credential address %s is refused though its range is allowed',
    async (store) => {
      const r = await post(gw.url, '/v1/shopify/store', { store }, { key: apiKey });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'invalidRequest', message: 'url: points to a private or reserved address', retryable: false });
    },
  );
});
