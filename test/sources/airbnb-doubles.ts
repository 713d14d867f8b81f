/**
 * The replay set-up of the airbnb source. No Airbnb answer is recorded: every answer is a documented-shape double
 * (test/fixtures/documented/airbnb/, written from the layouts scrapfly-scrapers and pyairbnb read; not recordings),
 * plus the refusal shapes: a DataDome captcha page, a refused API key and a rotated persisted-query hash.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/airbnb/', import.meta.url));
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };
export const NEXT_CURSOR = Buffer.from('{"section_offset":0,"items_offset":3,"version":1}').toString('base64');

export const DATADOME_WALL =
  "<html><head><title>airbnb.com</title></head><body><script>var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'A1B2','t':'fe','s':1,'e':'x','host':'geo.captcha-delivery.com'}</script>" +
  '<script src="https://ct.captcha-delivery.com/c.js"></script></body></html>';

const variables = (s: Seen): any => {
  try {
    return JSON.parse(s.query.get('variables') ?? '{}');
  } catch {
    return {};
  }
};

export const AIRBNB_ROUTES: ReplayRoute[] = [
  { method: 'GET', host: 'www.airbnb.com', path: '/s/Lisbon--Portugal/homes', query: { cursor: NEXT_CURSOR }, file: file('search-page.lisbon.2.html'), headers: HTML },
  { method: 'GET', host: 'www.airbnb.com', path: '/s/Lisbon--Portugal/homes', file: file('search-page.lisbon.html'), headers: HTML },
  { method: 'GET', host: 'www.airbnb.com', path: '/s/Sao-Paulo/homes', file: file('search-page.legacy.html'), headers: HTML },
  { method: 'GET', host: 'www.airbnb.com', path: '/s/walled/homes', status: 403, text: DATADOME_WALL, headers: HTML },
  { method: 'GET', host: 'www.airbnb.com', path: '/rooms/1234567890123456789', file: file('listing-page.1234567890123456789.html'), headers: HTML },
  { method: 'GET', host: 'www.airbnb.com', path: '/rooms/1', status: 404, text: '<html><title>Page not found - Airbnb</title></html>', headers: HTML },
  { method: 'GET', host: 'www.airbnb.com', path: /^\/api\/v3\//, status: 401, text: '{"error_code":401,"error_type":"invalid_key","error_message":"Invalid API key"}', headers: JSON_TYPE, match: (s) => s.headers['x-airbnb-api-key'] === 'revoked' },
  { method: 'GET', host: 'www.airbnb.com', path: /^\/api\/v3\/StaysPdpReviewsQuery\/rotated$/, file: file('persisted-query-not-found.json'), headers: JSON_TYPE },
  { method: 'GET', host: 'www.airbnb.com', path: /^\/api\/v3\/StaysPdpReviewsQuery\//, file: file('reviews.page2.json'), headers: JSON_TYPE, match: (s) => variables(s).pdpReviewsRequest?.offset === '2' },
  { method: 'GET', host: 'www.airbnb.com', path: /^\/api\/v3\/StaysPdpReviewsQuery\//, file: file('reviews.page1.json'), headers: JSON_TYPE, match: (s) => variables(s).pdpReviewsRequest?.offset === '0' },
  { method: 'GET', host: 'www.airbnb.com', path: /^\/api\/v3\/PdpAvailabilityCalendar\//, file: file('calendar.2027-06.json'), headers: JSON_TYPE, match: (s) => variables(s).request?.month === 6 },
];

export const airbnbReplay = (): ReplayOptions => ({ folders: [], routes: AIRBNB_ROUTES });
export const AIRBNB_HOSTS = ['www.airbnb.com'];
