/**
 * Data that platforms embed in their HTML pages: `<script>` bodies (JSON islands such as `__NEXT_DATA__`, JSON-LD,
 * `application/json` state) and JavaScript assignments (`window.__INITIAL_STATE__ = {…};`). Pages are hostile: the
 * scan is linear (htmlparser2's Tokenizer, no tree, so unclosed tags cost nothing), every script body is capped, and
 * a body that is not JSON is skipped, never thrown on.
 */
import { Tokenizer } from 'htmlparser2';

export interface ScriptTag {
  attrs: Record<string, string>;
  /** The script's body, raw (entities are not decoded inside scripts). */
  text: string;
}

type Callbacks = ConstructorParameters<typeof Tokenizer>[1];
const NOOP = (): void => undefined;
/** Longest script body kept (platform state blobs reach a few MB). */
const MAX_SCRIPT = 16 * 1024 * 1024;
const MAX_ATTR = 2048;

/** Every `<script>` of a page with its attributes and body, in document order. */
export function scripts(html: string): ScriptTag[] {
  const out: ScriptTag[] = [];
  let inScriptTag = false;
  let current: ScriptTag | undefined;
  let attrs: Record<string, string> = {};
  let attr = '';
  let value = '';
  const cbs: Callbacks = {
    onopentagname(start, end) {
      inScriptTag = html.slice(start, Math.min(end, start + 7)).toLowerCase() === 'script' && end - start === 6;
      attrs = {};
    },
    onattribname(start, end) {
      if (!inScriptTag) return;
      attr = html.slice(start, Math.min(end, start + 40)).toLowerCase();
      value = '';
    },
    onattribdata(start, end) {
      if (inScriptTag && value.length < MAX_ATTR) value += html.slice(start, Math.min(end, start + MAX_ATTR));
    },
    onattribentity(codepoint) {
      if (inScriptTag && value.length < MAX_ATTR) value += String.fromCodePoint(codepoint);
    },
    onattribend() {
      if (inScriptTag && !(attr in attrs)) attrs[attr] = value;
    },
    onopentagend() {
      if (inScriptTag) current = { attrs, text: '' };
      inScriptTag = false;
    },
    onselfclosingtag() {
      inScriptTag = false;
    },
    ontext(start, end) {
      if (current && current.text.length < MAX_SCRIPT) current.text += html.slice(start, Math.min(end, start + MAX_SCRIPT - current.text.length));
    },
    onclosetag() {
      if (current) out.push(current);
      current = undefined;
    },
    oncdata: NOOP,
    oncomment: NOOP,
    ondeclaration: NOOP,
    onend: NOOP,
    onprocessinginstruction: NOOP,
    ontextentity: NOOP,
  } as Callbacks;
  const tokenizer = new Tokenizer({ decodeEntities: false }, cbs);
  tokenizer.write(html);
  tokenizer.end();
  if (current) out.push(current);
  return out;
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
