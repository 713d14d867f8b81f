/**
 * Data that platforms embed in their HTML pages: `<script>` bodies (JSON islands such as `__NEXT_DATA__`, JSON-LD,
 * `application/json` state) and JavaScript assignments (`window.__INITIAL_STATE__ = {…};`). Pages are hostile: the
 * scan is linear (the kit's tag scanner, ./web/tags.ts: no tree, so unclosed tags cost nothing), every script body
 * is capped, and a body that is not JSON is skipped, never thrown on.
 */
import { findTags } from './web/tags.js';

export interface ScriptTag {
  attrs: Record<string, string>;
  /** The script's body, raw (entities are not decoded inside scripts). */
  text: string;
}

/** Longest script body kept (platform state blobs reach a few MB). */
const MAX_SCRIPT = 16 * 1024 * 1024;

/** Every `<script>` of a page with its attributes and body, in document order (the kit's linear tag scanner). */
export function scripts(html: string): ScriptTag[] {
  return findTags(html, { names: ['script'], withText: ['script'], maxText: MAX_SCRIPT }).map((t) => ({ attrs: t.attrs, text: t.text ?? '' }));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The parsed JSON body of the script with this `id` (`__NEXT_DATA__`, `__UNIVERSAL_DATA_FOR_REHYDRATION__`). */
export function scriptJsonById(html: string, id: string): unknown {
  const tag = scripts(html).find((s) => s.attrs.id === id);
  return tag ? parse(tag.text.trim()) : undefined;
}

/** Every JSON-LD object of a page (`<script type="application/ld+json">`), arrays and `@graph`s flattened. */
export function jsonLd(html: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const add = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(add);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (Array.isArray(o['@graph'])) (o['@graph'] as unknown[]).forEach(add);
      else out.push(o);
    }
  };
  for (const s of scripts(html)) if ((s.attrs.type ?? '').trim().toLowerCase() === 'application/ld+json') add(parse(s.text.trim()));
  return out;
}

/**
 * The JSON value assigned to `name` in any script (`window.ytInitialData = {…};`, `var __STATE__ = […]`): found by the
 * assignment, then read as one balanced JSON value (strings and escapes respected), so trailing code is ignored.
 */
export function assignedJson(html: string, name: string): unknown {
  const pattern = new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*=\\s*(?=[[{])`, 'g');
  for (const s of scripts(html)) {
    pattern.lastIndex = 0;
    const m = pattern.exec(s.text);
    if (!m) continue;
    const value = balancedJson(s.text, m.index + m[0].length);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Parses the JSON object or array starting at `from`, stopping at its matching close. */
export function balancedJson(text: string, from: number): unknown {
  const open = text[from];
  if (open !== '{' && open !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return parse(text.slice(from, i + 1));
    }
  }
  return undefined;
}
