/**
 * Kit pieces the property, travel and work sources share: bot walls (kit/web/walls.ts), Apollo caches
 * (kit/apollo.ts) and a stay's dates (kit/stay.ts).
 */
import { describe, expect, it } from 'vitest';
import { entitiesOf, resolveRefs, rootQuery } from '../../src/sources/kit/apollo.js';
import { addDays, stayOf } from '../../src/sources/kit/stay.js';
import { refuseWalls, wallOf } from '../../src/sources/kit/web/walls.js';
import { failure } from '../helpers/failure.js';

describe('bot walls', () => {
  it.each([
    ['PerimeterX', '<html><head><title>Access to this page has been denied</title></head><body><div id="px-captcha"></div></body></html>'],
    ['PerimeterX', '{"appId":"PXabc","jsClientSrc":"/abc/init.js","firstPartyEnabled":true,"vid":"","uuid":"1","hostUrl":"/abc/xhr","blockScript":"/abc/captcha/captcha.js"}'],
    ['DataDome', "<html><script>var dd={'rt':'c','cid':'x','hsh':'y','t':'fe','host':'geo.captcha-delivery.com'}</script></html>"],
    ['Cloudflare', '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><script>window._cf_chl_opt={}</script></body></html>'],
    ['Akamai', '<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY>You don\'t have permission.<P>Reference&#32;&#35;18.1</BODY></HTML>'],
    ['AWS WAF', '<html><script>window.gokuProps = {"key":"x","iv":"y"};</script></html>'],
  ])('%s', (wall, body) => {
    expect(wallOf({}, body)).toBe(wall);
    expect(wallOf({}, Buffer.from(body))).toBe(wall);
  });

  it('ordinary pages carrying the vendors\' sensor scripts are no wall; a challenge header is', async () => {
    expect(wallOf({}, "<html><script>window._pxAppId = 'PXHYx10rg3';</script><script src=\"/cdn-cgi/challenge-platform/scripts/jsd/main.js\"></script></html>")).toBeUndefined();
    expect(wallOf({ 'x-datadome': 'protected' }, '{"ok":true}')).toBeUndefined();
    expect(wallOf({ 'cf-mitigated': 'challenge' }, '')).toBe('Cloudflare');
    const err = await failure(() => refuseWalls('acme', {}, '<div id="px-captcha">'));
    expect([err.code, err.message]).toEqual(['sourceRefused', 'acme: the platform answered a PerimeterX bot wall instead of the page']);
  });
});

describe('Apollo caches', () => {
  const cache = {
    ROOT_QUERY: { 'employer({"id":1})': { __ref: 'Employer:1' }, 'other({})': { n: 1 } },
    'Employer:1': { id: 1, name: 'Acme', ceo: { __ref: 'Ceo:9' }, parent: { __ref: 'Employer:1' }, missing: { __ref: 'Nope:0' } },
    'Ceo:9': { name: 'Pat', employer: { __ref: 'Employer:1' } },
  };

  it('resolves references, leaving loops and missing entities out', () => {
    expect(rootQuery(cache, 'employer')).toEqual({
      id: 1,
      name: 'Acme',
      ceo: { name: 'Pat', employer: undefined },
      parent: undefined,
      missing: undefined,
    });
    expect(rootQuery(cache, 'nothing')).toBeUndefined();
    expect(entitiesOf(cache, 'Ceo')).toHaveLength(1);
  });

  it('a fan-out of references is bounded, not exponential', () => {
    const big: Record<string, unknown> = { ROOT_QUERY: { 'a()': { __ref: 'N:0' } } };
    for (let i = 0; i < 40; i++) big[`N:${i}`] = { l: { __ref: `N:${i + 1}` }, r: { __ref: `N:${i + 1}` } };
    // 2^40 paths without the work budget; with it the walk stops and answers what it reached.
    expect(resolveRefs(big, big.ROOT_QUERY)).toMatchObject({ 'a()': { l: expect.any(Object) } });
  });
});

describe('stay dates', () => {
  it('both days, check-out after check-in, at most a year', async () => {
    expect(stayOf({ checkIn: '2027-06-10', checkOut: '2027-06-14' })).toEqual({ checkIn: '2027-06-10', checkOut: '2027-06-14', nights: 4 });
    expect(stayOf({})).toBeUndefined();
    expect(addDays('2028-02-28', 2)).toBe('2028-03-01');
    for (const [input, field] of [
      [{ checkIn: '2027-06-10' }, 'checkOut'],
      [{ checkOut: '2027-06-10' }, 'checkIn'],
      [{ checkIn: '2027-06-10', checkOut: '2027-06-10' }, 'checkOut'],
      [{ checkIn: '2027-06-10', checkOut: '2028-07-10' }, 'checkOut'],
    ] as const) {
      const err = await failure(() => stayOf(input));
      expect(err.code).toBe('invalidRequest');
      expect(err.message.startsWith(`${field}: `)).toBe(true);
    }
    expect((await failure(() => stayOf({}, true))).message).toMatch(/^checkIn: /);
  });
});
