/**
 * The web.contacts record, and the normaliser that turns pages read into it: every contact once, with the pages it
 * was found on, in the order the (best-first) pages were read.
 */
import { readDocument, type PageDoc } from './page.js';
import { findContacts, phoneKey, type PageFindings, type PhoneHit } from './extract.js';
import { profileKey } from './socials.js';
import type { ContactsFound, PageSummary, SkippedPage } from './types.js';

export interface PageReading {
  page: PageSummary;
  findings: PageFindings;
  doc: PageDoc;
}

/** Reads one HTML page: its summary, its contacts, and the parsed document (for its links). */
export function readPage(html: string, url: string, status: number): PageReading {
  const doc = readDocument(html, url);
  return { page: { url, status, ...(doc.title ? { title: doc.title.slice(0, 300) } : {}) }, findings: findContacts(doc, url), doc };
}

function collect<T, K>(readings: PageReading[], items: (f: PageFindings) => T[], key: (t: T) => string, make: (t: T) => K): (K & { sources: string[] })[] {
  const byKey = new Map<string, K & { sources: string[] }>();
  for (const r of readings) {
    for (const item of items(r.findings)) {
      const k = key(item);
      const known = byKey.get(k);
      if (!known) byKey.set(k, { ...make(item), sources: [r.page.url] });
      else if (!known.sources.includes(r.page.url)) known.sources.push(r.page.url);
    }
  }
  return [...byKey.values()];
}

export function buildRecord(siteUrl: string, readings: PageReading[], skipped: SkippedPage[] = []): ContactsFound {
  const phones = collect(readings, (f) => f.phones, phoneKey, (p) => ({ ...p }));
  // A fax label seen on any page sticks to the number.
  for (const p of phones) {
    if (readings.some((r) => r.findings.phones.some((q) => phoneKey(q) === phoneKey(p) && q.fax))) p.fax = true;
  }
  return {
    url: siteUrl,
    pages: readings.map((r) => r.page),
    emails: collect(readings, (f) => f.emails, (e) => e, (e) => ({ value: e })),
    phones,
    socials: collect(readings, (f) => f.socials, profileKey, (s) => ({ ...s })),
    ...(skipped.length ? { skipped } : {}),
  };
}
