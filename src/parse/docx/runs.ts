/**
 * A paragraph's shown runs and what stands in them: runs inside containers, tracked changes accepted (deleted
 * paragraph marks joined), field addresses and legacy form fields, symbol characters.
 */
import { symbolChar } from '../symbols.js';
import { attr, child, kids, type XNode } from '../xml.js';
import { toggle } from './styles.js';

/**
 * Elements that only wrap a paragraph's runs (or a body's paragraphs) and show them: content controls, custom XML,
 * smart tags, tracked insertions and a move's new place, and bidirectional embeddings (`w:dir`, `w:bdo`). A tracked
 * deletion and a move's old place (`w:del`, `w:moveFrom`) are not shown: the document reads as with every change
 * accepted.
 */
export const CONTAINERS = new Set(['w:sdtContent', 'w:customXml', 'w:smartTag', 'w:ins', 'w:moveTo', 'w:dir', 'w:bdo']);

/** A paragraph's shown runs in order: inside containers, hyperlinks, simple fields and ruby bases (see `CONTAINERS`). */
export function shownRuns(n: XNode | undefined, out: XNode[] = []): XNode[] {
  for (const c of kids(n)) {
    if (c.name === 'w:r') {
      const ruby = child(c, 'w:ruby');
      if (ruby) shownRuns(child(ruby, 'w:rubyBase'), out);
      else out.push(c);
    } else if (c.name === 'w:sdt') shownRuns(child(c, 'w:sdtContent'), out);
    else if (CONTAINERS.has(c.name ?? '') || c.name === 'w:hyperlink' || c.name === 'w:fldSimple') shownRuns(c, out);
  }
  return out;
}

/** Marks between paragraphs that neither end nor start one: bookmarks, comment ranges, proofing and permission marks. */
const BETWEEN = /^w:(bookmark|commentRange|moveFromRange|moveToRange|proofErr|perm)/;

/**
 * Body children with paragraphs joined where a tracked change deleted the mark between them (`w:pPr/w:rPr/w:del`):
 * accepted, the change makes one paragraph of the two, with the first one's properties, as LibreOffice accepts it.
 * A paragraph whose content went with its mark leaves the next as it was, and a table after a deleted mark stays a
 * table.
 */
export function joinDeletedMarks(nodes: XNode[]): XNode[] {
  const out: XNode[] = [];
  let open = -1; // index in `out` of the paragraph whose mark was deleted, the next paragraph joins it
  let joined: XNode[] | undefined; // that paragraph's children, copied once however many paragraphs join it
  for (const n of nodes) {
    if (n.name === 'w:p' && open >= 0) {
      if (!joined) out[open] = { ...out[open], children: (joined = [...(out[open].children ?? [])]) };
      for (const c of kids(n)) if (c.name !== 'w:pPr') joined.push(c);
      if (!markDeleted(n)) open = -1;
      continue;
    }
    out.push(n);
    if (n.name === 'w:p') {
      joined = undefined;
      open = markDeleted(n) && shownRuns(n).some((r) => kids(r).some((c) => c.name !== 'w:rPr')) ? out.length - 1 : -1;
    } else if (!BETWEEN.test(n.name ?? '')) open = -1;
  }
  return out;
}

const markDeleted = (p: XNode) => !!child(child(child(p, 'w:pPr'), 'w:rPr'), 'w:del');

/** The address of a `HYPERLINK "url"` field instruction; a local one (`\\l "bookmark"`) has none. */
export function fieldUrl(instr: string): string | undefined {
  const m = /^\s*HYPERLINK\s+(?:"([^"]+)"|([^\s\\]+))/i.exec(instr);
  return m ? (m[1] ?? m[2]).trim() : undefined;
}

/**
 * What a legacy form field shows that its result runs do not carry: a check box (`FORMCHECKBOX`) as ☒ or ☐, checked
 * if it says so, else by its default; a drop-down (`FORMDROPDOWN`) as its chosen entry. A text field's result is
 * ordinary runs.
 */
export function formFieldText(instr: string, form: XNode): string | undefined {
  if (/^\s*FORMCHECKBOX\b/.test(instr)) {
    const box = child(form, 'w:checkBox');
    const checked = toggle(child(box, 'w:checked')) ?? toggle(child(box, 'w:default')) ?? false;
    return checked ? '☒' : '☐';
  }
  if (/^\s*FORMDROPDOWN\b/.test(instr)) {
    const list = child(form, 'w:ddList');
    const entries = kids(list, 'w:listEntry').map((e) => attr(e, 'w:val') ?? '');
    return entries[Number(attr(child(list, 'w:result'), 'w:val') ?? 0) || 0];
  }
  return undefined;
}

/** A `w:sym` (Insert Symbol: a font and the character's code in hex) as the character it shows, or nothing. */
export const symCharacter = (sym: XNode) => symbolChar(attr(sym, 'w:font'), parseInt(attr(sym, 'w:char') ?? '', 16)) ?? '';
