/**
 * robots.txt as RFC 9309 reads it: groups of user-agent lines with their Allow/Disallow rules (`*` and `$` wildcards,
 * longest match wins, Allow wins a tie), groups for the same agent merged, `Sitemap:` lines anywhere. The one parser
 * and matcher of the open-web sources; free of any fetching (./robots-file.ts reads a site's file).
 *
 *   const robots = parseRobots(text, 'https://example.com/robots.txt');
 *   robots.allows(new URL('https://example.com/private/x'));       // for our crawler (CRAWLER_TOKEN)
 *   verdict(robots, 'googlebot', '/search?q=1');                     // for a named crawler, with the deciding rule
 */
import { patternMatches } from './robots-pattern.js';

export interface RobotsRule {
  allow: boolean;
  /** The path pattern as written (`/search`, `/*?replytocom`, `/page$`). */
  path: string;
}

export interface RobotsGroup {
  /** Lower-cased product tokens; `*` for every crawler. */
  agents: string[];
  rules: RobotsRule[];
  crawlDelaySeconds?: number;
}

export interface Robots {
  groups: RobotsGroup[];
  /** Absolute sitemap addresses, in file order, duplicates removed. */
  sitemaps: string[];
  /** Whether `agent` (our crawler by default) may fetch `url`. */
  allows(url: URL, agent?: string): boolean;
}

export interface RobotsVerdict {
  allowed: boolean;
  /** The rule that decided, when one matched. */
  rule?: RobotsRule;
}

/** RFC 9309 §2.5: crawlers must read at least 500 KiB; anything after is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/**
 * The product token our crawlers answer to. Matching takes the longest token it starts with, so a group for
 * `quarry` applies too; with neither, the `*` groups do.
 */
export const CRAWLER_TOKEN = 'quarrybot';

/** Keys as written (lower-cased), with the spellings crawlers accept. */
const KEY_ALIASES: Record<string, string> = {
  'user-agent': 'agent', useragent: 'agent', 'user agent': 'agent',
  allow: 'allow', disallow: 'disallow',
  sitemap: 'sitemap', 'site-map': 'sitemap',
  'crawl-delay': 'delay',
};

export function parseRobots(text: string, base?: string): Robots {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let current: RobotsGroup | undefined;
  let lastWasAgent = false;
  for (const raw of text.slice(0, ROBOTS_MAX_BYTES).replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = KEY_ALIASES[line.slice(0, colon).trim().toLowerCase()];
    const value = line.slice(colon + 1).trim();
    if (key === 'sitemap') {
      const url = absolute(value, base);
      if (url && !sitemaps.includes(url)) sitemaps.push(url);
      continue;
    }
    if (key === 'agent') {
      // Consecutive user-agent lines share one group; one after a rule starts a new group.
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }));
      if (value) current.agents.push(value.toLowerCase().replace(/\*$/, '') || '*');
      lastWasAgent = true;
      continue;
    }
    if (!key) continue;
    lastWasAgent = false;
    if (!current) continue; // rules before any user-agent line belong to no group
    if (key === 'delay') {
      const n = Number(value);
      if (Number.isFinite(n) && n >= 0) current.crawlDelaySeconds = n;
    } else if (value) {
      // An empty Disallow allows everything: no rule. Patterns must start with `/`; a leading `*` is tolerated.
      current.rules.push({ allow: key === 'allow', path: value.startsWith('/') || value.startsWith('*') ? value : `/${value}` });
    }
  }
  return robotsOf(groups, sitemaps);
}

function robotsOf(groups: RobotsGroup[], sitemaps: string[]): Robots {
  const robots: Robots = {
    groups,
    sitemaps,
    allows: (url, agent = CRAWLER_TOKEN) => verdict(robots, agent, url.pathname + url.search).allowed,
  };
  return robots;
}

/** No rules: everything allowed (RFC 9309 §2.3.1.3, robots.txt unavailable). */
export const ALLOW_ALL: Robots = robotsOf([], []);
/** Everything disallowed but robots.txt itself (RFC 9309 §2.3.1.4, robots.txt unreachable). */
export const DISALLOW_ALL: Robots = robotsOf([{ agents: ['*'], rules: [{ allow: false, path: '/' }] }], []);

/** The groups that apply to `userAgent`: exact token, else the longest token it starts with, else `*`. */
export function groupsFor(robots: Robots, userAgent: string): RobotsGroup[] {
  const token = userAgent.toLowerCase().trim();
  const exact = robots.groups.filter((g) => g.agents.includes(token));
  if (exact.length) return exact;
  let best = 0;
  for (const g of robots.groups) for (const a of g.agents) if (a !== '*' && token.startsWith(a) && a.length > best) best = a.length;
  if (best) return robots.groups.filter((g) => g.agents.some((a) => a !== '*' && a.length === best && token.startsWith(a)));
  return robots.groups.filter((g) => g.agents.includes('*'));
}

/** Whether `userAgent` may fetch `path` (path plus query, e.g. `/search?q=1`). */
export function isAllowed(robots: Robots, userAgent: string, path: string): boolean {
  return verdict(robots, userAgent, path).allowed;
}

export function verdict(robots: Robots, userAgent: string, path: string): RobotsVerdict {
  const target = normalisePath(path);
  if (target === '/robots.txt') return { allowed: true };
  let best: RobotsRule | undefined;
  let bestLength = -1;
  for (const group of groupsFor(robots, userAgent)) {
    for (const rule of group.rules) {
      if (!matches(rule.path, target)) continue;
      const length = normalisePath(rule.path).length;
      if (length > bestLength || (length === bestLength && rule.allow && !best?.allow)) {
        best = rule;
        bestLength = length;
      }
    }
  }
  return best ? { allowed: best.allow, rule: best } : { allowed: true };
}

/** Crawl-delay of the groups that apply, when one sets it. */
export function crawlDelay(robots: Robots, userAgent: string): number | undefined {
  return groupsFor(robots, userAgent).find((g) => g.crawlDelaySeconds !== undefined)?.crawlDelaySeconds;
}

/** Rule paths normalised once each (a final `$` stays: `normalisePath` keeps printable ASCII as it is). */
const normalisedRules = new Map<string, string>();

function matches(pattern: string, path: string): boolean {
  let rule = normalisedRules.get(pattern);
  if (rule === undefined) {
    rule = normalisePath(pattern);
    if (normalisedRules.size > 10_000) normalisedRules.clear();
    normalisedRules.set(pattern, rule);
  }
  return patternMatches(rule, path);
}

/**
 * RFC 9309 §2.2.2: percent-encodes what a URL would (non-ASCII, spaces), upper-cases escapes and decodes escaped
 * unreserved characters, so `%c3%a9`, `%C3%A9` and `é` agree, and `%41` is `A`; an escaped reserved character
 * (`%3A`) stays distinct from the character itself.
 */
function normalisePath(path: string): string {
  let out = '';
  for (const ch of path) out += /[\x21-\x7e]/.test(ch) ? ch : encodeURIComponent(ch);
  return out.replace(/%[0-9a-f]{2}/gi, (m) => {
    const c = String.fromCharCode(parseInt(m.slice(1), 16));
    return /[A-Za-z0-9._~-]/.test(c) ? c : m.toUpperCase();
  });
}

function absolute(value: string, base?: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = base ? new URL(value, base) : new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

