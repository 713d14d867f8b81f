/**
 * Reading a site's robots.txt through a page fetcher: what it answered (status, rules, or why there are none), and
 * the rules a crawler then follows (RFC 9309 §2.3.1: a missing file allows everything, an unreachable one allows
 * nothing). Reading never throws: a site that cannot be reached is an answer the caller judges.
 */
import { failureReason, type Fetcher } from './fetch.js';
import { contentType } from './page.js';
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, ROBOTS_MAX_BYTES, type Robots } from './robots.js';

export interface RobotsFile {
  url: string;
  /** HTTP status, absent when the file could not be fetched. */
  status?: number;
  /** The parsed rules: a 200 answer that is not an HTML page. */
  robots?: Robots;
  /** Why there are no rules although the site answered, or why it could not be read. */
  error?: string;
  /** The request's failure, when the file could not be fetched at all (refused, unreachable, too large). */
  failure?: unknown;
}

/** Bytes fetched: twice what RFC 9309 asks a crawler to read (the parser reads the first 500 KiB). */
export const ROBOTS_FETCH_BYTES = ROBOTS_MAX_BYTES * 2;

/** The robots.txt of `origin` (`https://example.com`). */
export async function readRobots(fetcher: Fetcher, origin: string): Promise<RobotsFile> {
  const url = `${origin}/robots.txt`;
  let res;
  try {
    res = await fetcher(url, { maxBytes: ROBOTS_FETCH_BYTES, accept: 'text/plain,*/*;q=0.1' });
  } catch (e) {
    return { url, error: failureReason(e), failure: e };
  }
  if (res.status !== 200) return { url, status: res.status };
  if (/html/.test(contentType(res.headers)) || /^\s*</.test(res.body.subarray(0, 512).toString('utf8'))) {
    return { url, status: res.status, error: 'answered with an HTML page, not a robots.txt' };
  }
  return { url, status: res.status, robots: parseRobots(res.body.toString('utf8'), res.url) };
}

/** The rules a crawler follows: the file's; everything when it is missing (4xx); nothing when unreachable (5xx, failure). */
export function crawlRules(file: RobotsFile): Robots {
  if (file.robots) return file.robots;
  return file.failure !== undefined || (file.status ?? 0) >= 500 ? DISALLOW_ALL : ALLOW_ALL;
}

/** Each origin's crawl rules, read once per call (the first ask starts the read; later asks share it). */
export function robotsPerOrigin(fetcher: Fetcher): (origin: string) => Promise<Robots> {
  const byOrigin = new Map<string, Promise<Robots>>();
  return (origin) => {
    let robots = byOrigin.get(origin);
    if (!robots) byOrigin.set(origin, (robots = readRobots(fetcher, origin).then(crawlRules)));
    return robots;
  };
}
