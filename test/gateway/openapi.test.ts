/**
 * Issue 37.5: `GET /openapi.json`, as a gateway on loopback serves it, passes Spectral's `spectral:oas` ruleset with
 * no error, and documents every route Fastify registers; every operation carries `x-credits` and every tag is
 * declared. The routes are read as Fastify registers them (an `onRoute` hook on the app the composition root makes).
 */
import { Document, Spectral, type ISpectralDiagnostic } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { get, startGateway, type TestGateway } from '../helpers/gateway.js';

const registered = vi.hoisted(() => [] as { method: string; url: string }[]);

// Every app made by `Fastify(…)` records its routes as they are registered.
vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof import('fastify')>();
  const make = ((options?: Parameters<typeof real.default>[0]) => {
    const app = real.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registered.push({ method: String(method).toUpperCase(), url: route.url });
    });
    return app;
  }) as typeof real.default;
  return { ...real, default: make, fastify: make };
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** `/v1/mcp/:apiKey`, `/dashboard/*` and `/v1/mcp/{apiKey}`, `/dashboard/{path}` alike: parameters unnamed. */
const shape = (url: string) => url.replace(/:[^/]+|\*|\{[^}]+\}/g, '{}');
/** A concrete address for a route, to ask it. */
const concrete = (url: string) => url.replace(/:[^/]+|\*/g, 'x');

type Operation = Record<string, any>;

describe('GET /openapi.json', () => {
  let gw: TestGateway;
  let text: string;
  let doc: { paths: Record<string, Record<string, Operation>>; tags: { name: string; description: string }[] };
  let operations: { method: string; path: string; op: Operation }[];

  beforeAll(async () => {
    gw = await startGateway();
    const r = await get(gw.url, '/openapi.json');
    expect(r.status).toBe(200);
    text = r.text;
    doc = r.json;
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => METHODS.includes(m))
        .map(([m, op]) => ({ method: m.toUpperCase(), path, op })),
    );
  });
  afterAll(() => gw?.close());

  it("passes Spectral's spectral:oas ruleset with no error (the one warning: /dashboard/, the dashboard's own address, ends with a slash)", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as any, 'recommended']] });
    const results: ISpectralDiagnostic[] = await spectral.run(new Document(text, Json, '/openapi.json'));
    const show = (d: ISpectralDiagnostic) => `${d.code} at ${d.path.join('.')}: ${d.message}`;
    expect(results.filter((d) => d.severity === 0).map(show)).toEqual([]);
    const warnings = results.filter((d) => d.severity === 1);
    expect(warnings.filter((d) => !(d.code === 'path-keys-no-trailing-slash' && d.path.join('.') === 'paths./dashboard/')).map(show)).toEqual([]);
  });

  it('documents every route Fastify registers; a method that is only refused (405 with Allow) is not an operation', async () => {
    expect(registered.length).toBeGreaterThan(operations.length); // the hook saw the app being built
    const documented = new Set(operations.map((o) => `${o.method} ${shape(o.path)}`));
    const methodsAt = (url: string) => operations.filter((o) => shape(o.path) === shape(url)).map((o) => o.method);
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const { method, url } of registered) {
      const key = `${method} ${shape(url)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (documented.has(key)) continue;
      // Fastify answers HEAD with the GET route's handler.
      if (method === 'HEAD' && documented.has(`GET ${shape(url)}`)) continue;
      // Another method on a documented path, answered 405 naming the documented ones (data, legacy and MCP paths).
      const r = await gw.gateway.app.inject({ method: method as 'GET', url: concrete(url) });
      const allow = String(r.headers.allow ?? '').split(/,\s*/).filter(Boolean);
      if (r.statusCode === 405 && allow.length && allow.every((m) => methodsAt(url).includes(m))) continue;
      missing.push(`${key} (answered ${r.statusCode})`);
    }
    expect(missing).toEqual([]);
    // Those the issue named, among them.
    for (const op of ['GET /v1/usage', 'GET /v1/logs', 'GET /v1/catalogue', 'POST /v1/mcp', 'POST /v1/mcp/{apiKey}', 'GET /v1/request-log']) {
      expect(documented.has(shape(op)), op).toBe(true);
    }
  });

  it('documents no route the server does not have', () => {
    for (const { method, path } of operations) {
      const url = path.replace(/\{(\w+)\}/g, ':$1').replace(/^\/dashboard\/:path$/, '/dashboard/*');
      expect(gw.gateway.app.hasRoute({ method: method as 'GET', url }), `${method} ${path}`).toBe(true);
    }
  });

  it('every operation carries x-credits, a whole number: its price, 0 for a free one', () => {
    const catalogue = gw.gateway.deps.catalogue;
    for (const { method, path, op } of operations) {
      const where = `${method} ${path}`;
      expect(Number.isInteger(op['x-credits']) && op['x-credits'] >= 0, where).toBe(true);
      const endpoint = catalogue.get(op.operationId);
      if (endpoint) expect(op['x-credits'], where).toBe(endpoint.def.credits);
      else if (op.tags[0] !== 'legacy') expect(op['x-credits'], `${where} is free`).toBe(0);
    }
  });

  it('every operation has one tag, and every tag is declared with a description', () => {
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    expect(declared.size).toBe(doc.tags.length);
    for (const { method, path, op } of operations) {
      expect(op.tags, `${method} ${path}`).toHaveLength(1);
      expect(declared.get(op.tags[0]), `${method} ${path}: tag ${op.tags[0]}`).toEqual(expect.any(String));
    }
  });
});
