/**
 * Which same-site links to read first. Contact pages, then imprint/legal notices (which must carry an address in
 * much of Europe), then about/team pages, then support and other legal pages; a link in the footer gets a bonus and
 * so qualifies on its own; deeper paths and query strings rank lower. Links that match nothing are never read.
 */
const KINDS: [RegExp, number][] = [
  [/contact|kontakt|contato|contacto|contatti|contactez|nous-joindre|get-in-touch|reach-us|write-to-us|enquir|inquir|anfahrt/i, 100],
  [/impressum|imprint|legal-notice|mentions-legales|aviso-legal|note-legali|colofon|colophon|company-info|firmeninfo/i, 90],
  [/about|ueber-uns|uber-uns|über-uns|a-propos|qui-sommes|chi-siamo|sobre|quienes-somos|over-ons|company|team|people|staff|our-story|who-we-are|locations|offices|standorte/i, 70],
  [/support|help|customer-service|kundenservice|service-client|faq|press|media|presse|careers|jobs/i, 45],
  [/legal|privacy|datenschutz|terms|agb/i, 30],
];
const FOOTER_BONUS = 20;
/** Footer links that match no keyword still qualify (small sites put the address on any footer page). */
const FOOTER_ONLY = 15;

function keywordScore(s: string): number {
  for (const [re, score] of KINDS) if (re.test(s)) return score;
  return 0;
}

/** 0 means "do not read". */
export function linkScore(url: URL, text: string, inFooter: boolean): number {
  const path = decodeSafe(url.pathname);
  const segments = path.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  // The last segment says most about the page; a keyword further up (`/contact-us/form-library`) counts less.
  const fromPath = Math.max(keywordScore(last), keywordScore(path) - 25);
  const fromText = keywordScore(text.slice(0, 80)) - 5;
  let score = Math.max(fromPath, fromText, 0);
  if (inFooter) score = score ? score + FOOTER_BONUS : FOOTER_ONLY;
  if (!score) return 0;
  score -= 2 * Math.max(0, segments.length - 1);
  if (url.search) score -= 10;
  return Math.max(score, 1);
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
