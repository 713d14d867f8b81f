/**
 * Calendar days as shops print them in their own language ("August 2, 2021", "25 de agosto de 2017", "2. März 2023",
 * "2 août 2021", "2021年8月2日", "11/18/2025", "18.11.2025"), read into the vocabulary's `YYYY-MM-DD`. The page
 * gives a day, not an instant, so the day is all that is answered. Numeric dates with slashes are ambiguous: the
 * caller says which order its platform writes (`mdy` in the US, else `dmy`). Never throws; unknown text is undefined.
 */

const MONTH_NAMES: Record<string, number> = {};
const add = (month: number, ...names: string[]): void => {
  for (const n of names) MONTH_NAMES[n] = month;
};
// English, German, French, Spanish, Italian, Portuguese, Dutch, Swedish, Polish (genitive), Turkish; full and short.
add(1, 'january', 'jan', 'januar', 'jänner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'janeiro', 'januari', 'stycznia', 'styczeń', 'ocak');
add(2, 'february', 'feb', 'februar', 'février', 'fevrier', 'févr', 'fevr', 'febrero', 'febbraio', 'fevereiro', 'fev', 'februari', 'lutego', 'luty', 'şubat', 'subat');
add(3, 'march', 'mar', 'märz', 'maerz', 'mär', 'mars', 'marzo', 'março', 'marco', 'maart', 'mrt', 'marca', 'marzec', 'mart');
add(4, 'april', 'apr', 'avril', 'avr', 'abril', 'abr', 'aprile', 'kwietnia', 'kwiecień', 'nisan');
add(5, 'may', 'mai', 'mayo', 'maggio', 'mag', 'maio', 'mei', 'maj', 'maja', 'mayıs', 'mayis');
add(6, 'june', 'jun', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho', 'czerwca', 'czerwiec', 'haziran');
add(7, 'july', 'jul', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho', 'lipca', 'lipiec', 'temmuz');
add(8, 'august', 'aug', 'août', 'aout', 'agosto', 'ago', 'augustus', 'augusti', 'sierpnia', 'sierpień', 'ağustos', 'agustos');
add(9, 'september', 'sep', 'sept', 'septembre', 'septiembre', 'set', 'settembre', 'setembro', 'września', 'wrzesień', 'eylül', 'eylul');
add(10, 'october', 'oct', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out', 'października', 'październik', 'ekim');
add(11, 'november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopada', 'listopad', 'kasım', 'kasim');
add(12, 'december', 'dec', 'dezember', 'dez', 'décembre', 'decembre', 'déc', 'diciembre', 'dic', 'dicembre', 'dezembro', 'grudnia', 'grudzień', 'aralık', 'aralik');

export type DayOrder = 'mdy' | 'dmy';

/** The calendar day a text names, as `YYYY-MM-DD`. */
export function dayFromText(text: unknown, order: DayOrder = 'dmy'): string | undefined {
  if (typeof text !== 'string') return undefined;
  const s = text.slice(0, 300).toLowerCase();
  let m = /(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  m = /(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  m = /(\d{4})\/(\d{1,2})\/(\d{1,2})/.exec(s);
  if (m) return ymd(+m[1], +m[2], +m[3]);
  m = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(s);
  if (m) return order === 'mdy' ? ymd(+m[3], +m[1], +m[2]) : ymd(+m[3], +m[2], +m[1]);
  m = /(\d{1,2})\.(\d{1,2})\.(\d{4})/.exec(s);
  if (m) return ymd(+m[3], +m[2], +m[1]);
  // A month name with a day before or after it and a year after both.
  const words = /(\p{L}+)\.?/gu;
  for (let w = words.exec(s); w; w = words.exec(s)) {
    const month = MONTH_NAMES[w[1]];
    if (!month) continue;
    const before = /(\d{1,2})\.?\s*(?:de\s+)?$/.exec(s.slice(Math.max(0, w.index - 8), w.index));
    const after = /^\.?\s*(\d{1,2})?(?:st|nd|rd|th)?,?\s*(?:de\s+)?(\d{4})/.exec(s.slice(w.index + w[0].length));
    if (!after) continue;
    const day = before ? +before[1] : after[1] ? +after[1] : undefined;
    if (day !== undefined) return ymd(+after[2], month, day);
  }
  return undefined;
}

function ymd(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return date.toISOString().slice(0, 10);
}
