import { choice, countryOrAll, cursor, date, endpoint, limit, text } from '../fields.js';
import { int, list, literal, rec, str } from '../records.js';
import { AD_FIELDS, COUNT_RANGE } from '../vocabulary.js';

/**
 * An ad (a "creative") of Google's Ads Transparency Center, in the shared ad vocabulary the Meta and TikTok libraries
 * use: `startedAt` and `endedAt` are the first and last days Google showed it, `format` text, image or video; Google's
 * own are the preview page that renders it, how many days it ran, the display domain and the countries it ran in.
 * A search always gives the first-shown day; one ad's detail may not, so `startedAt` is not required here.
 */
export const GOOGLE_AD = rec(
  { type: literal('ad'), id: str, url: str, advertiser: rec({ id: str }, { name: str, url: str }) },
  {
    ...(({ url: _url, advertiser: _advertiser, ...rest }) => rest)(AD_FIELDS),
    /** The address of Google's own rendering of the ad (a script page; it renders in a browser). */
    previewUrl: str,
    daysShown: int,
    domain: str,
    /** ISO 3166-1 codes of the countries the ad was shown in. */
    countries: list(str),
  },
);

/** An advertiser (verified by Google) as the Transparency Center's search suggests it, or a domain it suggests. */
export const GOOGLE_ADVERTISER = rec(
  { type: literal('advertiser'), id: str, name: str, url: str },
  { country: str, ads: COUNT_RANGE },
);

const adCursor = () =>
  cursor('^(?:[0-9]{1,4}~)?[A-Za-z0-9+/=_-]{0,1024}$', "the Transparency Center's page token, optionally after N~ (a cut page)", 1029);

export const GOOGLE = {
  adsAdvertisers: endpoint({
    id: 'google.ads.advertisers',
    title: 'Google ads transparency: advertisers',
    summary: "Finds advertisers in Google's Ads Transparency Center by name, with their verified country, advertiser id and ad count, and matching domains.",
    credits: 1,
    cacheTtlSeconds: 86400,
    fields: {
      query: text(1, 200, 'advertiser name or domain'),
      country: countryOrAll('all'),
      limit: limit(1, 50, 10),
    },
    required: ['query'],
    example: { query: 'nike', limit: 10 },
    output: rec({}, { advertisers: list(GOOGLE_ADVERTISER), domains: list(str) }),
  }),
  adsSearch: endpoint({
    id: 'google.ads.search',
    title: 'Google ads transparency: ads',
    summary: "Returns the ads an advertiser (by id) or a domain runs or ran on Google, from the Ads Transparency Center, with format, first and last shown days and previews.",
    credits: 2,
    perItems: 10,
    cacheTtlSeconds: 1800,
    fields: {
      advertiser: text(1, 2048, 'advertiser id (AR followed by 20 digits) or its Transparency Center address'),
      domain: text(1, 253, 'a domain whose ads to list (example.com)'),
      country: countryOrAll('all'),
      format: choice(['all', 'text', 'image', 'video'], 'all'),
      from: date(),
      to: date(),
      limit: limit(1, 100, 40),
      cursor: adCursor(),
    },
    itemsField: 'ads',
    example: { domain: 'nike.com', country: 'us', limit: 40 },
    output: rec({ ads: list(GOOGLE_AD) }, { total: COUNT_RANGE, cursor: str }),
  }),
  adsAd: endpoint({
    id: 'google.ads.ad',
    title: 'Google ads transparency: ad',
    summary: "Returns one ad of Google's Ads Transparency Center (by its address, or its id and advertiser): advertiser, its versions' images and previews, last shown day and countries.",
    credits: 2,
    cacheTtlSeconds: 3600,
    fields: {
      ad: text(1, 2048, 'the ad’s Transparency Center address, or its id (CR followed by 20 digits)'),
      advertiser: text(1, 2048, 'advertiser id (AR followed by 20 digits), when `ad` is an id'),
    },
    required: ['ad'],
    example: { ad: 'https://adstransparency.google.com/advertiser/AR01000000000000000001/creative/CR00000000000000000001' },
    output: rec({ ad: GOOGLE_AD }),
  }),
};
