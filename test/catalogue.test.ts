import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../src/catalogue/endpoints/index.js';
import type { EndpointDef } from '../src/catalogue/types.js';
import { pathOf, sourceOf } from '../src/catalogue/types.js';
import { compileInput, type InputValidator } from '../src/catalogue/validator.js';

/** Every endpoint SPEC.md declares (with CONTRACT.md's platform ids), in the order the catalogue lists them. */
const SPEC_IDS = [
  'web.search', 'web.news', 'web.contacts', 'web.parse',
  'site.map', 'site.seo',
  'domain.whois', 'domain.dns', 'domain.technologies',
  'email.verify',
  'youtube.search', 'youtube.video', 'youtube.transcript', 'youtube.comments', 'youtube.comments.replies',
  'youtube.channel', 'youtube.playlist',
  'reddit.search', 'reddit.post', 'reddit.subforum',
  'x.post', 'x.search',
  'telegram.channel', 'telegram.posts', 'telegram.post',
  'facebook.ads.search', 'facebook.ads.page', 'facebook.ads.ad',
  'linkedin.jobs.search', 'linkedin.jobs.job', 'linkedin.ads.search', 'linkedin.ads.ad', 'linkedin.company',
  'linkedin.profile', 'linkedin.posts',
  'indeed.search', 'indeed.job',
  'shopify.store',
  'crypto.trending', 'crypto.categories', 'crypto.movers', 'crypto.new', 'crypto.dex.search', 'crypto.dex.pairs',
  'crypto.dex.token', 'crypto.dex.new', 'crypto.pumpfun.coins', 'crypto.pumpfun.coin', 'crypto.pumpfun.trades',
  'crypto.wallet', 'crypto.token.holders', 'crypto.binance.announcements', 'crypto.coin.history',
];
/** The 39 sources: SPEC.md's neutral ids and CONTRACT.md's platform ids. */
const SOURCES = [
  'web', 'maps', 'site', 'domain', 'email', 'crypto', 'finance',
  'youtube', 'reddit', 'x', 'telegram', 'facebook', 'linkedin', 'indeed', 'shopify',
  'instagram', 'tiktok', 'pinterest', 'snapchat', 'threads', 'bluesky', 'truthsocial', 'twitch', 'kick', 'hackernews',
  'google', 'glassdoor', 'zillow', 'realtor', 'amazon', 'ebay', 'walmart', 'etsy', 'appstore', 'googleplay',
  'tripadvisor', 'booking', 'airbnb', 'upwork',
];
const NO_CACHE_CONTROLS = ['web.search', 'web.news', 'web.parse', 'crypto.dex.pairs', 'crypto.dex.token'];

const byId = new Map(ENDPOINTS.map((d) => [d.id, d]));
const validators = new Map<string, InputValidator>();
function def(id: string): EndpointDef {
  const d = byId.get(id);
  if (!d) throw new Error(`no endpoint ${id}`);
  return d;
}
/** The compiled validator of one endpoint. */
function v(id: string): InputValidator {
  let fn = validators.get(id);
  if (!fn) validators.set(id, (fn = compileInput(def(id).input)));
  return fn;
}

describe('catalogue: every entry', () => {
  it('declares every SPEC endpoint, in order, with unique ids', () => {
    const ids = ENDPOINTS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => SPEC_IDS.includes(id))).toEqual(SPEC_IDS);
  });

  it('lists each source once, together, and only the 39 sources of the contract', () => {
    const order = ENDPOINTS.map((d) => sourceOf(d.id)).filter((s, i, all) => s !== all[i - 1]);
    expect(new Set(order).size).toBe(order.length);
    expect(order.filter((s) => !SOURCES.includes(s))).toEqual([]);
    expect(SOURCES).toHaveLength(39);
  });

  describe.each(ENDPOINTS.map((d) => [d.id, d] as const))('%s', (id, d) => {
    it('has a well-formed id and path', () => {
      expect(id).toMatch(/^[a-z0-9]+(\.[a-z0-9]+)+$/);
      expect(pathOf(id)).toBe('/v1/' + id.replaceAll('.', '/'));
    });

    it('has a title, a one-sentence summary and a sane price', () => {
      expect(d.title.length).toBeGreaterThan(3);
      expect(d.summary).toMatch(/^[A-Z].*\.$/);
      expect(d.summary.length).toBeLessThan(200);
      expect(Number.isInteger(d.credits) && d.credits >= 1).toBe(true);
      expect(Number.isInteger(d.cacheTtlSeconds) && d.cacheTtlSeconds >= 0).toBe(true);
      if (d.perItems !== null) expect(Number.isInteger(d.perItems) && d.perItems >= 1).toBe(true);
    });

    it('compiles and its example validates', () => {
      expect(() => v(id)).not.toThrow();
      expect(d.example).not.toBeNull();
      expect(() => v(id)(structuredClone(d.example))).not.toThrow();
    });

    it('bounds maxAge by cacheTtlSeconds, or takes neither maxAge nor tags', () => {
      const props = d.input.properties;
      if (NO_CACHE_CONTROLS.includes(id)) {
        expect(props.maxAge).toBeUndefined();
        expect(props.tags).toBeUndefined();
      } else {
        expect(props.maxAge).toMatchObject({ type: 'integer', minimum: 0, maximum: d.cacheTtlSeconds });
        expect(props.tags).toBeDefined();
      }
      if (props.maxAge) expect(props.maxAge.maximum).toBe(d.cacheTtlSeconds);
    });

    it('has a limit field and an items field when priced per item', () => {
      if (d.perItems === null) return;
      expect(d.limitField).toBeDefined();
      expect(d.input.properties[d.limitField!]).toMatchObject({ type: 'integer' });
      expect(d.itemsField).toMatch(/^[a-z]+s$/);
    });

    it('pages by a field it declares', () => {
      if (d.pagingField) expect(d.input.properties[d.pagingField]).toBeDefined();
      if ('cursor' in d.input.properties) expect(d.pagingField).toBe('cursor');
    });

    it('lists only declared fields as required', () => {
      for (const r of d.input.required ?? []) expect(d.input.properties[r]).toBeDefined();
      expect(d.input.additionalProperties).toBe(false);
    });

    it('anchors every pattern', () => {
      const walk = (s: unknown): void => {
        if (!s || typeof s !== 'object') return;
        const o = s as Record<string, unknown>;
        if (typeof o.pattern === 'string') expect(o.pattern).toMatch(/^\^.*\$$/);
        for (const value of Object.values(o)) walk(value);
      };
      walk(d.input);
    });

    it('rejects an unknown field, naming it', () => {
      expect(() => v(id)({ ...d.example, notAField: 1 })).toThrow(/notAField: unknown field/);
    });

    it('rejects a missing required field, naming it', () => {
      for (const r of d.input.required ?? []) {
        const body: Record<string, unknown> = { ...d.example };
        delete body[r];
        expect(() => v(id)(body)).toThrow(new RegExp(`^${r}: is required`));
      }
    });
  });
});

describe('catalogue: SPEC rules', () => {
  it.each(NO_CACHE_CONTROLS)('%s rejects maxAge and tags (No maxAge or tags)', (id) => {
    const ex = def(id).example!;
    expect(() => v(id)({ ...ex, maxAge: 0 })).toThrow(/^maxAge: unknown field/);
    expect(() => v(id)({ ...ex, tags: ['a'] })).toThrow(/^tags: unknown field/);
  });

  it('maxAge: 0 up to the endpoint cacheTtlSeconds', () => {
    expect(v('youtube.video')({ video: 'x', maxAge: 0 }).maxAge).toBe(0);
    expect(v('youtube.video')({ video: 'x', maxAge: 21600 }).maxAge).toBe(21600);
    expect(() => v('youtube.video')({ video: 'x', maxAge: 21601 })).toThrow(/^maxAge: must be at most 21600/);
    expect(() => v('youtube.video')({ video: 'x', maxAge: -1 })).toThrow(/^maxAge: must be at least 0/);
    expect(() => v('crypto.pumpfun.coin')({ coin: 'x', maxAge: 16 })).toThrow(/^maxAge: must be at most 15/);
  });

  it('Value formats: country is ISO 3166-1 alpha-2, any case (xx rejected, GB accepted)', () => {
    expect(() => v('web.search')({ query: 'q', country: 'xx' })).toThrow(/^country: must be an ISO 3166-1/);
    expect(v('web.search')({ query: 'q', country: 'GB' }).country).toBe('gb');
    expect(() => v('web.search')({ query: 'q', country: 'gbr' })).toThrow(/^country:/);
  });

  it('ad library country: a 2-letter code or all, any case, default us', () => {
    const s = v('facebook.ads.search');
    expect(s({ query: 'q' }).country).toBe('us');
    expect(s({ query: 'q', country: 'ALL' }).country).toBe('all');
    expect(s({ query: 'q', country: 'De' }).country).toBe('de');
    expect(() => s({ query: 'q', country: 'xx' })).toThrow(/^country:/);
  });

  it('Value formats: from and to are valid calendar dates (2023-02-29 rejected, 2024-02-29 accepted)', () => {
    expect(() => v('web.search')({ query: 'q', from: '2023-02-29' })).toThrow(/^from: must be a valid calendar date/);
    expect(v('web.search')({ query: 'q', from: '2024-02-29' }).from).toBe('2024-02-29');
    expect(() => v('web.news')({ to: '2024-13-01' })).toThrow(/^to: must be a valid calendar date/);
    expect(() => v('linkedin.ads.search')({ from: '2024-1-1' })).toThrow(/^from:/);
  });

  it('crypto price history: from and to are a date or an ISO 8601 UTC date-time', () => {
    const h = v('crypto.coin.history');
    expect(() => h({ coin: 'bitcoin', from: '2024-02-29', to: '2024-03-01T12:00:00Z' })).not.toThrow();
    expect(() => h({ coin: 'bitcoin', from: '2024-03-01T12:00:00+02:00' })).toThrow(/^from:/);
    expect(() => h({ coin: 'bitcoin', to: '2023-02-29T00:00:00Z' })).toThrow(/^to:/);
    expect(() => h({ coin: 'bitcoin', within: 'decade' })).toThrow(/^within: must be one of day, week, twoWeeks/);
    expect(h({ coin: 'bitcoin' }).includeCandles).toBe(false);
    expect(def('crypto.coin.history').summary).toMatch(/price history/);
  });

  it('tags: at most 10 items, each 1-50 of letters, digits, - _ . :', () => {
    const ok = Array.from({ length: 10 }, (_, i) => `team-${i}:a_b.c`);
    expect(v('youtube.video')({ video: 'x', tags: ok }).tags).toEqual(ok);
    expect(() => v('youtube.video')({ video: 'x', tags: [...ok, 'eleven'] })).toThrow(/^tags: must have at most 10 items/);
    expect(() => v('youtube.video')({ video: 'x', tags: ['bad tag!'] })).toThrow(/^tags\[0\]:/);
    expect(() => v('youtube.video')({ video: 'x', tags: ['ok', ''] })).toThrow(/^tags\[1\]:/);
    expect(() => v('youtube.video')({ video: 'x', tags: ['a'.repeat(51)] })).toThrow(/^tags\[0\]:/);
    expect(() => v('youtube.video')({ video: 'x', tags: 'solo' })).toThrow(/^tags: must be of type array/);
  });

  it('youtube.search language: 2-3 letters, optionally - or _ plus 2-4 alphanumerics, default en', () => {
    const s = v('youtube.search');
    for (const language of ['en', 'fil', 'pt-BR', 'zh_Hant', 'es-419']) expect(s({ query: 'q', language }).language).toBe(language);
    for (const language of ['e', 'english', 'en-', 'en-a', 'en-abcde', 'en BR', 'e1']) {
      expect(() => s({ query: 'q', language })).toThrow(/^language: must /);
    }
  });

  it('youtube.search defaults: type videos, duration all, within all, sort relevance, features empty, country us, language en, limit 20', () => {
    expect(v('youtube.search')({ query: 'q' })).toEqual({
      query: 'q', type: 'videos', duration: 'all', within: 'all', sort: 'relevance', features: [], country: 'us',
      language: 'en', limit: 20,
    });
    expect(() => v('youtube.search')({ query: 'q', features: ['8k'] })).toThrow(/^features\[0\]: must be one of 360, live/);
    expect(() => v('youtube.search')({ query: 'q', cursor: '' })).toThrow(/^cursor: must be at least 1 characters/);
    expect(() => v('youtube.search')({ query: 'q', cursor: 'c'.repeat(4097) })).toThrow(/^cursor: must be at most 4096/);
  });

  it('messaging cursor: positive integer of up to 10 digits, no leading zero (0123 rejected, 123 accepted)', () => {
    const p = v('telegram.posts');
    expect(p({ channel: 'durov', cursor: '123' }).cursor).toBe('123');
    expect(p({ channel: 'durov', cursor: '9999999999' }).cursor).toBe('9999999999');
    for (const cursor of ['0123', '0', '12345678901', '-1', '1.5']) {
      expect(() => p({ channel: 'durov', cursor })).toThrow(/^cursor: must /);
    }
    expect(() => p({ channel: 'durov', cursor: 123 })).toThrow(/^cursor: must be of type string/);
  });

  it('crypto.token.holders: token 0x plus 40 hex digits; cursor digits:digits:address', () => {
    const h = v('crypto.token.holders');
    const token = '0x' + 'aB'.repeat(20);
    expect(() => h({ chain: 'base', token })).not.toThrow();
    for (const bad of ['0x' + 'a'.repeat(39), '0x' + 'a'.repeat(41), 'a'.repeat(42), '0x' + 'g'.repeat(40)]) {
      expect(() => h({ chain: 'base', token: bad })).toThrow(/^token: must /);
    }
    expect(() => h({ chain: 'bitcoin', token })).toThrow(/^chain: must be one of ethereum, base/);
    expect(() => h({ chain: 'base', token, cursor: `1234567:${'9'.repeat(80)}:${token}` })).not.toThrow();
    for (const cursor of [`12345678:1:${token}`, `1:${'9'.repeat(81)}:${token}`, `1:2:${token.slice(0, 41)}`, '1:2', `1-2-${token}`]) {
      expect(() => h({ chain: 'base', token, cursor })).toThrow(/^cursor:/);
    }
  });

  it('adlib cursor: optional 1-4 digits + ~ + optional 10-500 URL-safe characters, or just 10-500 URL-safe characters', () => {
    const s = v('facebook.ads.search');
    for (const cursor of ['12~AbCdEfGh_-', '~AbCdEfGh_-', '1234~', '~', 'AbCdEfGh_-', 'a'.repeat(500), `9~${'a'.repeat(500)}`]) {
      expect(s({ query: 'q', cursor }).cursor).toBe(cursor);
    }
    for (const cursor of ['12345~AbCdEfGh_-', '12~short', 'short', 'a'.repeat(501), 'AbCdEfGh+/==', '1~2~AbCdEfGh_-']) {
      expect(() => s({ query: 'q', cursor })).toThrow(/^cursor:/);
    }
  });

  it('facebook.ads.page: same fields, with required page in place of query', () => {
    const search = def('facebook.ads.search').input.properties;
    const page = def('facebook.ads.page').input.properties;
    expect(Object.keys(page).sort()).toEqual(Object.keys(search).map((k) => (k === 'query' ? 'page' : k)).sort());
    expect(def('facebook.ads.page').input.required).toEqual(['page']);
    expect(def('facebook.ads.page').pagingField).toBe('cursor');
    expect(() => v('facebook.ads.page')({ query: 'q' })).toThrow(/^page: is required/);
  });

  it('job board country: one of the listed codes, any case (fr ok, xx rejected, FR ok)', () => {
    const s = v('indeed.search');
    expect(s({}).country).toBe('us');
    expect(s({ country: 'fr' }).country).toBe('fr');
    expect(s({ country: 'FR' }).country).toBe('fr');
    expect(s({ country: 'Pa' }).country).toBe('pa');
    for (const country of ['xx', 'ru', 'f', 'fra', 'FR ']) {
      expect(() => s({ country })).toThrow(/^country: must /);
    }
    expect(v('indeed.job')({ job: 'abc', country: 'GB' }).country).toBe('gb');
    expect(() => v('indeed.job')({ job: 'abc', country: 'xx' })).toThrow(/^country:/);
  });

  it('indeed.search salary: object with required positive integer min', () => {
    const s = v('indeed.search');
    expect(s({ salary: { min: 1 } }).salary).toEqual({ min: 1 });
    expect(() => s({ salary: {} })).toThrow(/^salary.min: is required/);
    expect(() => s({ salary: { min: 0 } })).toThrow(/^salary.min: must be at least 1/);
    expect(() => s({ salary: { min: 1.5 } })).toThrow(/^salary.min: must be an integer/);
    expect(() => s({ salary: { min: 10, max: 20 } })).toThrow(/^salary.max: unknown field/);
    expect(() => s({ salary: 50000 })).toThrow(/^salary: must be of type object/);
  });

  it('indeed.search: radiusKm number 0-160 default 40, location 2-200, cursor digits.digits.base64', () => {
    const s = v('indeed.search');
    expect(s({}).radiusKm).toBe(40);
    expect(s({ radiusKm: 12.5 }).radiusKm).toBe(12.5);
    expect(() => s({ radiusKm: 161 })).toThrow(/^radiusKm: must be at most 160/);
    expect(() => s({ location: 'L' })).toThrow(/^location: must be at least 2 characters/);
    expect(() => s({ cursor: '10.20.QUJD+/==' })).not.toThrow();
    for (const cursor of ['10.20.', '10.QUJD', 'a.20.QUJD', '10.20.QU JD']) expect(() => s({ cursor })).toThrow(/^cursor:/);
  });

  it('limit bounds are per endpoint', () => {
    expect(() => v('web.search')({ query: 'q', limit: 0 })).toThrow(/^limit: must be at least 1/);
    expect(() => v('web.search')({ query: 'q', limit: 101 })).toThrow(/^limit: must be at most 100/);
    expect(() => v('web.search')({ query: 'q', limit: 2.5 })).toThrow(/^limit: must be an integer/);
    expect(() => v('web.search')({ query: 'q', limit: '10' })).toThrow(/^limit: must be an integer/);
    expect(v('youtube.playlist')({ playlist: 'p', limit: 500 }).limit).toBe(500);
    expect(() => v('youtube.playlist')({ playlist: 'p', limit: 501 })).toThrow(/^limit: must be at most 500/);
    expect(() => v('crypto.movers')({ limit: 4 })).toThrow(/^limit: must be at least 5/);
    expect(() => v('crypto.new')({ limit: 201 })).toThrow(/^limit: must be at most 200/);
    expect(() => v('x.search')({ query: 'q', limit: 21 })).toThrow(/^limit: must be at most 20/);
    expect(() => v('crypto.categories')({ limit: 1001 })).toThrow(/^limit: must be at most 1000/);
  });

  it('defaults are filled (web.search limit 10, within all)', () => {
    expect(v('web.search')({ query: 'q' })).toEqual({ query: 'q', limit: 10, within: 'all' });
    expect(v('web.news')({})).toEqual({ limit: 10, within: 'all' });
    expect(v('linkedin.jobs.search')({})).toMatchObject({
      within: 'all', jobTypes: [], experience: [], workplace: [], companyIds: [], easyApply: false, sort: 'relevance', limit: 25,
    });
    expect(v('crypto.movers')({})).toEqual({ within: 'day', limit: 30 });
    expect(v('crypto.dex.new')({})).toEqual({ type: 'profiles', includePairs: true, limit: 100 });
    expect(v('reddit.subforum')({ subforum: 'golang' })).toEqual({ subforum: 'golang', sort: 'hot', within: 'day', limit: 25 });
  });

  it('web.search: query 1-400 required; includeDomains at most 10', () => {
    expect(() => v('web.search')({})).toThrow(/^query: is required/);
    expect(() => v('web.search')({ query: '' })).toThrow(/^query: must be at least 1 characters/);
    expect(() => v('web.search')({ query: 'q'.repeat(401) })).toThrow(/^query: must be at most 400/);
    const eleven = Array.from({ length: 11 }, (_, i) => `d${i}.com`);
    expect(() => v('web.search')({ query: 'q', includeDomains: eleven })).toThrow(/^includeDomains: must have at most 10 items/);
    expect(() => v('web.news')({ excludeDomains: eleven })).toThrow(/^excludeDomains: must have at most 10 items/);
    expect(() => v('web.news')({ within: 'decade' })).toThrow(/^within: must be one of hour, day, week, month, year, all/);
    expect(() => v('web.search')({ query: 'q', within: 'hour' })).toThrow(/^within: must be one of day, week, month, year, all/);
  });

  it('web.contacts: priced per 5 pages, maxPages 1-10 default 5 bounds the price', () => {
    const d = def('web.contacts');
    expect(d.limitField).toBe('maxPages');
    expect(v('web.contacts')({ url: 'example.com' }).maxPages).toBe(5);
    expect(() => v('web.contacts')({ url: 'example.com', maxPages: 11 })).toThrow(/^maxPages: must be at most 10/);
  });

  it('Parse endpoint: file required (min 1, up to 10 MB), filename 1-255, maxPages 1-100 default 100, keyless', () => {
    const d = def('web.parse');
    expect(d).toMatchObject({ credits: 1, keyless: true, perItems: null, bodyLimitBytes: 11 * 1024 * 1024 });
    const p = v('web.parse');
    expect(p({ file: 'PGgxPkE8L2gxPg==' }).maxPages).toBe(100);
    expect(() => p({})).toThrow(/^file: is required/);
    expect(() => p({ file: '' })).toThrow(/^file: must be at least 1 characters/);
    expect(() => p({ file: 'a'.repeat(10 * 1024 * 1024 + 1) })).toThrow(/^file: must be at most 10485760/);
    expect(() => p({ file: 'AA==', filename: '' })).toThrow(/^filename:/);
    expect(() => p({ file: 'AA==', filename: 'f'.repeat(256) })).toThrow(/^filename: must be at most 255/);
    expect(() => p({ file: 'AA==', maxPages: 0 })).toThrow(/^maxPages: must be at least 1/);
    expect(() => p({ file: 'AA==', maxPages: 101 })).toThrow(/^maxPages: must be at most 100/);
    expect(Buffer.from(String(d.example!.file), 'base64').toString()).toMatch(/^<html>/);
  });

  it('x.post cursor: optional digits and ~, then 16-16000 of letters, digits, + / _ = -', () => {
    const p = v('x.post');
    for (const cursor of ['123~' + 'A'.repeat(16), '~' + 'a+/_=-'.repeat(3), 'B'.repeat(16000)]) {
      expect(() => p({ post: '1', cursor })).not.toThrow();
    }
    for (const cursor of ['123~' + 'A'.repeat(15), 'B'.repeat(16001), '1a~' + 'A'.repeat(16), 'A'.repeat(15) + '!']) {
      expect(() => p({ post: '1', cursor })).toThrow(/^cursor:/);
    }
  });

  it('professional network: ids of 1-15 digits, cursor rules, two-letter countries', () => {
    const j = v('linkedin.jobs.search');
    expect(() => j({ geoId: '103644278', companyIds: ['1035'], cursor: '975' })).not.toThrow();
    expect(() => j({ geoId: '1'.repeat(16) })).toThrow(/^geoId:/);
    expect(() => j({ companyIds: ['abc'] })).toThrow(/^companyIds\[0\]:/);
    expect(() => j({ cursor: '1000' })).toThrow(/^cursor:/);
    expect(() => j({ jobTypes: ['fullTime', 'gig'] })).toThrow(/^jobTypes\[1\]: must be one of fullTime/);
    expect(() => j({ workplace: ['onsite', 'remote', 'hybrid', 'onsite'] })).toThrow(/^workplace: must have at most 3 items/);
    const a = v('linkedin.ads.search');
    for (const cursor of ['10-20', '3~10-20', '1234~0-0']) expect(() => a({ cursor })).not.toThrow();
    for (const cursor of ['10', '10-', '12345~10-20', '~10-20', '10-20-30']) expect(() => a({ cursor })).toThrow(/^cursor:/);
    expect(() => a({ countries: ['us', 'xx'] })).toThrow(/^countries\[1\]: must be an ISO 3166-1/);
    expect(() => a({ within: 'week' })).toThrow(/^within: must be one of month, year, all/);
  });

  it('linkedin.posts needs a profile or a company; limit defaults to 10', () => {
    const p = v('linkedin.posts');
    expect(p({ profile: 'williamhgates' }).limit).toBe(10);
    expect(() => p({ company: 'microsoft' })).not.toThrow();
    expect(() => p({})).toThrow(/^profile: is required/);
  });

  it('crypto cursors: launchpad coins, trades, exchange announcements, wallet', () => {
    const coins = v('crypto.pumpfun.coins');
    for (const cursor of ['1234~1234567', '~', '~50', '50', '1234567']) expect(() => coins({ cursor })).not.toThrow();
    for (const cursor of ['12345678', '12345~1', '1~12345678', 'a']) expect(() => coins({ cursor })).toThrow(/^cursor:/);
    const trades = v('crypto.pumpfun.trades');
    expect(() => trades({ coin: 'c', cursor: `${'1'.repeat(40)}-${'2'.repeat(15)}` })).not.toThrow();
    for (const cursor of ['1-', '-1', `${'1'.repeat(41)}-2`, '1-2-3']) expect(() => trades({ coin: 'c', cursor })).toThrow(/^cursor:/);
    const ann = v('crypto.binance.announcements');
    for (const cursor of ['1~20', '~', '~99999', '1234~', '7', '99999']) expect(() => ann({ cursor })).not.toThrow();
    for (const cursor of ['0', '01', '100000', '1~01', '12345~1']) expect(() => ann({ cursor })).toThrow(/^cursor:/);
    const w = v('crypto.wallet');
    expect(() => w({ chain: 'solana', wallet: 'w', cursor: 'abc_123~XYZ' })).not.toThrow();
    expect(() => w({ chain: 'solana', wallet: 'w', cursor: 'a'.repeat(129) })).toThrow(/^cursor:/);
    expect(() => w({ chain: 'solana', wallet: 'w', cursor: 'a-b' })).toThrow(/^cursor:/);
    expect(() => w({ chain: 'dogecoin', wallet: 'w' })).toThrow(/^chain: must be one of ethereum/);
  });

  it('crypto.dex chain: 2-30 lower-case letters and digits', () => {
    const p = v('crypto.dex.pairs');
    expect(() => p({ chain: 'ethereum', pair: 'x' })).not.toThrow();
    for (const chain of ['e', 'Ethereum', 'eth-mainnet', 'a'.repeat(31)]) expect(() => p({ chain, pair: 'x' })).toThrow(/^chain:/);
    expect(() => v('crypto.movers')({ rankUpTo: 300 })).toThrow(/^rankUpTo: must be one of 100, 200, 500/);
  });

  it('reddit.subforum: subreddit name, optional r/; cursor is a t3_ fullname; pages by cursor', () => {
    const s = v('reddit.subforum');
    expect(def('reddit.subforum')).toMatchObject({ credits: 2, keyless: false, perItems: null, pagingField: 'cursor', itemsField: 'posts' });
    expect(() => s({ subforum: 'r/golang', cursor: 't3_1abcde' })).not.toThrow();
    for (const subforum of ['a', '_golang', 'r/', 'go lang', 'x'.repeat(22)]) expect(() => s({ subforum })).toThrow(/^subforum:/);
    for (const cursor of ['1abcde', 't1_abc', 't3_', 't3_ABC']) expect(() => s({ subforum: 'golang', cursor })).toThrow(/^cursor:/);
  });

  it('price columns as SPEC lists them (credits / keyless / perItems / cacheTtlSeconds)', () => {
    const cols = (id: string) => {
      const d = def(id);
      return [d.credits, d.keyless, d.perItems, d.cacheTtlSeconds];
    };
    expect(cols('web.search')).toEqual([1, true, 10, 3600]);
    expect(cols('web.news')).toEqual([2, false, 10, 900]);
    expect(cols('web.contacts')).toEqual([2, false, 5, 86400]);
    expect(cols('youtube.search')).toEqual([1, true, 20, 3600]);
    expect(cols('youtube.transcript')).toEqual([3, true, null, 604800]);
    expect(cols('youtube.comments.replies')).toEqual([1, false, 10, 600]);
    expect(cols('reddit.search')).toEqual([2, false, null, 1800]);
    expect(cols('telegram.posts')).toEqual([1, false, 20, 600]);
    expect(cols('facebook.ads.ad')).toEqual([2, false, null, 3600]);
    expect(cols('linkedin.ads.search')).toEqual([2, false, 24, 3600]);
    expect(cols('linkedin.ads.ad')).toEqual([2, false, null, 86400]);
    expect(cols('indeed.search')).toEqual([1, false, 20, 1800]);
    expect(cols('crypto.dex.pairs')).toEqual([1, false, null, 30]);
    expect(cols('crypto.pumpfun.trades')).toEqual([1, false, 100, 15]);
    expect(cols('crypto.wallet')).toEqual([1, false, 25, 30]);
    expect(cols('crypto.token.holders')).toEqual([1, false, 50, 300]);
  });
});
