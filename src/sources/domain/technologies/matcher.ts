/**
 * Matches a site's signals against a fingerprint set (compiled once). Every input handed to a pattern is bounded
 * here, whatever the caller collected, so a pattern's work stays proportional to a few hundred kilobytes at most.
 */
import type { DETECTION, EVIDENCE } from '../../../catalogue/endpoints/domain.js';
import type { TypeOf } from '../../../catalogue/types.js';
import { DNS_TYPES, type DnsSignalType, type FingerprintSet, type PatternSpec } from './fingerprints.js';

/** Why a technology was reported, and one technology, as domain.technologies' record declares them. */
export type Detection = TypeOf<typeof DETECTION>;
export type Evidence = TypeOf<typeof EVIDENCE>;
export type EvidenceKind = Evidence['kind'];

export interface DnsValue {
  /** Owner name of the record. */
  host: string;
  value: string;
}

export interface Signals {
  /** Final address after redirects. */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Set-Cookie name → value. */
  cookies: Record<string, string>;
  /** Lower-case meta name (or property) and its content. */
  meta: { name: string; content: string }[];
  /** Absolute script addresses. */
  scripts: string[];
  /** A bounded slice of the page's HTML. */
  html: string;
  dns: Partial<Record<DnsSignalType, DnsValue[]>>;
}

/** Per-signal bounds (characters) and counts. */
export const LIMITS = {
  headerValue: 2048,
  cookieValue: 512,
  metaContent: 1024,
  script: 2048,
  url: 2048,
  html: 512 * 1024,
  dnsValue: 1024,
  scripts: 300,
  meta: 300,
  cookies: 100,
  dnsRecords: 50,
  evidenceValue: 200,
  evidencePerTechnology: 6,
} as const;

interface Rule {
  tech: string;
  re: RegExp;
  confidence: number;
  /** Identifies the pattern, so one pattern matching many scripts counts once. */
  id: number;
}

interface Found {
  scores: Map<number, number>;
  evidence: Evidence[];
  versions: string[];
}

const VERSION = /^[\w.+-]{1,40}$/;

export class Matcher {
  private readonly set: FingerprintSet;
  private readonly headers = new Map<string, Rule[]>();
  private readonly cookiesExact = new Map<string, Rule[]>();
  private readonly cookiesPrefix: { prefix: string; rule: Rule }[] = [];
  private readonly meta = new Map<string, Rule[]>();
  private readonly scriptSrc: Rule[] = [];
  private readonly html: Rule[] = [];
  private readonly url: Rule[] = [];
  private readonly dns = new Map<DnsSignalType, Rule[]>();
  private nextId = 0;

  constructor(set: FingerprintSet) {
    this.set = set;
    for (const [tech, f] of Object.entries(set)) {
      for (const [name, p] of Object.entries(f.headers ?? {})) push(this.headers, name.toLowerCase(), this.rule(tech, p));
      for (const [name, p] of Object.entries(f.cookies ?? {})) {
        if (name.endsWith('*')) this.cookiesPrefix.push({ prefix: name.slice(0, -1).toLowerCase(), rule: this.rule(tech, p) });
        else push(this.cookiesExact, name.toLowerCase(), this.rule(tech, p));
      }
      for (const [name, p] of Object.entries(f.meta ?? {})) push(this.meta, name.toLowerCase(), this.rule(tech, p));
      for (const p of f.scriptSrc ?? []) this.scriptSrc.push(this.rule(tech, p));
      for (const p of f.html ?? []) this.html.push(this.rule(tech, p));
      for (const p of f.url ?? []) this.url.push(this.rule(tech, p));
      for (const type of DNS_TYPES) for (const p of f.dns?.[type] ?? []) push(this.dns, type, this.rule(tech, p));
    }
  }

  get size(): number {
    return Object.keys(this.set).length;
  }

  private rule(tech: string, p: PatternSpec): Rule {
    const source = typeof p === 'string' ? p : p.pattern;
    const confidence = typeof p === 'string' ? 100 : (p.confidence ?? 100);
    return { tech, re: new RegExp(source, 'i'), confidence, id: this.nextId++ };
  }

  detect(s: Signals): Detection[] {
    const found = new Map<string, Found>();
    const hit = (rule: Rule, input: string, evidence: Evidence): void => {
      const m = rule.re.exec(input);
      if (!m) return;
      let f = found.get(rule.tech);
      if (!f) found.set(rule.tech, (f = { scores: new Map(), evidence: [], versions: [] }));
      f.scores.set(rule.id, rule.confidence);
      const version = m.slice(1).find((g) => g !== undefined && g !== '');
      if (version && VERSION.test(version)) f.versions.push(version);
      if (evidence.kind === 'html') evidence = { ...evidence, value: m[0] };
      const shown = evidence.value === undefined ? evidence : { ...evidence, value: evidence.value.slice(0, LIMITS.evidenceValue) };
      const same = (e: Evidence) => e.kind === shown.kind && e.name === shown.name && e.value === shown.value;
      if (f.evidence.length < LIMITS.evidencePerTechnology && !f.evidence.some(same)) f.evidence.push(shown);
    };

    for (const [rawName, rawValue] of Object.entries(s.headers)) {
      const name = rawName.toLowerCase();
      const value = String(rawValue).slice(0, LIMITS.headerValue);
      for (const rule of this.headers.get(name) ?? []) hit(rule, value, { kind: 'header', name, value });
    }
    for (const [name, rawValue] of Object.entries(s.cookies).slice(0, LIMITS.cookies)) {
      const lower = name.toLowerCase();
      const value = String(rawValue).slice(0, LIMITS.cookieValue);
      for (const rule of this.cookiesExact.get(lower) ?? []) hit(rule, value, { kind: 'cookie', name });
      for (const { prefix, rule } of this.cookiesPrefix) if (lower.startsWith(prefix)) hit(rule, value, { kind: 'cookie', name });
    }
    for (const { name, content } of s.meta.slice(0, LIMITS.meta)) {
      const value = content.slice(0, LIMITS.metaContent);
      for (const rule of this.meta.get(name.toLowerCase()) ?? []) hit(rule, value, { kind: 'meta', name: name.toLowerCase(), value });
    }
    for (const raw of s.scripts.slice(0, LIMITS.scripts)) {
      const src = raw.slice(0, LIMITS.script);
      for (const rule of this.scriptSrc) hit(rule, src, { kind: 'script', value: src });
    }
    const html = s.html.slice(0, LIMITS.html);
    for (const rule of this.html) hit(rule, html, { kind: 'html' });
    const url = s.url.slice(0, LIMITS.url);
    for (const rule of this.url) hit(rule, url, { kind: 'url', value: url });
    for (const type of DNS_TYPES) {
      for (const { value: raw } of (s.dns[type] ?? []).slice(0, LIMITS.dnsRecords)) {
        const value = raw.slice(0, LIMITS.dnsValue);
        for (const rule of this.dns.get(type) ?? []) hit(rule, value, { kind: 'dns', name: type, value });
      }
    }
    return this.finish(found);
  }

  private finish(found: Map<string, Found>): Detection[] {
    const out = new Map<string, Detection>();
    for (const [name, f] of found) {
      const sum = [...f.scores.values()].reduce((a, b) => a + b, 0);
      out.set(name, this.detection(name, {
        // The most specific version seen (1.2.3 over 1.2); the first one on ties.
        version: f.versions.reduce<string | undefined>((best, v) => (best === undefined || v.length > best.length ? v : best), undefined),
        confidence: Math.min(100, sum),
        evidence: f.evidence,
      }));
    }
    // Implied technologies, transitively; a cycle stops at names already present.
    const queue = [...out.values()];
    while (queue.length) {
      const d = queue.shift()!;
      for (const implied of this.set[d.name]?.implies ?? []) {
        const existing = out.get(implied);
        if (existing) {
          if (existing.impliedBy && !existing.impliedBy.includes(d.name)) existing.impliedBy.push(d.name);
          continue;
        }
        const added = this.detection(implied, { version: undefined, confidence: d.confidence, evidence: [], impliedBy: [d.name] });
        out.set(implied, added);
        queue.push(added);
      }
    }
    return [...out.values()].sort((a, b) => b.confidence - a.confidence || a.name.localeCompare(b.name));
  }

  private detection(name: string, parts: Omit<Detection, 'name' | 'category' | 'website'>): Detection {
    const f = this.set[name];
    return { name, category: f.category, ...parts, ...(f.website ? { website: f.website } : {}) };
  }
}

function push<K>(map: Map<K, Rule[]>, key: K, rule: Rule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}
