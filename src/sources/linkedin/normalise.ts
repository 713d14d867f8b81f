/**
 * LinkedIn guest pages → records. Jobs are read from the guest markup the recordings show (search cards and the
 * posting's top card); companies, profiles and posts from the schema.org data the public pages embed (JSON-LD, the
 * documented vocabulary), never from guessed markup. Pure functions; what a page does not say is left out.
 */
import type { LINKEDIN_COMPANY, LINKEDIN_JOB, LINKEDIN_JOB_CARD, LINKEDIN_POST, LINKEDIN_PROFILE } from '../../catalogue/endpoints/linkedin.js';
import type { TypeOf } from '../../catalogue/types.js';
import { QuarryError } from '../../errors.js';
import { jsonLd } from '../kit/embedded.js';
import { arr, changed, compact, int, isoFromText, readsOf, num, obj, str, type Obj } from '../kit/read.js';
import { blockTextOf, byClass, codeValue, findAll, findOne, parseHtml, textOf, type El } from './html.js';
import { canonical, jobUrl, postRef } from './refs.js';

export type JobCard = TypeOf<typeof LINKEDIN_JOB_CARD>;
export type Job = TypeOf<typeof LINKEDIN_JOB>;
export type Company = TypeOf<typeof LINKEDIN_COMPANY>;
export type Profile = TypeOf<typeof LINKEDIN_PROFILE>;
export type Post = TypeOf<typeof LINKEDIN_POST>;
type Salary = NonNullable<Job['salary']>;

const { need } = readsOf('linkedin');
const JOB_URN = /^urn:li:jobPosting:(\d{1,20})$/;

// ---- money and job criteria ------------------------------------------------------------------------------------

/** Currency marks as LinkedIn's en-US guest pages write them (other dollars carry a prefix: CA$, A$). */
const CURRENCY_MARKS: Record<string, string> = {
  $: 'USD', US$: 'USD', CA$: 'CAD', A$: 'AUD', AU$: 'AUD', NZ$: 'NZD', HK$: 'HKD', S$: 'SGD', SG$: 'SGD', MX$: 'MXN', R$: 'BRL',
  '€': 'EUR', '£': 'GBP', '₹': 'INR', '¥': 'JPY', '₩': 'KRW', '₪': 'ILS', '₺': 'TRY', '₱': 'PHP', zł: 'PLN',
};
const PERIODS: Record<string, string> = { yr: 'year', year: 'year', mo: 'month', month: 'month', wk: 'week', week: 'week', hr: 'hour', hour: 'hour', day: 'day' };
const AMOUNT = /(CA\$|AU?\$|NZ\$|HK\$|SG?\$|MX\$|R\$|US\$|\$|€|£|₹|¥|₩|₪|₺|₱|zł|\b[A-Z]{3}\b)\s?(\d[\d,]*(?:\.\d+)?)\s*([KM])?/g;

/** "$114,000.00 - $168,000.00", "€50K/yr": bounds in one known currency, or undefined. */
export function salaryFrom(text: string | undefined): Salary | undefined {
  if (!text) return undefined;
  const found = [...text.slice(0, 200).matchAll(AMOUNT)];
  if (!found.length || found.length > 2) return undefined;
  const codes = found.map((m) => CURRENCY_MARKS[m[1]] ?? (/^[A-Z]{3}$/.test(m[1]) ? m[1] : ''));
  if (new Set(codes).size !== 1 || !codes[0]) return undefined;
  const values = found.map((m) => Number(m[2].replace(/,/g, '')) * (m[3] === 'K' ? 1e3 : m[3] === 'M' ? 1e6 : 1));
  if (values.some((v) => !Number.isFinite(v))) return undefined;
  const period = /\/\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase();
  return compact({
    currency: codes[0],
    min: values[0],
    max: values.length === 2 ? values[1] : values[0],
    period: period ? PERIODS[period] : undefined,
  });
}

/** LinkedIn's employment types, in the words of the search filter (`jobTypes`). */
const EMPLOYMENT: Record<string, string> = {
  'full-time': 'fullTime', 'part-time': 'partTime', contract: 'contract', temporary: 'temporary',
  internship: 'internship', volunteer: 'volunteer', other: 'other',
};
export const employmentType = (label: string | undefined): string | undefined => (label ? EMPLOYMENT[label.toLowerCase()] : undefined);

/** "82 applicants" → 82; "Over 200 applicants" and "Be among the first 25" are bounds, not counts. */
export function applicantsFrom(text: string | undefined): number | undefined {
  const m = text && /^(\d[\d,]*)\s+applicants?$/i.exec(text.trim());
  return m ? Number(m[1].replace(/,/g, '')) : undefined;
}

const delayedImage = (el: El | undefined): string | undefined => str(el?.attribs['data-delayed-url']) ?? str(el?.attribs.src);

// ---- jobs ------------------------------------------------------------------------------------------------------

/** The search fragment's cards. No card at all is the end of the results; `<li>`s without job urns are drift. */
export function jobCards(html: string): JobCard[] {
  const root = parseHtml(html);
  const cards = findAll(root, (el) => JOB_URN.test(el.attribs['data-entity-urn'] ?? ''));
  if (!cards.length && findOne(root, (el) => el.name === 'li')) throw changed('linkedin', 'search cards without job urns');
  return cards.map(jobCard);
}

function jobCard(card: El): JobCard {
  const id = JOB_URN.exec(card.attribs['data-entity-urn'])![1];
  const subtitle = findOne(card, byClass('base-search-card__subtitle'));
  const companyLink = subtitle && findOne(subtitle, (el) => el.name === 'a');
  const companyName = textOf(subtitle);
  const time = findOne(card, (el) => el.name === 'time' && !!el.attribs.datetime);
  return compact({
    type: 'job' as const,
    id,
    url: jobUrl(id),
    title: need(textOf(findOne(card, byClass('base-search-card__title'))), `job card ${id} without a title`),
    company: companyName
      ? compact({ name: companyName, url: canonical(companyLink?.attribs.href), logo: delayedImage(findOne(card, (el) => el.name === 'img')) })
      : undefined,
    location: locationOf(textOf(findOne(card, byClass('job-search-card__location')))),
    postedAt: /^\d{4}-\d{2}-\d{2}$/.test(time?.attribs.datetime ?? '') ? time!.attribs.datetime : undefined,
    salary: salaryFrom(textOf(findOne(card, byClass('job-search-card__salary-info')))),
  });
}

const locationOf = (full: string | undefined) => (full ? { full } : undefined);

/**
 * A posting: the guest fragment (`jobs-guest/jobs/api/jobPosting/{id}`) or the public page (`/jobs/view/{id}`), which
 * share the top card, the description and the criteria list.
 */
export function jobPostingRecord(html: string, id: string): Job {
  const root = parseHtml(html);
  const top = need(findOne(root, byClass('top-card-layout')), 'job posting without its top card');
  const orgLink = findOne(top, byClass('topcard__org-name-link'));
  const criteria = new Map<string, string>();
  for (const item of findAll(root, byClass('description__job-criteria-item'))) {
    const name = textOf(findOne(item, byClass('description__job-criteria-subheader')));
    const value = textOf(findOne(item, byClass('description__job-criteria-text')));
    if (name && value) criteria.set(name.toLowerCase(), value);
  }
  // Only commas part criteria: "IT Services and IT Consulting" is one industry, so "and" cannot be split on.
  const list = (v: string | undefined) => v?.split(/,\s+/).map((s) => s.trim()).filter(Boolean);
  const location = findOne(top, (el) => byClass('topcard__flavor--bullet')(el) && byClass('topcard__flavor')(el));
  const offsite = applyTarget(codeValue(root, 'applyUrl'));
  const offsiteIcon = findOne(top, (el) => (el.attribs['data-svg-class-name'] ?? '').includes('offsite-apply'));
  const cta = textOf(findOne(top, byClass('top-card-layout__cta--primary')));
  return compact({
    type: 'job' as const,
    id,
    url: jobUrl(id),
    title: need(textOf(findOne(top, byClass('top-card-layout__title'))), 'job posting without a title'),
    company: {
      name: need(textOf(orgLink) ?? textOf(findOne(top, byClass('topcard__flavor'))), 'job posting without a company'),
      ...compact({ url: canonical(orgLink?.attribs.href), logo: delayedImage(findOne(top, (el) => el.name === 'img')) }),
    },
    location: locationOf(textOf(location)),
    description: blockTextOf(findOne(root, byClass('show-more-less-html__markup'))),
    applicants: applicantsFrom(textOf(findOne(top, byClass('num-applicants__caption')))),
    seniority: criteria.get('seniority level'),
    employmentType: employmentType(criteria.get('employment type')),
    functions: list(criteria.get('job function')),
    industries: list(criteria.get('industries')),
    applyUrl: offsite,
    isEasyApply: /^easy apply\b/i.test(cta ?? '') ? true : offsite || offsiteIcon ? false : undefined,
  });
}

/** The employer's own apply address inside LinkedIn's `externalApply` redirect. */
function applyTarget(value: unknown): string | undefined {
  const raw = str(value);
  if (!raw || !URL.canParse(raw)) return undefined;
  const target = new URL(raw).searchParams.get('url');
  return target && /^https?:\/\//i.test(target) ? target : raw;
}

// ---- schema.org pages -------------------------------------------------------------------------------------------

const typesOf = (o: Obj): string[] => arr(o['@type']).concat(typeof o['@type'] === 'string' ? [o['@type']] : []).map(String);
const ofType = (items: Obj[], types: string[]) => items.find((o) => typesOf(o).some((t) => types.includes(t)));

/** A schema.org image: a URL, an ImageObject, or a list of either (the first). */
function imageUrl(v: unknown): string | undefined {
  const first = Array.isArray(v) ? v[0] : v;
  if (typeof first === 'string') return str(first);
  const o = obj(first);
  return str(o?.contentUrl) ?? str(o?.url);
}

/** schema.org `interactionStatistic` counters by action (`LikeAction`, `CommentAction`, `FollowAction`). */
function interactions(v: unknown): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of Array.isArray(v) ? v : [v]) {
    const o = obj(c);
    const type = o?.interactionType;
    const name = typeof type === 'string' ? type : str(obj(type)?.['@type']);
    const n = int(o?.userInteractionCount);
    if (name && n !== undefined && n >= 0) out.set(name.replace(/^https?:\/\/schema\.org\//, ''), n);
  }
  return out;
}

/** A schema.org date or year (numbers allowed), as written: "2008", "2019-04", "2024-01-02T…". */
function dateText(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  const s = str(v);
  return s && /^\d{4}(?:-\d{2}(?:-\d{2})?)?$/.test(s) ? s : s ? isoFromText(s) : undefined;
}

function addressOf(v: unknown): Company['headquarters'] {
  const a = obj(Array.isArray(v) ? v[0] : v);
  if (!a) return typeof v === 'string' ? { full: str(v) } : undefined;
  const country = typeof a.addressCountry === 'string' ? str(a.addressCountry) : str(obj(a.addressCountry)?.name);
  const parts = { street: str(a.streetAddress), city: str(a.addressLocality), state: str(a.addressRegion), postalCode: str(a.postalCode), country };
  const full = [parts.street, parts.city, parts.state, parts.postalCode, parts.country].filter(Boolean).join(', ');
  return compact({ full: full || undefined, ...parts });
}

const slugIn = (url: string | undefined, kind: 'company' | 'in'): string | undefined =>
  url ? new RegExp(`linkedin\\.com/${kind}/([^/?#]+)`).exec(url)?.[1] : undefined;
const linkedin = (u: string | undefined): boolean => !!u && /^https?:\/\/(?:[a-z0-9-]+\.)*linkedin\.com\//i.test(u);

/** The page's canonical address when it is a LinkedIn one. */
function canonicalOf(html: string): string | undefined {
  const m = /<link\b[^>]*\brel=["']canonical["'][^>]*>/i.exec(html.slice(0, 200_000));
  const href = m && /\bhref=["']([^"']+)["']/i.exec(m[0])?.[1];
  return href && linkedin(href) ? canonical(href) : undefined;
}

/** A 200 page that is LinkedIn's sign-up or login page rather than the one asked for. */
function wallTitle(html: string): boolean {
  const title = /<title[^>]*>([^<]{0,200})</i.exec(html.slice(0, 100_000))?.[1] ?? '';
  return /^\s*(?:sign up|linkedin login|sign in)\b/i.test(title);
}

function missing(html: string, what: string): QuarryError {
  if (wallTitle(html)) return new QuarryError('sourceRefused', 'linkedin: upstream answered with its sign-in wall');
  return changed('linkedin', `${what} page without schema.org ${what} data`);
}

const ORGANIZATIONS = ['Organization', 'Corporation', 'LocalBusiness', 'NGO', 'EducationalOrganization', 'GovernmentOrganization'];

/** A company page from its schema.org Organization. */
export function companyRecord(html: string, pageUrl: string): Company {
  const org = ofType(jsonLd(html), ORGANIZATIONS);
  if (!org) throw missing(html, 'company');
  const own = str(org.url);
  const url = canonicalOf(html) ?? (linkedin(own) ? canonical(own) : undefined) ?? canonical(pageUrl) ?? pageUrl;
  const sameAs = arr(org.sameAs).concat(typeof org.sameAs === 'string' ? [org.sameAs] : []).map(str);
  const employees = obj(org.numberOfEmployees);
  return compact({
    type: 'company' as const,
    url,
    name: need(str(org.name), 'company without a name'),
    username: slugIn(url, 'company'),
    bio: str(org.description),
    avatar: imageUrl(org.logo) ?? imageUrl(org.image),
    website: sameAs.find((u) => u && !linkedin(u)) ?? (own && !linkedin(own) ? own : undefined),
    slogan: str(org.slogan),
    employees: int(employees?.value) ?? int(org.numberOfEmployees),
    foundedAt: dateText(org.foundingDate),
    headquarters: addressOf(org.address),
    followers: interactions(org.interactionStatistic).get('FollowAction'),
  });
}

/** One `worksFor` / `alumniOf` entry: the organisation with its role inside (`member`), or schema.org's Role pattern. */
function stint(v: unknown, key: 'worksFor' | 'alumniOf'): NonNullable<Profile['experience']>[number] | undefined {
  const entry = obj(v);
  if (!entry) return typeof v === 'string' && str(v) ? { organization: str(v)! } : undefined;
  const nested = obj(entry[key]);
  const org = nested ?? entry;
  const role = nested ? entry : obj(entry.member) ?? {};
  const organization = str(org.name);
  if (!organization) return undefined;
  return compact({
    organization,
    url: str(org.url),
    title: str(role.roleName) ?? str(role.jobTitle),
    startedAt: dateText(role.startDate),
    endedAt: dateText(role.endDate),
    description: str(role.description),
  });
}

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** A profile page from its schema.org Person. */
export function profileRecord(html: string, pageUrl: string): Profile {
  const person = ofType(jsonLd(html), ['Person']);
  if (!person) throw missing(html, 'profile');
  const own = str(person.url);
  const url = canonicalOf(html) ?? (linkedin(own) ? canonical(own) : undefined) ?? canonical(pageUrl) ?? pageUrl;
  const address = obj(listOf(person.address)[0]);
  const place = [str(address?.addressLocality), str(address?.addressRegion), typeof address?.addressCountry === 'string' ? str(address.addressCountry) : str(obj(address?.addressCountry)?.name)]
    .filter(Boolean)
    .join(', ');
  const headline = listOf(person.jobTitle).map(str).filter(Boolean);
  return compact({
    type: 'profile' as const,
    url,
    name: need(str(person.name), 'profile without a name'),
    username: slugIn(url, 'in'),
    headline: headline.length ? headline.join(' · ') : undefined,
    bio: str(person.description),
    avatar: imageUrl(person.image),
    location: place || undefined,
    followers: interactions(person.interactionStatistic).get('FollowAction'),
    links: listOf(person.sameAs).map(str).filter((u): u is string => !!u && !linkedin(u)).map((u) => ({ url: u })),
    experience: listOf(person.worksFor).map((w) => stint(w, 'worksFor')).filter((s) => s !== undefined),
    education: listOf(person.alumniOf).map((a) => stint(a, 'alumniOf')).filter((s) => s !== undefined),
    languages: listOf(person.knowsLanguage).map((l) => (typeof l === 'string' ? str(l) : str(obj(l)?.name))).filter((l): l is string => !!l),
  });
}

/** Public post addresses a company or profile page links to, in page order, once each. */
export function postLinks(html: string): { id: string; url: string }[] {
  const seen = new Set<string>();
  const out: { id: string; url: string }[] = [];
  for (const a of findAll(parseHtml(html), (el) => el.name === 'a' && !!el.attribs.href)) {
    const ref = postRef(a.attribs.href);
    if (ref && !seen.has(ref.id)) {
      seen.add(ref.id);
      out.push(ref);
    }
  }
  return out;
}

const POSTINGS = ['SocialMediaPosting', 'DiscussionForumPosting', 'Article', 'BlogPosting', 'NewsArticle'];

/** ISO 8601 durations (`PT1M30S`) in whole seconds. */
function seconds(v: unknown): number | undefined {
  const m = typeof v === 'string' && /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(v);
  if (!m || v === 'P' || v === 'PT') return undefined;
  return Math.round((Number(m[1] ?? 0) * 24 + Number(m[2] ?? 0)) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0));
}

function authorOf(v: unknown): Post['author'] {
  const a = obj(Array.isArray(v) ? v[0] : v);
  if (!a) return undefined;
  const url = str(a.url);
  return compact({ name: str(a.name), url, username: slugIn(url, 'in') ?? slugIn(url, 'company'), avatar: imageUrl(a.image) });
}

/** A public post page from its schema.org posting; `ref` is the address and activity id it was found under. */
export function postRecord(html: string, ref: { id: string; url: string }): Post {
  const posting = ofType(jsonLd(html), POSTINGS);
  if (!posting) throw missing(html, 'post');
  const counts = interactions(posting.interactionStatistic);
  const video = obj(listOf(posting.video)[0]);
  const images = listOf(posting.image)
    .map((i) => imageUrl(i))
    .filter((u): u is string => !!u)
    .map((u) => ({ url: u }));
  return compact({
    type: 'post' as const,
    id: ref.id,
    url: ref.url,
    title: str(posting.headline),
    text: str(posting.articleBody) ?? str(posting.text),
    createdAt: isoFromText(posting.datePublished),
    author: authorOf(posting.author),
    likes: counts.get('LikeAction'),
    comments: counts.get('CommentAction') ?? int(posting.commentCount),
    images,
    video: video
      ? compact({
          url: str(video.contentUrl),
          thumbnail: imageUrl(video.thumbnailUrl) ?? imageUrl(video.thumbnail),
          durationSeconds: seconds(video.duration),
          width: int(num(video.width)),
          height: int(num(video.height)),
        })
      : undefined,
  });
}

