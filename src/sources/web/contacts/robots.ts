/**
 * robots.txt (RFC 9309) for the pages the crawler chooses. The groups for our product token `quarry`, else the `*`
 * groups; the longest matching rule wins and Allow wins a tie; `*` and a final `$` are the only special characters.
 */
import { robotsPatternMatches } from '../../../lib/robots-pattern.js';

export interface Robots {
  allows(url: URL): boolean;
}

interface Rule {
  allow: boolean;
  pattern: string;
  /** The pattern with its percent-escapes normalised as URLs reach us (see `robotsPatternMatches`). */
  normalised: string;
}

export const PRODUCT_TOKEN = 'quarry';

export const ALLOW_ALL: Robots = { allows: () => true };
/** RFC 9309 §2.3.1.4: when robots.txt cannot be read (5xx, network), assume complete disallow. */
export const DISALLOW_ALL: Robots = { allows: () => false };

export function parseRobots(text: string, token = PRODUCT_TOKEN): Robots {
  const mine: Rule[] = [];
  const anyone: Rule[] = [];
  let agents: string[] = [];
  let inRules = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const field = m[1].toLowerCase();
    const value = m[2].trim();
    if (field === 'user-agent') {
      // A user-agent line after rules starts a new group.
      if (inRules) agents = [];
      inRules = false;
      agents.push(value.toLowerCase());
      continue;
    }
    if (field !== 'allow' && field !== 'disallow') continue;
    inRules = true;
    // An empty Disallow allows everything: it adds no rule.
    if (!value) continue;
    const rule: Rule = { allow: field === 'allow', pattern: value, normalised: normalisePercent(value) };
    if (agents.some((a) => a.split('/')[0] === token)) mine.push(rule);
    if (agents.includes('*')) anyone.push(rule);
  }
  const rules = hasGroup(text, token) ? mine : anyone;
  return {
    allows(url: URL): boolean {
      const path = `${url.pathname}${url.search}`;
      if (path === '/robots.txt') return true;
      let best: Rule | undefined;
      for (const r of rules) {
        if (!robotsPatternMatches(r.normalised, path)) continue;
        if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow)) best = r;
      }
      return best ? best.allow : true;
    },
  };
}

/** True when a group names our token, even one without rules (then everything is allowed to us). */
function hasGroup(text: string, token: string): boolean {
  return text.split(/\r\n|\r|\n/).some((l) => {
    const m = /^\s*user-agent\s*:\s*([^#\s]+)/i.exec(l);
    return !!m && m[1].toLowerCase().split('/')[0] === token;
  });
}

/** Rules may be written with raw UTF-8 or percent-escapes; URLs reach us percent-encoded (uppercase hex). */
function normalisePercent(s: string): string {
  try {
    return encodeURI(decodeURI(s)).replace(/%25(?=[0-9A-Fa-f]{2})/g, '%');
  } catch {
    return s;
  }
}
