/**
 * The fingerprint format of `domain.technologies`, its validation, and the loading of the built-in sets plus the
 * operator's extra file (QUARRY_DOMAIN_FINGERPRINTS_FILE).
 *
 * A fingerprint file is JSON:
 *
 *   { "technologies": {
 *       "<Name>": {
 *         "category": "Web servers",                 required, 1-60 characters
 *         "website": "https://nginx.org",            optional, http(s)
 *         "headers":   { "<header name>": P },       response header (name case-insensitive) whose value matches P
 *         "cookies":   { "<cookie name>": P },       Set-Cookie name (exact, or a prefix ending in `*`); P runs on the value
 *         "meta":      { "<meta name>": P },         <meta name|property=…> (case-insensitive) whose content matches P
 *         "scriptSrc": [P, …],                       any <script src> (resolved to an absolute address)
 *         "html":      [P, …],                       the page's HTML (a bounded slice: its start and its end)
 *         "url":       [P, …],                       the final address after redirects
 *         "dns":       { "MX"|"TXT"|"NS"|"CNAME": [P, …] }   records of the domain (MX/NS: target name; TXT: text;
 *                                                    CNAME: target of the name and of the final host)
 *         "implies":   ["<Name>", …]                 technologies this one always runs on (must exist in the merged set)
 *       } } }
 *
 * P is a pattern: a string holding a JavaScript regular expression (always case-insensitive), or
 * `{ "pattern": "…", "confidence": 1-100 }` for a weak signal (the default confidence is 100; a technology's
 * confidence is the sum of its distinct matched patterns, capped at 100). `""` matches any value (presence).
 * Version convention: the first capture group that takes part in the match is the version (`^nginx(?:/([\d.]+))?`);
 * write groups that are not a version as `(?:…)`. Patterns must pass the safety rules of safe-regex.ts.
 * Top-level keys starting with `_` are comments. An operator file is merged over the built-in set: a technology of
 * the same name replaces the built-in one.
 */
import { readFileSync } from 'node:fs';
import { isObj } from '../../kit/read.js';
import { unsafeReason } from './safe-regex.js';
import builtIn from './fingerprints.json' with { type: 'json' };
import retire from './retire-scripts.json' with { type: 'json' };

export const DNS_TYPES = ['MX', 'TXT', 'NS', 'CNAME'] as const;
export type DnsSignalType = (typeof DNS_TYPES)[number];

export type PatternSpec = string | { pattern: string; confidence?: number };

export interface Fingerprint {
  category: string;
  website?: string;
  headers?: Record<string, PatternSpec>;
  cookies?: Record<string, PatternSpec>;
  meta?: Record<string, PatternSpec>;
  scriptSrc?: PatternSpec[];
  html?: PatternSpec[];
  url?: PatternSpec[];
  dns?: Partial<Record<DnsSignalType, PatternSpec[]>>;
  implies?: string[];
}

export type FingerprintSet = Record<string, Fingerprint>;

/** A fingerprint file that breaks the format or the safety rules; `message` names the place and the rule. */
export class FingerprintError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FingerprintError';
  }
}

const FIELDS = new Set(['category', 'website', 'headers', 'cookies', 'meta', 'scriptSrc', 'html', 'url', 'dns', 'implies']);
const MAX_TECHNOLOGIES = 5000;
const MAX_PATTERNS_PER_LIST = 50;
const NAME = /^[^\u0000-\u001f]{1,80}$/;

function checkPattern(where: string, p: unknown, largeInput = false): PatternSpec {
  const pattern = isObj(p) ? p.pattern : p;
  if (typeof pattern !== 'string') throw new FingerprintError(`${where}: must be a regex string or {pattern, confidence}`);
  if (isObj(p)) {
    const extra = Object.keys(p).filter((k) => k !== 'pattern' && k !== 'confidence');
    if (extra.length) throw new FingerprintError(`${where}: unknown key "${extra[0]}"`);
    const c = p.confidence;
    if (c !== undefined && (typeof c !== 'number' || !Number.isInteger(c) || c < 1 || c > 100)) {
      throw new FingerprintError(`${where}.confidence: must be an integer from 1 to 100`);
    }
  }
  const reason = unsafeReason(pattern, { largeInput });
  if (reason) throw new FingerprintError(`${where}: ${reason}: ${JSON.stringify(pattern.slice(0, 80))}`);
  return p as PatternSpec;
}

function checkMap(where: string, v: unknown, keyRule: (k: string) => boolean, keyWhat: string): void {
  if (!isObj(v)) throw new FingerprintError(`${where}: must be an object of ${keyWhat} → pattern`);
  const entries = Object.entries(v);
  if (entries.length > MAX_PATTERNS_PER_LIST) throw new FingerprintError(`${where}: more than ${MAX_PATTERNS_PER_LIST} entries`);
  for (const [k, p] of entries) {
    if (!keyRule(k)) throw new FingerprintError(`${where}: ${JSON.stringify(k)} is not a valid ${keyWhat}`);
    checkPattern(`${where}[${JSON.stringify(k)}]`, p);
  }
}

function checkList(where: string, v: unknown, largeInput = false): void {
  if (!Array.isArray(v)) throw new FingerprintError(`${where}: must be a list of patterns`);
  if (v.length > MAX_PATTERNS_PER_LIST) throw new FingerprintError(`${where}: more than ${MAX_PATTERNS_PER_LIST} patterns`);
  v.forEach((p, i) => checkPattern(`${where}[${i}]`, p, largeInput));
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/i;

function checkFingerprint(where: string, f: unknown): Fingerprint {
  if (!isObj(f)) throw new FingerprintError(`${where}: must be an object`);
  for (const k of Object.keys(f)) if (!FIELDS.has(k)) throw new FingerprintError(`${where}: unknown key "${k}"`);
  if (typeof f.category !== 'string' || !f.category.trim() || f.category.length > 60) {
    throw new FingerprintError(`${where}.category: required, a string of 1-60 characters`);
  }
  if (f.website !== undefined && (typeof f.website !== 'string' || !/^https?:\/\/\S{1,200}$/.test(f.website))) {
    throw new FingerprintError(`${where}.website: must be an http(s) address`);
  }
  if (f.headers !== undefined) checkMap(`${where}.headers`, f.headers, (k) => TOKEN.test(k), 'header name');
  if (f.cookies !== undefined) checkMap(`${where}.cookies`, f.cookies, (k) => TOKEN.test(k), 'cookie name');
  if (f.meta !== undefined) checkMap(`${where}.meta`, f.meta, (k) => /^[\w:.-]{1,100}$/.test(k), 'meta name');
  for (const k of ['scriptSrc', 'html', 'url'] as const) if (f[k] !== undefined) checkList(`${where}.${k}`, f[k], k === 'html');
  if (f.dns !== undefined) {
    if (!isObj(f.dns)) throw new FingerprintError(`${where}.dns: must be an object of ${DNS_TYPES.join('|')} → patterns`);
    for (const [t, list] of Object.entries(f.dns)) {
      if (!(DNS_TYPES as readonly string[]).includes(t)) throw new FingerprintError(`${where}.dns: record type "${t}" is not one of ${DNS_TYPES.join(', ')}`);
      checkList(`${where}.dns.${t}`, list);
    }
  }
  if (f.implies !== undefined && (!Array.isArray(f.implies) || !f.implies.every((n) => typeof n === 'string' && NAME.test(n)))) {
    throw new FingerprintError(`${where}.implies: must be a list of technology names`);
  }
  return f as unknown as Fingerprint;
}

/** Validates a parsed fingerprint file (`origin` names it in messages) and returns its technologies. */
export function parseFingerprintFile(json: unknown, origin: string): FingerprintSet {
  if (!isObj(json) || !isObj(json.technologies)) throw new FingerprintError(`${origin}: must be an object {"technologies": {…}}`);
  for (const k of Object.keys(json)) if (k !== 'technologies' && !k.startsWith('_')) throw new FingerprintError(`${origin}: unknown key "${k}"`);
  const entries = Object.entries(json.technologies);
  if (entries.length > MAX_TECHNOLOGIES) throw new FingerprintError(`${origin}: more than ${MAX_TECHNOLOGIES} technologies`);
  const out: FingerprintSet = {};
  for (const [name, f] of entries) {
    if (!NAME.test(name)) throw new FingerprintError(`${origin}: technology name ${JSON.stringify(name.slice(0, 80))} must be 1-80 printable characters`);
    out[name] = checkFingerprint(`${origin}: technologies[${JSON.stringify(name)}]`, f);
  }
  return out;
}

/** Every `implies` must name a technology of the merged set. */
export function checkImplies(set: FingerprintSet, origin: string): void {
  for (const [name, f] of Object.entries(set)) {
    for (const n of f.implies ?? []) {
      if (!set[n]) throw new FingerprintError(`${origin}: technologies[${JSON.stringify(name)}].implies names unknown technology ${JSON.stringify(n)}`);
    }
  }
}

const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** Reads and validates an operator file; every failure is a FingerprintError naming the file. */
export function readFingerprintFile(path: string): FingerprintSet {
  let text: string;
  try {
    const buf = readFileSync(path);
    if (buf.length > MAX_FILE_BYTES) throw new FingerprintError(`${path}: larger than ${MAX_FILE_BYTES} bytes`);
    text = buf.toString('utf8');
  } catch (e) {
    if (e instanceof FingerprintError) throw e;
    throw new FingerprintError(`${path}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new FingerprintError(`${path}: not valid JSON (${(e as Error).message})`);
  }
  return parseFingerprintFile(json, path);
}

/** Our own set over the Retire.js-derived libraries; where both name a technology, its script patterns are joined. */
export function mergeBuiltIn(own: FingerprintSet, libs: FingerprintSet): FingerprintSet {
  const set: FingerprintSet = { ...libs };
  for (const [name, f] of Object.entries(own)) {
    const lib = libs[name];
    set[name] = lib?.scriptSrc ? { ...f, scriptSrc: [...(f.scriptSrc ?? []), ...lib.scriptSrc] } : f;
  }
  checkImplies(set, 'built-in fingerprints');
  return set;
}

/** The committed sets: our own fingerprints.json and the JavaScript libraries derived from Retire.js. */
export function builtInFingerprints(): FingerprintSet {
  return mergeBuiltIn(parseFingerprintFile(builtIn, 'fingerprints.json'), parseFingerprintFile(retire, 'retire-scripts.json'));
}

/** Built-in set with the operator's file (if any) merged over it. */
export function loadFingerprints(extraFile?: string): FingerprintSet {
  const set = builtInFingerprints();
  if (!extraFile) return set;
  const merged = { ...set, ...readFingerprintFile(extraFile) };
  checkImplies(merged, extraFile);
  return merged;
}
