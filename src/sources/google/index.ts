/** The google source: Google's Ads Transparency Center as `google.ads.*` (advertisers, their ads, one ad). */
import { GOOGLE } from '../../catalogue/endpoints/google.js';
import { QuarryError } from '../../errors.js';
import { operation } from '../kit/operation.js';
import { collectPages, readSkipCursor } from '../kit/paging.js';
import type { SourceModule } from '../types.js';
import { adRefOf, advertiserIdOf, domainOf, rpc } from './client.js';
import { creativeDetailOf, creativesOf, suggestionsOf, type GoogleAd } from './normalise.js';
import { geoTargetOf } from './regions.js';
import adSamples from './samples/ads.ad.json' with { type: 'json' };
import advertisersSamples from './samples/ads.advertisers.json' with { type: 'json' };
import searchSamples from './samples/ads.search.json' with { type: 'json' };

const TOKEN = /^[A-Za-z0-9+/=_-]{1,1024}$/;

/** The region of a request: a country's geo target id, or none for "anywhere". */
function regionOf(country: string): number | undefined {
  if (country === 'all') return undefined;
  const id = geoTargetOf(country);
  if (id === undefined) throw new QuarryError('invalidRequest', 'country: not a country the Transparency Center knows', { retryable: false });
  return id;
}

const advertisers = operation(GOOGLE.adsAdvertisers, {
  async run(input, ctx) {
    const region = regionOf(input.country);
    const body = await rpc(ctx, 'SearchService/SearchSuggestions', {
      '1': input.query,
      '2': input.limit,
      '3': input.limit,
      ...(region ? { '4': [region], '5': { '1': 1 } } : {}),
    });
    const found = suggestionsOf(body);
    const list = found.advertisers.slice(0, input.limit);
    return {
      data: { ...(list.length ? { advertisers: list } : {}), ...(found.domains.length ? { domains: found.domains } : {}) },
      ...(list.length + found.domains.length === 0 ? { free: true } : {}),
    };
  },
  samples: advertisersSamples,
});

/** Days as the ad's first and last shown instants compare: `to` includes its whole day. */
function shownWithin(ad: GoogleAd, from?: string, to?: string): boolean {
  if (to && ad.startedAt && ad.startedAt > `${to}T23:59:59.999Z`) return false;
  if (from && (ad.endedAt ?? ad.startedAt ?? '') < `${from}T00:00:00.000Z`) return false;
  return true;
}

const search = operation(GOOGLE.adsSearch, {
  async run(input, ctx) {
    if (Boolean(input.advertiser) === Boolean(input.domain)) {
      throw new QuarryError('invalidRequest', 'advertiser: give either an advertiser or a domain', { retryable: false });
    }
    const advertiserId = input.advertiser ? advertiserIdOf(input.advertiser) : undefined;
    const domain = input.domain ? domainOf(input.domain) : '';
    const region = regionOf(input.country);
    let total: { min?: number; max?: number } | undefined;
    // Format and dates are read off each ad (their request fields are not known well enough to send): a page so
    // filtered may be short, and its cursor still pages on.
    const page = await collectPages(
      readSkipCursor(input.cursor, TOKEN),
      input.limit,
      async (token, want) => {
        const body = await rpc(ctx, 'SearchService/SearchCreatives', {
          '2': Math.min(100, Math.max(1, want)),
          '3': { ...(region ? { '8': [region] } : {}), '12': { '1': domain, '2': true }, ...(advertiserId ? { '13': { '1': [advertiserId] } } : {}) },
          ...(token ? { '4': token } : {}),
          '7': region ? { '1': 1, '2': 0, '3': region } : { '1': 1 },
        });
        const found = creativesOf(body);
        total ??= found.total;
        const ads = found.ads.filter((ad) => (input.format === 'all' || ad.format === input.format) && shownWithin(ad, input.from, input.to));
        return { items: ads, token: found.token };
      },
      1,
    );
    return {
      data: { ads: page.items, ...(total && Object.keys(total).length ? { total } : {}), ...(page.cursor ? { cursor: page.cursor } : {}) },
      ...(page.items.length === 0 ? { free: true } : {}),
    };
  },
  samples: searchSamples,
});

const ad = operation(GOOGLE.adsAd, {
  async run(input, ctx) {
    const ref = adRefOf(input.ad, input.advertiser);
    const body = await rpc(ctx, 'LookupService/GetCreativeById', { '1': ref.advertiserId, '2': ref.creativeId, '5': { '1': 1 } });
    if (body['1'] === undefined) throw new QuarryError('notFound', `ad: the Transparency Center shows no ad ${ref.creativeId} of ${ref.advertiserId}`);
    return { data: { ad: creativeDetailOf(body, ref) } };
  },
  samples: adSamples,
});

const google: SourceModule = {
  id: 'google',
  needs: { proxy: 'advised' },
  operations: [advertisers, search, ad],
};

export default google;
