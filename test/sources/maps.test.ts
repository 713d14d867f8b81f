/**
 * maps against the recorded OpenStreetMap answers (shared/upstream/maps): Nominatim searches and reverse geocodes,
 * Overpass category and element answers, Overpass' /status slot pages. Every recording is read here. Also: the
 * public instances' policy (a contact in the User-Agent, or sourceUnavailable), attribution on every answer, the
 * honest empty reviews, drift and refusals through the gateway.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAPS } from '../../src/catalogue/endpoints/maps.js';
import { NO_REVIEWS } from '../../src/sources/maps/index.js';
import { mapsConfig, parseSlotWait } from '../../src/sources/maps/client.js';
import { distanceMeters, parsePlaceId } from '../../src/sources/maps/normalise.js';
import { failure } from '../helpers/failure.js';
import { get, post, startGateway, type TestGateway } from '../helpers/gateway.js';
import { haveRecordings, readRecording, readRecordingJson, skipReason, startReplay, type Replay, type ReplayRoute } from '../helpers/replay.js';
import { liveContext, runLive, runSample } from '../helpers/source-kit.js';

const SETTINGS = { CONTACT: 'ops@quarry.invalid', NOMINATIM_INTERVAL_MS: '0' };
const ATTRIBUTION = { text: '© OpenStreetMap contributors', licence: 'ODbL-1.0', url: 'https://www.openstreetmap.org/copyright' };
const OVERPASS = { method: 'POST', host: 'overpass-api.de', path: '/api/interpreter' } as const;
const overpassWith = (file: string, status = 200): ReplayRoute => ({ ...OVERPASS, file: `maps/overpass/${file}`, status });
const statusWith = (file: string): ReplayRoute => ({ method: 'GET', host: 'overpass-api.de', path: '/api/status', file: `maps/overpass/${file}` });

/** A replay of the Nominatim sidecars plus these routes, and a runner with the operator settings given. */
async function mapsReplay(routes: ReplayRoute[] = [], settings: Record<string, string> = SETTINGS) {
  const replay = await startReplay({ folders: ['maps/nominatim'], routes, ignoreQuery: ['limit', 'viewbox'] });
  const live = liveContext('maps', replay, settings, ['overpass-api.de', 'nominatim.internal.test', 'overpass.internal.test']);
  return {
    replay,
    run: (id: string, input: Record<string, unknown>) => runLive(id, input, live.ctx),
    close: async () => {
      await live.close();
      await replay.close();
    },
  };
}

/** The Overpass QL a request carried. */
const qlOf = (replay: Replay): string => new URLSearchParams(String(replay.seen.at(-1)?.body ?? '')).get('data') ?? '';

describe('maps pure parts (no recordings needed)', () => {
  it('place ids in every accepted spelling', () => {
    expect(parsePlaceId('node/855292284')).toEqual({ type: 'node', id: '855292284' });
    expect(parsePlaceId('W24981342')).toEqual({ type: 'way', id: '24981342' });
    expect(parsePlaceId('https://www.openstreetmap.org/relation/6518385')).toEqual({ type: 'relation', id: '6518385' });
  });

  it('distance is the great circle, in metres', () => {
    expect(distanceMeters({ latitude: 48.8606, longitude: 2.3376 }, { latitude: 48.8606, longitude: 2.3376 })).toBe(0);
    // Paris to London, about 344 km.
    expect(Math.round(distanceMeters({ latitude: 48.8566, longitude: 2.3522 }, { latitude: 51.5072, longitude: -0.1276 }) / 1000)).toBe(344);
  });

  it('the public instances need a contact; own instances do not; the contact goes into the User-Agent', async () => {
    const e = await failure(() => mapsConfig({}));
    expect(e.code).toBe('sourceUnavailable');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('QUARRY_MAPS_CONTACT');
    expect(mapsConfig({ CONTACT: 'ops@example.org' })).toMatchObject({ userAgent: 'quarry/0.1 (+ops@example.org)', intervalMs: 1000 });
    expect(mapsConfig({ NOMINATIM_URL: 'https://geo.internal/', OVERPASS_URL: 'https://op.internal/api' })).toEqual({
      nominatim: 'https://geo.internal',
      overpass: 'https://op.internal/api',
      userAgent: 'quarry/0.1',
      intervalMs: 0,
    });
  });

  it('maps.reviews: no reviews, the reason, the attribution, free, in both modes', async () => {
    const ctx = { settings: {} } as never;
    const live = await runLive('maps.reviews', { place: 'N855292284' }, ctx);
    expect(live).toEqual({ data: { place: 'node/855292284', reviews: [], note: NO_REVIEWS, attribution: ATTRIBUTION }, free: true });
    expect(await runSample('maps.reviews', { place: 'N855292284' })).toEqual(live);
  });

  it('test mode answers every maps example', async () => {
    for (const def of Object.values(MAPS)) {
      const out = await runSample(def.id, def.example ?? {});
      expect(out.data.attribution, def.id).toEqual(ATTRIBUTION);
    }
  });
});

describe('Overpass /status slot pages', () => {
  it.skipIf(!haveRecordings('maps'))(`give the wait for the next slot${skipReason('maps')}`, () => {
    expect(parseSlotWait(readRecording('maps/overpass/overpass_status_no_slots_waiting.txt'))).toBe(0);
    expect(parseSlotWait(readRecording('maps/overpass/overpass_status_one_slot_running.txt'))).toBe(0);
    expect(parseSlotWait(readRecording('maps/overpass/overpass_status_two_slots_waiting.txt'))).toBe(11);
    expect(parseSlotWait('garbage')).toBeUndefined();
  });
});

describe.skipIf(!haveRecordings('maps'))(`maps against the recorded OpenStreetMap answers${skipReason('maps')}`, () => {
  let m: Awaited<ReturnType<typeof mapsReplay>>;
  beforeAll(async () => {
    m = await mapsReplay([
      // osm.json has no sidecar: its request (README "maps") is Ottawa, Ontario on the public instance.
      { method: 'GET', host: 'nominatim.openstreetmap.org', path: '/search', query: { q: 'Ottawa, Ontario' }, file: 'maps/nominatim/osm.json' },
    ]);
  });
  afterAll(() => m?.close());

  it.each([
    [
      'search-jsonv2.hamburg-extratags.json',
      { query: 'Elbphilharmonie, Platz der deutschen Einheit 1, Hamburg' },
      {
        id: 'way/24981342',
        url: 'https://www.openstreetmap.org/way/24981342',
        name: 'Elbphilharmonie',
        category: 'attraction',
        osmTag: 'tourism=attraction',
        address: { street: 'Platz der Deutschen Einheit', houseNumber: '1', city: 'Hamburg', postalCode: '20457', country: 'DE' },
        geo: { latitude: 53.54129165, longitude: 9.984205766993528 },
        phone: '+49 40 3576660',
        website: 'https://www.elbphilharmonie.de/de/',
        email: 'info@elbphilharmonie.de',
        wheelchair: 'limited',
        operator: 'Stadt Hamburg',
        wikidata: 'Q673223',
      },
    ],
    ['search-jsonv2.brussels-address.json', { query: '1 Place des Palais 1000 bruxelles' }, { id: 'relation/3299902', osmTag: 'tourism=attraction', address: { country: 'BE' } }],
    ['search-jsonv2.warsaw-address.json', { query: 'woronicza 17, warszawa, polska' }, { osmTag: 'place=house', address: { country: 'PL' } }],
    ['search-jsonv2.palais-royal-countrycodes-be.json', { query: 'palais royal', country: 'BE' }, { name: 'Palais Royal - Koninklijk Paleis', address: { houseNumber: '1', postalCode: '1000', country: 'BE' } }],
    ['search-jsonv2.downing-st-accept-language-en.json', { query: '10 Downing St, London, UK', language: 'en' }, { address: { country: 'GB' } }],
    ['search-jsonv2.90210-postcode-no-osm-id.json', { query: '90210,United States' }, { id: 'nominatim/261099446', osmTag: 'place=postcode', address: { city: 'Beverly Hills', postalCode: '90210', country: 'US' } }],
    ['search-jsonv2.italia-viewbox-bounded.json', { query: 'Italia', latitude: -62.16, longitude: -58.48, radiusMeters: 3000 }, { id: 'way/62194430', name: 'Italia', osmTag: 'waterway=stream' }],
    ['osm.json', { query: 'Ottawa, Ontario' }, { id: 'relation/4136816', name: 'Ottawa', osmTag: 'place=city', address: { city: 'Ottawa', state: 'Ontario', country: 'CA' } }],
  ])('maps.search %s', async (file, input, first) => {
    const out = await m.run('maps.search', input);
    expect(m.replay.served().at(-1)).toContain(file);
    const raw = readRecordingJson(`maps/nominatim/${file}`);
    expect(out.data.places).toHaveLength(raw.length);
    expect(out.data.places[0]).toMatchObject({ type: 'place', ...first });
    expect(out.data.attribution).toEqual(ATTRIBUTION);
  });

  it('maps.search sends what the query asks: country codes, language, a bounded box around the point', async () => {
    await m.run('maps.search', { query: 'palais royal', country: 'be', language: 'fr' });
    const q = m.replay.seen.at(-1)!.query;
    expect(Object.fromEntries(q)).toMatchObject({ format: 'jsonv2', q: 'palais royal', countrycodes: 'be', 'accept-language': 'fr', addressdetails: '1', extratags: '1', limit: '10' });
    const near = await m.run('maps.search', { query: 'Italia', latitude: -62.16, longitude: -58.48, radiusMeters: 3000 });
    const box = m.replay.seen.at(-1)!.query;
    expect(box.get('bounded')).toBe('1');
    const [left, top, right, bottom] = box.get('viewbox')!.split(',').map(Number);
    expect(left).toBeLessThan(-58.48);
    expect(right).toBeGreaterThan(-58.48);
    expect(top).toBeGreaterThan(-62.16);
    expect(bottom).toBeLessThan(-62.16);
    expect(near.data.places[0].distanceMeters).toBeGreaterThan(0);
  });

  it('maps.search pages by excluding the places already answered', async () => {
    const first = await m.run('maps.search', { query: '1 Place des Palais 1000 bruxelles', limit: 5 });
    const ids = readRecordingJson('maps/nominatim/search-jsonv2.brussels-address.json').map((p: any) => String(p.place_id));
    expect(first.data.cursor).toBe(ids.join(','));
    await m.run('maps.search', { query: '1 Place des Palais 1000 bruxelles', limit: 5, cursor: first.data.cursor });
    expect(m.replay.seen.at(-1)!.query.get('exclude_place_ids')).toBe(ids.join(','));
    const fewer = await m.run('maps.search', { query: '1 Place des Palais 1000 bruxelles', limit: 10 });
    expect(fewer.data.cursor).toBeUndefined();
  });

  it.each([
    ['reverse-jsonv2.paris.json', { latitude: 48.86, longitude: 2.35 }, { id: 'node/855292284', name: 'Starbucks', osmTag: 'amenity=cafe', address: { street: 'Rue Quincampoix', city: 'Paris', postalCode: '75004', country: 'FR' } }],
    ['reverse-jsonv2.tokyo-en.json', { latitude: 35.685939, longitude: 139.811695, language: 'en' }, { id: 'way/28063955', osmTag: 'highway=tertiary', address: { city: 'Koto', postalCode: '135-0002', country: 'JP' } }],
    ['reverse-jsonv2.washington-en.json', { latitude: 38.900206, longitude: -77.036991, language: 'en' }, { id: 'node/367142942', name: 'United States Chamber of Commerce Building', address: { country: 'US' } }],
  ])('maps.details at a point: %s', async (file, input, expected) => {
    const out = await m.run('maps.details', input);
    expect(m.replay.served().at(-1)).toContain(file);
    expect(out.data.place).toMatchObject({ type: 'place', ...expected });
    expect(out.data.attribution).toEqual(ATTRIBUTION);
  });

  it('an own Nominatim instance needs no contact and is not spaced; its older json format reads the same', async () => {
    // LocationIQ's Nominatim-compatible answers (older `json` format: `class`, string ids) stand for an own instance's.
    const own = await mapsReplay([
      { method: 'GET', host: 'nominatim.internal.test', path: '/search', file: 'maps/nominatim/locationiq.json' },
      { method: 'GET', host: 'nominatim.internal.test', path: '/reverse', file: 'maps/nominatim/locationiq_reverse.json' },
    ], { NOMINATIM_URL: 'https://nominatim.internal.test', OVERPASS_URL: 'https://overpass.internal.test/api' });
    try {
      const found = await own.run('maps.search', { query: 'Ottawa' });
      expect(found.data.places[0]).toMatchObject({ id: 'relation/4136816', osmTag: 'place=city', address: { full: 'Ottawa, Ontario, Canada' } });
      const here = await own.run('maps.details', { latitude: 45.4208, longitude: -75.6901 });
      expect(here.data.place).toMatchObject({ id: 'way/68588664', name: 'Ottawa City Hall', osmTag: 'building=yes', address: { houseNumber: '110', street: 'Laurier Avenue West' } });
    } finally {
      await own.close();
    }
  });

  it('no contact with the public instances: sourceUnavailable naming the setting, nothing sent', async () => {
    const anonymous = await mapsReplay([], {});
    try {
      const e = await failure(anonymous.run('maps.search', { query: 'Ottawa, Ontario' }));
      expect(e.code).toBe('sourceUnavailable');
      expect(e.message).toContain('QUARRY_MAPS_CONTACT');
      expect(anonymous.replay.seen).toHaveLength(0);
    } finally {
      await anonymous.close();
    }
  });

  it('input rules, each a 400 naming its field', async () => {
    for (const [input, field] of [
      [{}, 'query'],
      [{ category: 'cafe' }, 'latitude'],
      [{ query: 'x', latitude: 1 }, 'longitude'],
      [{ category: 'cafe', latitude: 1, longitude: 2, cursor: '1,2' }, 'cursor'],
    ] as const) {
      const e = await failure(m.run('maps.search', input));
      expect(e.code).toBe('invalidRequest');
      expect(e.message.startsWith(`${field}:`), e.message).toBe(true);
    }
    expect((await failure(m.run('maps.details', {}))).message).toMatch(/^place:/);
    expect((await failure(m.run('maps.details', { place: 'node/1', latitude: 1, longitude: 2 }))).message).toMatch(/^place:/);
  });
});

describe.skipIf(!haveRecordings('maps'))(`maps on Overpass${skipReason('maps')}`, () => {
  const BRASILIA = { latitude: -15.7942, longitude: -47.8822 };

  it('cafés near a point: the asked tag around the point, nearest first, at most limit', async () => {
    const m = await mapsReplay([overpassWith('example_singlenode.json')]);
    try {
      const out = await m.run('maps.search', { category: 'cafe', ...BRASILIA, radiusMeters: 5000, limit: 5 });
      expect(qlOf(m.replay)).toBe('[out:json][timeout:25];nwr["amenity"="cafe"](around:5000,-15.7942,-47.8822);out center tags 200;');
      expect(out.data.places).toHaveLength(5);
      const d = out.data.places.map((p: any) => p.distanceMeters);
      expect(d).toEqual([...d].sort((a, b) => a - b));
      expect(out.data.places[0]).toMatchObject({ id: 'node/9577464680', name: 'Starbucks', osmTag: 'amenity=cafe', brand: 'Starbucks', cuisine: ['coffee_shop'] });
      expect(out.data.attribution).toEqual(ATTRIBUTION);
      await m.run('maps.search', { category: 'cafe', query: 'Café (Sincera)', ...BRASILIA, limit: 5 });
      expect(qlOf(m.replay)).toContain('["name"~"Café \\\\(Sincera\\\\)",i](around:1000,');
    } finally {
      await m.close();
    }
  });

  it('a mixed answer: only the elements carrying the asked tag are places; untagged ways without a centre are skipped', async () => {
    const m = await mapsReplay([overpassWith('example_mapquery.json')]);
    try {
      const out = await m.run('maps.search', { category: 'toilets', latitude: 37.866, longitude: -122.317, limit: 40 });
      expect(out.data.places).toHaveLength(1);
      expect(out.data.places[0]).toMatchObject({ osmTag: 'amenity=toilets', geo: { latitude: 37.8655124 } });
      // The recorded query asked `out body`, so its parking way has no centre: it cannot be placed, and is left out.
      expect((await m.run('maps.search', { category: 'parking', latitude: 37.866, longitude: -122.317 })).data.places).toEqual([]);
    } finally {
      await m.close();
    }
  });

  it.each([
    ['example_meta.json', 'relation/6518385', { name: 'Sibley Volcanic Regional Preserve', updatedAt: '2021-02-17T03:29:31Z' }],
    ['example_body.json', 'way/10322303', {}],
    ['example_body.json', 'N4927326183', { id: 'node/4927326183' }],
  ])('maps.details by id from %s: %s', async (file, place, expected) => {
    const m = await mapsReplay([overpassWith(file)]);
    try {
      const out = await m.run('maps.details', { place });
      const { type, id } = parsePlaceId(place);
      expect(qlOf(m.replay)).toBe(`[out:json][timeout:25];${type}(${id});out meta center;`);
      expect(out.data.place).toMatchObject({ type: 'place', id: `${type}/${id}`, url: `https://www.openstreetmap.org/${type}/${id}`, ...expected });
      expect(out.data.place.geo.latitude).toBeGreaterThan(37.8);
      expect(out.data.attribution).toEqual(ATTRIBUTION);
      if (type === 'relation') expect(out.data.place.tags).toMatchObject({ name: 'Sibley Volcanic Regional Preserve' });
    } finally {
      await m.close();
    }
  });

  it('an id Overpass does not hold is notFound', async () => {
    const m = await mapsReplay([overpassWith('example_body.json')]);
    try {
      expect((await failure(m.run('maps.details', { place: 'node/1' }))).code).toBe('notFound');
    } finally {
      await m.close();
    }
  });

  it('an overpass-turbo GeoJSON export where Overpass JSON is expected is drift (sourceChanged)', async () => {
    const m = await mapsReplay([overpassWith('example_live.json')]);
    try {
      expect(readRecordingJson('maps/overpass/example_live.json').type).toBe('FeatureCollection');
      expect((await failure(m.run('maps.details', { place: 'relation/6518385' }))).code).toBe('sourceChanged');
    } finally {
      await m.close();
    }
  });

  it.each([
    ['overpass_status_two_slots_waiting.txt', 11],
    ['overpass_status_one_slot_running.txt', 0],
    ['overpass_status_no_slots_waiting.txt', 0],
  ])('HTTP 429: sourceRefused, waiting as /status says (%s)', async (file, wait) => {
    const m = await mapsReplay([{ ...OVERPASS, status: 429, text: 'rate_limited' }, statusWith(file)]);
    try {
      const e = await failure(m.run('maps.search', { category: 'cafe', ...BRASILIA }));
      expect(e.code).toBe('sourceRefused');
      expect(e.retryAfterSeconds).toBe(wait);
      expect(m.replay.served().at(-1)).toBe(`maps/overpass/${file}`);
    } finally {
      await m.close();
    }
  });
});

describe.skipIf(!haveRecordings('maps'))(`maps through the gateway${skipReason('maps')}`, () => {
  let replay: Replay;
  let gw: TestGateway;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;

  beforeAll(async () => {
    replay = await startReplay({
      folders: ['maps/nominatim'],
      ignoreQuery: ['limit', 'viewbox'],
      routes: [overpassWith('example_singlenode.json')],
    });
    // A drifted Hamburg answer: its place lost `lat`.
    replay.mutate = (name, body) => (name.endsWith('hamburg-extratags.json') ? body.replace('"lat":', '"latitude":') : body);
    gw = await startGateway({
      QUARRY_UPSTREAM_OVERRIDES: replay.overrides(['overpass-api.de']),
      QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
      QUARRY_MAPS_CONTACT: 'ops@quarry.invalid',
      QUARRY_MAPS_NOMINATIM_INTERVAL_MS: '0',
    });
    const acct = await gw.accounts.createAccount({ credits: 100 });
    ({ apiKey: key, accountId } = acct);
    testKey = (await gw.accounts.createKey({ accountId, test: true })).apiKey;
  });
  afterAll(async () => {
    await gw?.close();
    await replay?.close();
  });

  it('/v1/sources shows what maps needs from the operator', async () => {
    const r = await get(gw.url, '/v1/sources');
    const maps = r.json.data.sources.find((s: any) => s.id === 'maps');
    expect(maps.needs.settings.find((s: any) => s.name === 'QUARRY_MAPS_CONTACT')).toMatchObject({ required: true, set: true });
  });

  it('live search: 200 with attribution; 5 places cost 1 credit (per 10)', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/maps/search', { query: '1 Place des Palais 1000 bruxelles' }, { key });
    expect(r.status).toBe(200);
    expect(r.json.data.places).toHaveLength(5);
    expect(r.json.data.attribution).toEqual(ATTRIBUTION);
    expect(r.json.creditsUsed).toBe(1);
    expect(await balance()).toBe(before - 1);
  });

  it('category search through Overpass: 10 places, 1 credit', async () => {
    const r = await post(gw.url, '/v1/maps/search', { category: 'cafe', latitude: -15.7942, longitude: -47.8822, radiusMeters: 5000 }, { key });
    expect(r.status).toBe(200);
    expect(r.json.data.places).toHaveLength(10);
    expect(r.json.creditsUsed).toBe(1);
  });

  it('reviews: 200, the note, not billed', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/maps/reviews', { place: 'node/855292284' }, { key });
    expect(r.status).toBe(200);
    expect(r.json.creditsUsed).toBe(0);
    expect(r.json.data.note).toBe(NO_REVIEWS);
    expect(r.json.data.reviews).toBeUndefined(); // the empty list is pruned, as every empty value is
    expect(await balance()).toBe(before);
  });

  it('test mode: the examples answer from the samples, never upstream, balance untouched', async () => {
    const before = await balance();
    const seen = replay.seen.length;
    for (const def of Object.values(MAPS)) {
      const r = await post(gw.url, `/v1/${def.id.replace('.', '/')}`, def.example, { key: testKey });
      expect(r.status, def.id).toBe(200);
      expect(r.json.data.attribution, def.id).toEqual(ATTRIBUTION);
    }
    expect(replay.seen.length).toBe(seen);
    expect(await balance()).toBe(before);
  });

  it('drift: a place without its position is 502 sourceChanged, unbilled', async () => {
    const before = await balance();
    const r = await post(gw.url, '/v1/maps/search', { query: 'Elbphilharmonie, Platz der deutschen Einheit 1, Hamburg' }, { key });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe('sourceChanged');
    expect(await balance()).toBe(before);
  });

  it('bad input: 400 naming the field', async () => {
    const r = await post(gw.url, '/v1/maps/search', { category: 'volcano', latitude: 1, longitude: 2 }, { key });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('category');
  });
});

describe.skipIf(!haveRecordings('maps'))(`maps when OpenStreetMap refuses${skipReason('maps')}`, () => {
  it('a 403 block page from Nominatim is 502 sourceRefused through the gateway, unbilled', async () => {
    const replay = await startReplay({
      folders: [],
      routes: [{ method: 'GET', host: 'nominatim.openstreetmap.org', path: '/search', status: 403, text: '<html><body>Access blocked: usage policy</body></html>', headers: { 'content-type': 'text/html' } }],
    });
    const gw = await startGateway({
      QUARRY_UPSTREAM_OVERRIDES: replay.overrides(),
      QUARRY_OUTBOUND_ALLOW: '127.0.0.1',
      QUARRY_MAPS_CONTACT: 'ops@quarry.invalid',
      QUARRY_MAPS_NOMINATIM_INTERVAL_MS: '0',
    });
    try {
      const acct = await gw.accounts.createAccount({ credits: 10 });
      const r = await post(gw.url, '/v1/maps/search', { query: 'anything' }, { key: acct.apiKey });
      expect(r.status).toBe(502);
      expect(r.json.error.code).toBe('sourceRefused');
      expect((await gw.gateway.deps.store.getAccount(acct.accountId))!.balance).toBe(10);
    } finally {
      await gw.close();
      await replay.close();
    }
  });
});
