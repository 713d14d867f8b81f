/**
 * The replay set-up of the booking source. No Booking.com answer is recorded: every answer is a documented-shape
 * double (test/fixtures/documented/booking/, written from the layouts scrapfly-scrapers reads; not recordings), plus
 * the refusal shapes: AWS WAF's challenge stub (HTTP 202) and a GraphQL error.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UPSTREAM_DIR, type ReplayOptions, type ReplayRoute, type Seen } from '../helpers/replay.js';

const DOCUMENTED = fileURLToPath(new URL('../fixtures/documented/booking/', import.meta.url));
const file = (name: string) => path.relative(UPSTREAM_DIR, `${DOCUMENTED}${name}`);
const HTML = { 'content-type': 'text/html; charset=utf-8' };
const JSON_TYPE = { 'content-type': 'application/json' };

/** The stub AWS WAF answers a client that runs no JavaScript (its challenge variables and script). */
export const AWS_WAF_STUB =
  '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title></title>' +
  '<script>window.awsWafCookieDomainList = [\'booking.com\'];window.gokuProps = {"key":"AQIDAHjcYu","iv":"CgAFYj","context":"example"};</script>' +
  '<script src="https://d8c14d4960ca.ad1b2f8c.eu-west-1.token.awswaf.com/d8c14d4960ca/challenge.js"></script></head><body></body></html>';

const input = (s: Seen): any => ((s.body ?? {}) as any).variables?.input ?? {};

export const BOOKING_ROUTES: ReplayRoute[] = [
  { method: 'GET', host: 'www.booking.com', path: '/searchresults.html', query: { ss: 'Valletta', offset: '2' }, file: file('searchresults.valletta.offset2.html'), headers: HTML },
  { method: 'GET', host: 'www.booking.com', path: '/searchresults.html', query: { ss: 'Valletta' }, file: file('searchresults.valletta.html'), headers: HTML, match: (s) => !s.query.has('offset') },
  { method: 'GET', host: 'www.booking.com', path: '/searchresults.html', query: { ss: 'walled' }, status: 202, text: AWS_WAF_STUB, headers: HTML },
  { method: 'GET', host: 'www.booking.com', path: '/hotel/mt/example-harbour.html', file: file('hotel.mt.example-harbour.html'), headers: HTML },
  { method: 'GET', host: 'www.booking.com', path: '/hotel/mt/missing.html', status: 404, text: '<html><title>404 Not Found</title></html>', headers: HTML },
  { method: 'POST', host: 'www.booking.com', path: '/dml/graphql', file: file('reviewlist.skip0.json'), headers: JSON_TYPE, match: (s) => input(s).skip === 0 },
  { method: 'POST', host: 'www.booking.com', path: '/dml/graphql', file: file('reviewlist.skip2.json'), headers: JSON_TYPE, match: (s) => input(s).skip === 2 },
  { method: 'POST', host: 'www.booking.com', path: '/dml/graphql', file: file('graphql-errors.json'), headers: JSON_TYPE, match: (s) => input(s).skip === 40 },
];

export const bookingReplay = (): ReplayOptions => ({ folders: [], routes: BOOKING_ROUTES });
export const BOOKING_HOSTS = ['www.booking.com'];
