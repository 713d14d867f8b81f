/**
 * Running a source's operations in-process against the replay double: a real upstream client (timeouts, SSRF guard,
 * overrides) whose every recorded host is sent to the double, as QUARRY_UPSTREAM_OVERRIDES does for a gateway.
 */
import { compileRecordCheck } from '../../src/catalogue/records.js';
import { compileInput } from '../../src/catalogue/validator.js';
import { upstreamOverrides } from '../../src/config.js';
import { findOperation } from '../../src/sources/registry.js';
import type { Operation, SourceContext } from '../../src/sources/types.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import type { Replay } from './replay.js';

export interface LiveContext {
  ctx: SourceContext;
  close(): Promise<void>;
}

/** A source context whose upstream requests go to `replay` (plus `extraHosts`), with these operator settings. */
export function liveContext(source: string, replay: Replay, settings: Record<string, string> = {}, extraHosts: string[] = []): LiveContext {
  const http = createUpstreamClient({
    source,
    retries: 0,
    timeoutMs: 5000,
    ssrfAllow: ['127.0.0.1'],
    overrides: upstreamOverrides(replay.overrides(extraHosts)),
  });
  return {
    ctx: { signal: new AbortController().signal, http, log: { info() {}, warn() {}, error() {} }, settings },
    close: () => http.close(),
  };
}

/** The operation serving an endpoint id (fails the test loudly when there is none). */
export function operationOf(endpointId: string): Operation {
  const found = findOperation(endpointId);
  if (!found) throw new Error(`no operation serves ${endpointId}`);
  return found.operation;
}

/**
 * Runs an endpoint as the pipeline would, minus billing: the body validated (defaults filled), the live operation,
 * then the answer checked against the endpoint's record schema (drift is an error here too).
 */
export async function runLive(endpointId: string, body: Record<string, unknown>, ctx: SourceContext): Promise<{ data: any; items?: number; free?: boolean }> {
  const op = operationOf(endpointId);
  const input = compileInput(op.endpoint.input)(structuredClone(body));
  const out = await op.run(input, ctx);
  const wrong = op.endpoint.output ? compileRecordCheck(op.endpoint.output)(out.data) : null;
  if (wrong) throw new Error(`${endpointId}: the answer does not fit its record: ${wrong}`);
  return out;
}

/** The test-mode answer for a body, validated the same way. */
export async function runSample(endpointId: string, body: Record<string, unknown>): Promise<{ data: any; items?: number; free?: boolean }> {
  const op = operationOf(endpointId);
  return op.sample(compileInput(op.endpoint.input)(structuredClone(body)));
}
