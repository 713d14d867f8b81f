/**
 * Filled PDF forms: a form field's value lives in its widget annotation, not in the page's text (pdf.js's text
 * content holds only what the page itself draws), so a filled form would lose its answers. Each visible field
 * becomes a text run at its place, read with the labels around it: a text field's value, a choice field's shown
 * options, a check box or radio button as ☒ (on) or ☐ (off). Push buttons and signatures carry no answer.
 */

/** The widget data pdf.js's `getAnnotations()` gives (the fields this reads). */
export interface Widget {
  subtype?: string;
  fieldType?: string;
  fieldValue?: unknown;
  rect?: number[];
  hidden?: boolean;
  noView?: boolean;
  checkBox?: boolean;
  radioButton?: boolean;
  exportValue?: string;
  buttonValue?: string;
  options?: { exportValue?: string; displayValue?: string }[];
}

export interface FieldRun {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

/** At most this many characters of one field's value (a hostile file's megabyte of text is not a field). */
const MAX_VALUE = 2000;

export function fieldRuns(annotations: Widget[]): FieldRun[] {
  const out: FieldRun[] = [];
  for (const a of annotations) {
    if (a.subtype !== 'Widget' || a.hidden || a.noView || !Array.isArray(a.rect) || a.rect.length < 4) continue;
    const text = fieldText(a);
    if (!text) continue;
    const [x0, y0, x1, y1] = a.rect.map(Number);
    if (![x0, y0, x1, y1].every(Number.isFinite)) continue;
    const h = Math.abs(y1 - y0);
    // A box is drawn at the field's height; text at most 12 pt, set on the field's lower part as typed text is.
    const box = text === '☒' || text === '☐';
    const size = Math.max(6, Math.min(12, box ? h : h * 0.7));
    const y = Math.min(y0, y1) + Math.max(0, (h - size) / 2) + size * 0.15;
    out.push({ str: text, transform: [size, 0, 0, size, Math.min(x0, x1) + (box ? 0 : 2), y], width: Math.min(Math.abs(x1 - x0), text.length * size * 0.5), height: size });
  }
  return out;
}

function fieldText(a: Widget): string {
  const v = a.fieldValue;
  if (a.fieldType === 'Tx') return typeof v === 'string' ? v.slice(0, MAX_VALUE).replace(/\s+/g, ' ').trim() : '';
  if (a.fieldType === 'Ch') {
    const shown = new Map((a.options ?? []).map((o) => [o.exportValue, o.displayValue ?? o.exportValue]));
    const values = (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string' && !!x);
    return values
      .map((x) => shown.get(x) ?? x)
      .join(', ')
      .slice(0, MAX_VALUE)
      .replace(/\s+/g, ' ')
      .trim();
  }
  if (a.fieldType === 'Btn' && (a.checkBox || a.radioButton)) {
    const on = typeof v === 'string' && v !== 'Off' && (a.radioButton ? v === a.buttonValue : !a.exportValue || v === a.exportValue);
    return on ? '☒' : '☐';
  }
  return '';
}
