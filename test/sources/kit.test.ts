/**
 * The source kit: the registry agrees with the catalogue (a typo fails at start-up), test-mode pages come from the
 * samples by cursor, result counts come from the declaration, QUARRY_UPSTREAM_OVERRIDES sends a host's requests to
 * another base through the guard, and the replay double answers recorded requests by what identifies them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/catalogue/endpoints/index.js';
import { endpoint, limit, plainCursor, text } from '../../src/catalogue/fields.js';
import { list, literal, rec, str } from '../../src/catalogue/records.js';
import { upstreamOverrides } from '../../src/config.js';
import { operation } from '../../src/sources/kit/operation.js';
import { answerFromSamples, type SampleSet } from '../../src/sources/kit/samples.js';
import { checkRegistry, SOURCES } from '../../src/sources/registry.js';
import type { SourceModule } from '../../src/sources/types.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { failure } from '../helpers/failure.js';
import { haveRecordings, skipReason, startReplay, type Replay } from '../helpers/replay.js';

const ITEM = rec({ type: literal('thing'), id: str });
const things = endpoint({
  id: 'kit.things',
  title: 'Things',
  summary: 'A test endpoint.',
  credits: 1,
  perItems: 10,
  cacheTtlSeconds: 60,
  fields: { query: text(1, 10), limit: limit(1, 50, 20), cursor: plainCursor(1, 100) },
  required: ['query'],
  itemsField: 'things',
  example: { query: 'a' },
  output: rec({ things: list(ITEM) }, { cursor: str }),
});

const SET: SampleSet = {
  _provenance: { note: 'test' },
  pages: [
    { data: { things: [{ type: 'thing', id: '1' }, { type: 'thing', id: '2' }, { type: 'thing', id: '3' }], cursor: 'p2' } },
    { request: { cursor: 'p2' }, data: { things: [{ type: 'thing', id: '4' }], cursor: 'p3' } },
  ],
};

describe('registry and catalogue', () => {
  it('the registry agrees with the catalogue: every operation is declared, every endpoint served or explained', () => {
    expect(checkRegistry(ENDPOINTS)).toEqual([]);
  });

  it('an operation for an undeclared endpoint, or an endpoint with neither operation nor reason, is named', () => {
    const stray: SourceModule = {
      id: 'kit',
      operations: [operation(things, { run: async () => ({ data: { things: [] } }), samples: SET })],
    };
    const problems = checkRegistry([...ENDPOINTS, { ...things, id: 'kit.other' }], [...SOURCES, stray]);
    expect(problems).toContain('source kit: operation kit.things serves an endpoint the catalogue does not list');
    expect(problems).toContain('kit.other has no operation and no reason why');
  });

  it('a reason for an endpoint that does not exist is a typo too', () => {
    const typo: SourceModule = { id: 'kit', operations: [], notBuilt: { 'kit.thngs': 'later' } };
    expect(checkRegistry([things], [typo])).toEqual([
      'source kit: notBuilt names kit.thngs, which the catalogue does not declare',
      'kit.things has no operation and no reason why',
    ]);
  });
});

describe('operations and test-mode samples', () => {
  const op = operation(things, { run: async () => ({ data: { things: [{ type: 'thing' as const, id: 'x' }] } }), samples: SET });

  it('counts results from the declared itemsField', async () => {
    const out = await op.run({ query: 'a', limit: 20 }, undefined as never);
    expect(out.items).toBe(1);
  });

  it('pages: no cursor → the first page; its cursor → the next; a cursor past the recordings → an empty, free last page', () => {
    expect(answerFromSamples(things, SET, { limit: 20 }).data).toEqual(SET.pages[0].data);
    expect(answerFromSamples(things, SET, { limit: 20, cursor: 'p2' }).data).toEqual(SET.pages[1].data);
    const end = answerFromSamples(things, SET, { limit: 20, cursor: 'p3' });
    expect(end).toEqual({ data: { things: [] }, items: 0, free: true });
  });

  it('limit cuts a page, and the count follows', () => {
    const out = answerFromSamples(things, SET, { limit: 2 });
    expect(out.items).toBe(2);
    expect((out.data as { things: unknown[] }).things).toHaveLength(2);
    expect(SET.pages[0].data.things).toHaveLength(3); // the sample itself is untouched
  });

  it('an operation with neither samples nor a sample() of its own is refused when declared', () => {
    expect(() => operation(things, { run: async () => ({ data: { things: [] } }) })).toThrow(/samples/);
  });
});

describe('QUARRY_UPSTREAM_OVERRIDES', () => {
  let server: http.Server;
  let base = '';
  const seen: Array<{ url: string; host?: string; forwarded?: string }> = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', host: req.headers.host, forwarded: req.headers['x-forwarded-host'] as string | undefined });
      if (req.url?.startsWith('/moved')) {
        res.writeHead(302, { location: `${base}/landed?x=1` });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('parses host=base pairs and refuses anything else, naming the entry', () => {
    expect([...upstreamOverrides('www.youtube.com=http://127.0.0.1:9000, api.example.com:8443=https://mirror.internal/base/')]).toEqual([
      ['www.youtube.com', 'http://127.0.0.1:9000/'],
      ['api.example.com:8443', 'https://mirror.internal/base/'],
    ]);
    for (const bad of ['www.youtube.com', 'x=ftp://a', 'x=http://a/?q=1', '=http://a', 'a b=http://c']) {
      expect(() => upstreamOverrides(bad), bad).toThrow(/QUARRY_UPSTREAM_OVERRIDES/);
    }
  });

  it('sends the host’s requests to the base, path and query kept, naming the host; the answer keeps the upstream address', async () => {
    const client = createUpstreamClient({ source: 't', retries: 0, ssrfAllow: ['127.0.0.1'], overrides: upstreamOverrides(`www.example.com=${base}`) });
    try {
      seen.length = 0;
      const res = await client.request({ url: 'https://www.example.com/a/b?c=1&d=%20' });
      expect(res.json()).toEqual({ path: '/a/b?c=1&d=%20' });
      expect(seen[0].forwarded).toBe('www.example.com');
      expect(res.url).toBe('https://www.example.com/a/b?c=1&d=%20');
      // A mirror's redirect to itself stands for the upstream host.
      const moved = await client.request({ url: 'https://www.example.com/moved' });
      expect(moved.url).toBe('https://www.example.com/landed?x=1');
      expect(moved.json()).toEqual({ path: '/landed?x=1' });
    } finally {
      await client.close();
    }
  });

  it('an override the SSRF guard does not allow is a configuration error, not a caller error', async () => {
    const client = createUpstreamClient({ source: 't', retries: 0, overrides: upstreamOverrides(`www.example.com=${base}`) });
    try {
      const e = await failure(() => client.request({ url: 'https://www.example.com/x' }));
      expect(e.code).toBe('sourceUnavailable');
      expect(e.message).toMatch(/not allowed by QUARRY_OUTBOUND_ALLOW/);
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!haveRecordings('video'))(`the replay double${skipReason('video')}`, () => {
  let replay: Replay;
  beforeAll(async () => {
    replay = await startReplay({ folders: ['video'] });
  });
  afterAll(() => replay?.close());

  const post = (path: string, body: unknown, host = 'www.youtube.com') =>
    fetch(`${replay.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-host': host }, body: JSON.stringify(body) });

  it('answers a recorded request by its identifying fields, whatever the client context says', async () => {
    const res = await post('/youtubei/v1/search?prettyPrint=false', { context: { client: { hl: 'de' } }, query: 'test', params: 'EgIQAfABAQ%3D%3D' });
    expect(res.status).toBe(200);
    expect(replay.served().at(-1)).toBe('video/search-videos.page1.json');
  });

  it('a request no recording answers is a 404 and a miss', async () => {
    const before = replay.misses().length;
    const res = await post('/youtubei/v1/search', { query: 'never recorded' });
    expect(res.status).toBe(404);
    expect(replay.misses()).toHaveLength(before + 1);
  });

  it('lists the recorded hosts for the overrides', () => {
    expect(replay.hosts).toEqual(expect.arrayContaining(['www.youtube.com', 'music.youtube.com']));
    expect(replay.overrides()).toContain(`www.youtube.com=${replay.url}`);
  });
});
