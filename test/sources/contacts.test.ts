/**
 * web.contacts (issue 5): the extractor (disguised addresses, entities, Cloudflare protection, false positives,
 * E.164, social profiles), robots.txt, link ranking, the recorded pages, and the whole call through the gateway
 * against loopback sites named through the DNS double (QUARRY_DNS_SERVERS) and let through the SSRF guard by
 * QUARRY_OUTBOUND_ALLOW: ranking with maxPages, pricing, the SSRF refusals, a 20 MB page, a silent site, test mode.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuarryError } from '../../src/errors.js';
import { crawlable, pageKey, sameSite, siteKey, startAddress } from '../../src/sources/web/contacts/address.js';
import {
  countryHint,
  deobfuscate,
  emailsInText,
  MAX_EMAILS_PER_PAGE,
  mailtoAddresses,
  normaliseEmail,
  phoneFromValue,
  phonesInText,
} from '../../src/sources/web/contacts/extract.js';
import { decodeCfEmail, readDocument } from '../../src/sources/web/contacts/page.js';
import { MAX_DEPTH, boundNesting } from '../../src/sources/kit/web/dom.js';
import { decodePage } from '../../src/sources/kit/web/page.js';
import { linkScore } from '../../src/sources/web/contacts/rank.js';
import { buildRecord, readPage } from '../../src/sources/web/contacts/record.js';
import { crawlContacts, limitsFrom } from '../../src/sources/web/contacts/crawl.js';
import { createUpstreamClient } from '../../src/upstream/client.js';
import { parseRobots } from '../../src/sources/kit/web/robots.js';
import { socialProfile } from '../../src/sources/web/contacts/socials.js';
import { pruneData } from '../../src/render/prune.js';
import { post, type TestGateway } from '../helpers/gateway.js';
import { startDnsDouble, startOpenWebGateway, type DnsDouble } from './openweb-doubles.js';
import {
  ABOUT_PAGE,
  CONTACT_PAGE,
  HAVE_PAGES,
  PAGES_SKIP,
  SCHWAB_PAGE,
  TDA_PAGE,
  contactsZone,
  readPageRecording,
  startContactsSites,
  type ContactsSites,
} from './contacts-doubles.js';
import sample from '../../src/sources/web/samples/contacts.json' with { type: 'json' };

function failure(fn: () => unknown): QuarryError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QuarryError);
    return e as QuarryError;
  }
  throw new Error('expected a failure');
}

describe('web.contacts: addresses and same-site rules', () => {
  it('startAddress: a bare domain is asked over https; full addresses keep scheme, port and path; junk is a 400 naming url', () => {
    expect(startAddress('Example.com').href).toBe('https://example.com/');
    expect(startAddress('example.com/kontakt#x').href).toBe('https://example.com/kontakt');
    expect(startAddress('http://www.example.com:8080/a?b=1').href).toBe('http://www.example.com:8080/a?b=1');
    expect(failure(() => startAddress('ftp://example.com')).message).toBe('url: only http and https addresses are allowed');
    expect(failure(() => startAddress('https://user:pw@example.com')).message).toBe('url: must not contain credentials');
    expect(failure(() => startAddress('not a site')).message).toMatch(/^url: not a valid address or domain/);
    expect(failure(() => startAddress('localhost')).message).toMatch(/^url: give a domain with its suffix/);
    expect(failure(() => startAddress('x')).code).toBe('invalidRequest');
  });

  it('www and the bare domain are one site; subdomains of the site count, parents and look-alikes do not', () => {
    const key = siteKey('www.acme.com');
    expect(key).toBe('acme.com');
    expect(sameSite(new URL('https://acme.com/x'), key)).toBe(true);
    expect(sameSite(new URL('https://WWW.ACME.COM./x'), key)).toBe(true);
    expect(sameSite(new URL('https://careers.acme.com/'), key)).toBe(true);
    expect(sameSite(new URL('https://notacme.com/'), key)).toBe(false);
    expect(sameSite(new URL('https://acme.com.evil.net/'), key)).toBe(false);
    expect(sameSite(new URL('https://com/'), siteKey('shop.acme.com'))).toBe(false);
    expect(pageKey(new URL('http://www.acme.com/contact/'))).toBe(pageKey(new URL('https://acme.com/contact')));
  });

  it('crawlable: same-site pages only; no files, login/cart areas, mailto/tel/javascript, fragments dropped', () => {
    const base = new URL('https://www.acme.com/a/b');
    const key = siteKey(base.hostname);
    expect(crawlable('../contact#form', base, key)?.href).toBe('https://www.acme.com/contact');
    expect(crawlable('https://acme.com/about', base, key)?.href).toBe('https://acme.com/about');
    for (const href of ['https://other.com/contact', '/brochure.pdf', '/img/logo.png', '/login', '/cart/', 'mailto:a@b.com', 'tel:123', 'javascript:void(0)', '#top', 'ftp://acme.com/x']) {
      expect(crawlable(href, base, key), href).toBeUndefined();
    }
  });
});

describe('web.contacts: e-mail extraction', () => {
  it('undoes [at]/(at)/{at}/[dot]/(punkt) and spelled-out "at … dot" disguises', () => {
    expect(deobfuscate('sales [at] acme [dot] com')).toBe('sales@acme.com');
    expect(deobfuscate('jobs(at)acme(dot)co(dot)uk')).toBe('jobs@acme.co.uk');
    expect(deobfuscate('info {at} acme.de')).toBe('info@acme.de');
    expect(deobfuscate('kontakt[ät]firma(punkt)de')).toBe('kontakt@firma.de');
    expect(emailsInText('write to hello at acme dot io today')).toEqual(['hello@acme.io']);
    expect(emailsInText('Please look at the dot matrix')).toEqual([]);
    expect(emailsInText('INFO AT ACME DOT DE')).toEqual(['info@acme.de']);
    expect(emailsInText('mail: Press @ Acme.COM.')).toEqual(['press@acme.com']);
  });

  it('drops image and asset names, placeholders and tracker keys; keeps real addresses once, lower-cased', () => {
    expect(emailsInText('logo@2x.png sprite@3x.webp bundle@1.2.3.js')).toEqual([]);
    expect(emailsInText('you@example.com name@yourdomain.com 0123456789abcdef0123456789abcdef@o1.ingest.sentry.io')).toEqual([]);
    expect(normaliseEmail('  <Info@ACME-Widgets.com>. ')).toBe('info@acme-widgets.com');
    expect(normaliseEmail('a..b@acme.com')).toBeUndefined();
    expect(normaliseEmail('.a@acme.com')).toBeUndefined();
  });

  it('mailto: links: several recipients, percent-encoding, and share links without an address', () => {
    expect(mailtoAddresses('mailto:a@acme.com,B%40acme.com?subject=Hi')).toEqual(['a@acme.com', 'b@acme.com']);
    expect(mailtoAddresses('mailto:?subject=2023 Outlook&body=https%3A%2F%2Fwww.schwab.com')).toEqual([]);
  });

  it("Cloudflare's data-cfemail and HTML entities decode to the address", () => {
    expect(decodeCfEmail('5a33343c351a3b39373f772d333e3d3f2e2974393537')).toBe('info@acme-widgets.com');
    expect(decodeCfEmail('zz')).toBeUndefined();
    const doc = readDocument('<p>&#112;ress&#64;acme&#x2E;com, <span data-cfemail="5a33343c351a3b39373f772d333e3d3f2e2974393537">[email&#160;protected]</span></p>', 'https://acme.com/');
    expect(emailsInText(doc.text)).toEqual(['press@acme.com']);
    expect(doc.cfEmails).toEqual(['info@acme-widgets.com']);
  });

  it('text split over inline elements joins; blocks and scripts do not leak into each other', () => {
    const doc = readDocument('<p>info<span>@</span>acme.com</p><p>Tel</p><script>var x="hidden@acme.com"</script><style>a{}</style>', 'https://acme.com/');
    expect(emailsInText(doc.text)).toEqual(['info@acme.com']);
    expect(doc.text).toBe('info@acme.com\nTel');
  });
});

describe('web.contacts: phone numbers', () => {
  it('country hint: ccTLD first (uk → GB), generic ccTLDs ignored, then the region of <html lang>', () => {
    expect(countryHint('www.firma.de', 'en')).toBe('DE');
    expect(countryHint('shop.co.uk')).toBe('GB');
    expect(countryHint('startup.io', 'en-US')).toBe('US');
    expect(countryHint('acme.com', 'pt-BR')).toBe('BR');
    expect(countryHint('acme.com', 'en')).toBeUndefined();
  });

  it('tel: links become E.164 with country and line type; ;ext= is kept; invalid numbers are dropped', () => {
    expect(phoneFromValue('tel:800-454-9272', 'US')).toEqual({ value: '+18004549272', raw: '800-454-9272', country: 'US', type: 'tollFree' });
    expect(phoneFromValue('tel:+49-30-1234567;ext=12')).toMatchObject({ value: '+49301234567', country: 'DE', extension: '12' });
    expect(phoneFromValue('tel:%2B44%2020%207946%200958')).toMatchObject({ value: '+442079460958', country: 'GB', type: 'fixedLine' });
    expect(phoneFromValue('tel:+441632960961')).toBeUndefined(); // Ofcom's drama range: not a valid number
    expect(phoneFromValue('tel:12345', 'US')).toBeUndefined();
    expect(phoneFromValue('tel:030 1234567')).toBeUndefined(); // a national number without any country hint
  });

  it('numbers in text: valid and phone-like only; dates, ids and ", 0800" pseudo-extensions are not phones; fax is labelled', () => {
    const text = 'Call 800-870-9668 today. Order 2023-01-12, id 4155552671. Phone: +44 20 7946 0958, 0800 open. Fax: (212) 555-0100';
    const found = phonesInText(text, 'US');
    expect(found.map((p) => p.value)).toEqual(['+18008709668', '+442079460958', '+12125550100']);
    expect(found[2]).toMatchObject({ raw: '(212) 555-0100', fax: true });
    expect(found[1].raw).toBe('+44 20 7946 0958');
    expect(found[1].extension).toBeUndefined();
    expect(phonesInText('Fax: +49 30 1234568', 'DE')).toEqual([{ value: '+49301234568', raw: '+49 30 1234568', country: 'DE', type: 'fixedLine', fax: true }]);
    expect(phonesInText('Datum 2023-01-12', 'DE')).toEqual([]);
    expect(phonesInText('Telefon 030901820', 'DE').map((p) => p.value)).toEqual(['+4930901820']);
    expect(phonesInText('Artikel 030901820', 'DE')).toEqual([]);
  });
});

describe('web.contacts: social profiles', () => {
  it('profiles become one canonical address per platform with the handle', () => {
    expect(socialProfile('https://twitter.com/charlesschwab')).toEqual({ platform: 'x', url: 'https://x.com/charlesschwab', handle: 'charlesschwab' });
    expect(socialProfile('https://de.linkedin.com/company/acme-gmbh/')).toEqual({ platform: 'linkedin', url: 'https://www.linkedin.com/company/acme-gmbh', handle: 'acme-gmbh' });
    expect(socialProfile('https://m.facebook.com/AcmeInc')).toMatchObject({ platform: 'facebook', url: 'https://www.facebook.com/AcmeInc' });
    expect(socialProfile('https://www.facebook.com/pages/TD-Ameritrade/323110354399964')).toEqual({ platform: 'facebook', url: 'https://www.facebook.com/pages/TD-Ameritrade/323110354399964' });
    expect(socialProfile('https://www.youtube.com/@acme/videos')).toMatchObject({ platform: 'youtube', url: 'https://www.youtube.com/@acme', handle: 'acme' });
    expect(socialProfile('https://www.youtube.com/channel/UCabc123')).toEqual({ platform: 'youtube', url: 'https://www.youtube.com/channel/UCabc123' });
    expect(socialProfile('https://github.com/acme/sdk')).toMatchObject({ platform: 'github', url: 'https://github.com/acme' });
    expect(socialProfile('https://www.tiktok.com/@acme')).toMatchObject({ platform: 'tiktok', handle: 'acme' });
    expect(socialProfile('https://t.me/acme_news')).toMatchObject({ platform: 'telegram', url: 'https://t.me/acme_news' });
    expect(socialProfile('https://bsky.app/profile/acme.com')).toMatchObject({ platform: 'bluesky', handle: 'acme.com' });
  });

  it('share, intent, post, video and login links are not profiles', () => {
    for (const href of [
      'https://twitter.com/intent/tweet?text=x',
      'https://twitter.com/acme/status/123',
      'https://www.facebook.com/sharer/sharer.php?u=x',
      'https://www.linkedin.com/shareArticle?mini=true',
      'https://www.instagram.com/p/Cabc/',
      'https://www.youtube.com/watch?v=abc',
      'https://youtu.be/abc',
      'https://github.com/login',
      'https://www.pinterest.com/pin/123/',
      'https://share.example.com/acme',
      'https://notfacebook.com/acme',
    ]) {
      expect(socialProfile(href), href).toBeUndefined();
    }
  });
});

describe('web.contacts: robots.txt and ranking', () => {
  it('robots: * groups apply unless our token has a group; longest rule wins, Allow on a tie; * and $', () => {
    const r = parseRobots('User-agent: Googlebot\nDisallow:\n\nUser-agent: *\nDisallow: /private\nAllow: /private/contact\nDisallow: /*.php$\n');
    expect(r.allows(new URL('https://a.com/private/x'))).toBe(false);
    expect(r.allows(new URL('https://a.com/private/contact'))).toBe(true);
    expect(r.allows(new URL('https://a.com/index.php'))).toBe(false);
    expect(r.allows(new URL('https://a.com/index.php?x=1'))).toBe(true);
    expect(r.allows(new URL('https://a.com/about'))).toBe(true);
    const own = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: Quarry\nDisallow: /secret\n');
    expect(own.allows(new URL('https://a.com/contact'))).toBe(true);
    expect(own.allows(new URL('https://a.com/secret/x'))).toBe(false);
    expect(parseRobots('User-agent: *\nDisallow: /\n').allows(new URL('https://a.com/contact'))).toBe(false);
  });

  it('robots: a hostile rule of many stars is matched without backtracking (a regex of .* runs took 22 s on a 60-character path)', () => {
    const r = parseRobots(`User-agent: *\nDisallow: /*a*a*a*a*a*a*a*a*a*a*a*a*b\n`);
    expect(r.allows(new URL(`https://a.com/${'a'.repeat(5000)}`))).toBe(true);
    expect(r.allows(new URL(`https://a.com/${'a'.repeat(5000)}b`))).toBe(false);
  });

  it.skipIf(!HAVE_PAGES)(`robots: the recorded files (facebook: * disallowed; bundestag: Allow inside a Disallow)${PAGES_SKIP}`, () => {
    const fb = parseRobots(readPageRecording('site/robots/robots_facebook.txt'));
    expect(fb.allows(new URL('https://www.facebook.com/about/privacy'))).toBe(false);
    expect(fb.allows(new URL('https://www.facebook.com/safetycheck/'))).toBe(false); // allowed to named bots only
    const bt = parseRobots(readPageRecording('site/robots/robots_bundestag.txt'));
    expect(bt.allows(new URL('https://www.bundestag.de/includes/x.js'))).toBe(false);
    expect(bt.allows(new URL('https://www.bundestag.de/includes/images/mediathek/a.jpg'))).toBe(true);
    expect(bt.allows(new URL('https://www.bundestag.de/kontakt'))).toBe(true);
  });

  it('ranking: contact > imprint > about > support > legal; footer links qualify; depth and queries cost', () => {
    const s = (path: string, text = '', footer = false) => linkScore(new URL(`https://acme.com${path}`), text, footer);
    expect(s('/contact')).toBeGreaterThan(s('/impressum'));
    expect(s('/impressum')).toBeGreaterThan(s('/about-us'));
    expect(s('/about-us')).toBeGreaterThan(s('/support'));
    expect(s('/support')).toBeGreaterThan(s('/privacy'));
    expect(s('/x/contact-us.html')).toBeGreaterThan(s('/contact-us/top-faqs.html'));
    expect(s('/page?id=7', 'Kontakt')).toBeGreaterThan(0);
    expect(s('/blog/post-1')).toBe(0);
    expect(s('/blog/post-1', '', true)).toBeGreaterThan(0);
    expect(s('/about', '', true)).toBeGreaterThan(s('/about'));
    expect(s('/a/b/c/contact')).toBeLessThan(s('/contact'));
  });
});

describe.skipIf(!HAVE_PAGES)(`web.contacts: the recorded pages${PAGES_SKIP}`, () => {
  it('TD Ameritrade page: tel: link and text numbers to E.164, X/Facebook/YouTube profiles, title', () => {
    const url = 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html';
    const r = readPage(readPageRecording(TDA_PAGE), url, 200);
    expect(r.page).toEqual({ url, status: 200, title: 'Setting Financial Goals | TD Ameritrade' });
    expect(r.findings.phones.map((p) => [p.value, p.type])).toEqual([['+18004549272', 'tollFree'], ['+18008709668', 'tollFree']]);
    expect(r.findings.socials.map((s) => s.platform)).toEqual(['x', 'facebook', 'youtube']);
    expect(r.findings.emails).toEqual([]);
  });

  it('Schwab page: the mailto:?subject share link yields no address; four profiles; no invented numbers', () => {
    const url = 'https://www.schwab.com/learn/story/financial-planning-outlook';
    const r = readPage(readPageRecording(SCHWAB_PAGE), url, 200);
    expect(r.page.title).toBe('2023 Planning and Wealth Management Outlook | Charles Schwab');
    expect(r.findings.emails).toEqual([]);
    expect(r.findings.phones).toEqual([]);
    expect(r.findings.socials.map((s) => s.url).sort()).toEqual([
      'https://www.facebook.com/CharlesSchwab',
      'https://www.linkedin.com/company/charles-schwab',
      'https://www.youtube.com/user/CharlesSchwab',
      'https://x.com/charlesschwab',
    ]);
    const contactLinks = r.doc.links.map((l) => crawlable(l.href, new URL(url), 'schwab.com')).filter((u) => u && /contact/.test(u.pathname));
    expect(contactLinks.length).toBeGreaterThan(0);
  });

  it('the committed sample is exactly the normaliser run over the recorded TD Ameritrade page', () => {
    const url = 'https://www.tdameritrade.com/investment-guidance/setting-financial-goals.html';
    const record = buildRecord('https://www.tdameritrade.com', [readPage(readPageRecording(TDA_PAGE), url, 200)]);
    expect(sample.pages[0].data).toEqual(JSON.parse(JSON.stringify(record)));
    expect(sample._provenance.pages[0].recordings[0].recording).toBe(`shared/upstream/${TDA_PAGE}`);
  });

  it('decodePage: the HTTP charset wins, then <meta charset>', () => {
    const latin = Buffer.from('<meta charset="iso-8859-1"><p>M\xfcller</p>', 'latin1');
    expect(decodePage(latin)).toContain('Müller');
    expect(decodePage(Buffer.from('<p>Müller</p>', 'utf8'), 'text/html; charset=utf-8')).toContain('Müller');
  });
});

describe('web.contacts: hostile pages stay cheap', () => {
  it('nesting deeper than MAX_DEPTH is cut before parsing; comments, scripts and void elements do not count', () => {
    const deep = `${'<div>'.repeat(MAX_DEPTH + 500)}x`;
    expect(boundNesting(deep)).toBe('<div>'.repeat(MAX_DEPTH));
    const ok = `<script>${'<div>'.repeat(5000)}</script><!-- ${'<div>'.repeat(5000)} -->${'<br><p><li><img src=x/>'.repeat(5000)}<div>end</div>`;
    expect(boundNesting(ok)).toBe(ok);
    const doc = readDocument(`${'<div>'.repeat(200_000)}<a href="mailto:deep@acme.com">x</a>`, 'https://acme.com/');
    expect(doc.links).toEqual([]);
  });

  it('a 2 MB page of digit soup and fake addresses yields nothing and stays bounded', () => {
    const soup = `<p>${'1 2 3 4 5 6 7 8 9 0 - . / ( ) '.repeat(70_000)}</p><p>${'a@b.co '.repeat(50_000)}</p>`;
    const t0 = Date.now();
    const r = readPage(soup, 'https://acme.de/', 200);
    expect(Date.now() - t0).toBeLessThan(10_000); // was over 30 s before the matcher was bounded to short digit runs
    expect(r.findings.phones).toEqual([]);
    expect(r.findings.emails).toEqual([]);
    const many = readPage(`<p>${Array.from({ length: 1000 }, (_, i) => `user${i}@acme-widgets.com`).join(' ')}</p>`, 'https://acme.com/', 200);
    expect(many.findings.emails).toHaveLength(MAX_EMAILS_PER_PAGE);
  });
});

describe('web.contacts: merging pages into the record', () => {
  it('each contact once, with every page it was found on, in page order; fax sticks', () => {
    const contact = readPage(CONTACT_PAGE, 'https://acme.test/contact', 200);
    const about = readPage(ABOUT_PAGE, 'https://acme.test/about', 200);
    const rec = buildRecord('https://acme.test', [contact, about]);
    expect(rec.pages.map((p) => p.title)).toEqual(['Contact us | Acme', 'About Acme']);
    expect(rec.emails.map((e) => e.value)).toEqual([
      'support@acme-widgets.com',
      'info@acme-widgets.com',
      'sales@acme-widgets.com',
      'jobs@acme-widgets.com',
      'hello@acme-widgets.com',
      'press@acme-widgets.com',
    ]);
    expect(rec.phones.find((p) => p.value === '+49301234567')?.sources).toEqual(['https://acme.test/contact', 'https://acme.test/about']);
    expect(rec.phones.find((p) => p.value === '+49301234568')).toMatchObject({ fax: true, sources: ['https://acme.test/contact'] });
    expect(rec.phones.some((p) => p.value === '+441632960961')).toBe(false);
    expect(rec.socials.map((s) => `${s.platform}:${s.handle}`)).toEqual(['linkedin:acme-widgets', 'instagram:acmewidgets', 'github:acme-widgets', 'youtube:acmewidgets', 'x:acmewidgets']);
  });
});

describe.skipIf(!HAVE_PAGES)(`web.contacts through the gateway${PAGES_SKIP}`, () => {
  let gw: TestGateway;
  let dns: DnsDouble;
  let sites: ContactsSites;
  let key: string;
  let testKey: string;
  let accountId: string;
  const balance = async () => (await gw.gateway.deps.store.getAccount(accountId))!.balance;
  const PAGE_TIMEOUT_MS = 2000;

  beforeAll(async () => {
    [dns, sites] = await Promise.all([startDnsDouble(contactsZone()), startContactsSites()]);
    ({ gw, key, testKey, accountId } = await startOpenWebGateway(dns, {
      QUARRY_WEB_CONTACTS_PAGE_TIMEOUT_MS: String(PAGE_TIMEOUT_MS),
      QUARRY_WEB_CONTACTS_BUDGET_MS: '8000',
    }));
  });
  afterAll(async () => {
    await gw?.close();
    await Promise.all([dns?.close(), sites?.close()]);
  });

  const call = (body: Record<string, unknown>, k = key) => post(gw.url, '/v1/web/contacts', body, { key: k });

  it('catalogue: available, 2 credits per 5 pages, a day of cache', async () => {
    const r = await fetch(`${gw.url}/v1/catalogue`).then((x) => x.json());
    expect(r.data.endpoints.find((e: any) => e.id === 'web.contacts')).toMatchObject({ available: true, credits: 2, perItems: 5, keyless: false, cacheTtlSeconds: 86400 });
  });

  it('maxPages 2: the start page (after the bare-domain redirect) and the best-ranked contact page only; billed 2', async () => {
    const before = await balance();
    sites.seen.length = 0;
    const r = await call({ url: `http://acme.test:${sites.port}`, maxPages: 2 });
    expect(r.status, r.text).toBe(200);
    const base = `http://www.acme.test:${sites.port}`;
    expect(r.json.data.url).toBe(base);
    expect(r.json.data.pages).toEqual([
      { url: `${base}/`, status: 200, title: 'Setting Financial Goals | TD Ameritrade' },
      { url: `${base}/why-td-ameritrade/contact-us.html`, status: 200, title: 'Contact us | Acme' },
    ]);
    expect(r.json.creditsUsed).toBe(2);
    expect(await balance()).toBe(before - 2);
    const paths = sites.seen.filter((s) => s.host === 'www.acme.test').map((s) => s.path);
    expect(paths).toContain('/robots.txt');
    expect(paths).not.toContain('/about-us.html');
    const d = r.json.data;
    expect(d.emails.map((e: any) => e.value)).toEqual(['support@acme-widgets.com', 'info@acme-widgets.com', 'sales@acme-widgets.com', 'jobs@acme-widgets.com']);
    expect(d.emails[0].sources).toEqual([`${base}/why-td-ameritrade/contact-us.html`]);
    expect(d.phones.map((p: any) => p.value)).toEqual(['+18004549272', '+18008709668', '+49301234567', '+442079460958', '+49301234568']);
    expect(d.phones[0]).toEqual({ value: '+18004549272', raw: '800-454-9272', country: 'US', type: 'tollFree', sources: [`${base}/`] });
    expect(d.socials.map((s: any) => s.platform)).toEqual(['x', 'facebook', 'youtube', 'linkedin', 'instagram', 'github']);
  });

  it('maxPages 10: every ranked candidate once, robots.txt obeyed, missing pages listed as skipped and not billed', async () => {
    sites.seen.length = 0;
    const r = await call({ url: `http://www.acme.test:${sites.port}/`, maxPages: 10 });
    expect(r.status, r.text).toBe(200);
    const base = `http://www.acme.test:${sites.port}`;
    const pages = r.json.data.pages.map((p: any) => p.url);
    expect(pages).toEqual([`${base}/`, `${base}/why-td-ameritrade/contact-us.html`, `${base}/about-us.html`]);
    expect(r.json.creditsUsed).toBe(2); // 3 pages read: one unit of 5
    const skipped = r.json.data.skipped as { url: string; reason: string; status?: number }[];
    expect(skipped).toContainEqual({ url: `${base}/why-td-ameritrade/contact-us/form-library.html`, reason: 'robots' });
    expect(skipped).toContainEqual({ url: `${base}/privacy-policies.html`, reason: 'robots' });
    expect(skipped).toContainEqual({ url: `${base}/impressum`, reason: 'notFound', status: 404 });
    const fetched = sites.seen.filter((s) => s.host === 'www.acme.test').map((s) => s.path);
    expect(fetched).not.toContain('/privacy-policies.html');
    expect(fetched).not.toContain('/why-td-ameritrade/contact-us/form-library.html');
    expect(new Set(fetched).size).toBe(fetched.length); // nothing fetched twice
    const phone = r.json.data.phones.find((p: any) => p.value === '+49301234567');
    expect(phone.sources).toEqual([`${base}/why-td-ameritrade/contact-us.html`, `${base}/about-us.html`]);
    expect(r.json.data.emails.map((e: any) => e.value)).toContain('press@acme-widgets.com');
  });

  it('a site with nothing to find answers 200 with its pages (empty lists are pruned) and is billed', async () => {
    const before = await balance();
    const r = await call({ url: `http://quiet.test:${sites.port}` });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ url: `http://quiet.test:${sites.port}`, pages: [{ url: `http://quiet.test:${sites.port}/`, status: 200, title: 'Quiet' }] });
    expect(r.json.creditsUsed).toBe(2);
    expect(await balance()).toBe(before - 2);
  });

  it('a redirect to 169.254.169.254 fails at once with a clear 400, not billed, nothing sent there', async () => {
    const before = await balance();
    const t0 = Date.now();
    const r = await call({ url: `http://meta.test:${sites.port}/` });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false });
    expect(r.json.error.message).toMatch(/^url: points to a private or reserved address/);
    expect(await balance()).toBe(before);
  });

  it('a name resolving to 10.0.0.1 is refused by the guard (through QUARRY_DNS_SERVERS)', async () => {
    const r = await call({ url: 'http://private.test/' });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toMatch(/private or reserved address/);
    expect(dns.queries.some((q) => q.name === 'private.test')).toBe(true);
  });

  it('a first page that is not HTML is a 400 naming url and the media type', async () => {
    const r = await call({ url: `http://pdf.test:${sites.port}/` });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'invalidRequest', retryable: false });
    expect(r.json.error.message).toBe(`url: http://pdf.test:${sites.port}/ answered application/pdf, not an HTML page; give the address of a website`);
  });

  it('a 20 MB first page stops at the 2 MB cap quickly (502 sourceChanged, not billed); later pages that are huge, redirect to the metadata address or leave the site are skipped', async () => {
    const before = await balance();
    const t0 = Date.now();
    const r = await call({ url: `http://huge.test:${sites.port}/` });
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(r.status, r.text).toBe(502);
    expect(r.json.error.code).toBe('sourceChanged');
    expect(r.json.error.message).toBe(`web: the page http://huge.test:${sites.port}/ is larger than 2097152 bytes`);
    expect(await balance()).toBe(before);
    const big = await call({ url: `http://big.test:${sites.port}/` });
    expect(big.status, big.text).toBe(200);
    expect(big.json.data.pages).toHaveLength(1);
    expect(big.json.creditsUsed).toBe(2);
    expect(big.json.data.skipped).toEqual([
      { url: `http://big.test:${sites.port}/contact`, reason: 'tooLarge' },
      { url: `http://big.test:${sites.port}/about`, reason: 'refused' },
      { url: `http://big.test:${sites.port}/team`, reason: 'offSite' },
    ]);
  });

  it('a site that never answers fails as 504 sourceTimeout within the page timeout set by env, not billed', async () => {
    const before = await balance();
    const t0 = Date.now();
    const r = await call({ url: `http://silent.test:${sites.port}/` });
    const took = Date.now() - t0;
    expect(r.status).toBe(504);
    expect(r.json.error).toMatchObject({ code: 'sourceTimeout', retryable: true });
    expect(r.json.error.message).toMatch(new RegExp(`within ${PAGE_TIMEOUT_MS} ms`));
    expect(took).toBeGreaterThanOrEqual(PAGE_TIMEOUT_MS - 50);
    expect(took).toBeLessThan(PAGE_TIMEOUT_MS + 1500);
    expect(await balance()).toBe(before);
  });

  it('a site that refuses connections is 503 sourceUnavailable; an unknown name too; neither billed', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const before = await balance();
    const r = await call({ url: `http://quiet.test:${port}/` });
    expect(r.status, r.text).toBe(503);
    expect(r.json.error).toMatchObject({ code: 'sourceUnavailable', retryable: true });
    expect(r.json.error.message).toMatch(/could not be reached \(ECONNREFUSED\)/);
    const n = await call({ url: 'no-such-site.test' });
    expect(n.status).toBe(503);
    expect(n.json.error.message).toMatch(/could not be resolved/);
    expect(await balance()).toBe(before);
  });

  it('a contact page that never answers is skipped after the page timeout; the pages read are answered and billed', async () => {
    const t0 = Date.now();
    const r = await call({ url: `http://slow.test:${sites.port}/` });
    expect(r.status, r.text).toBe(200);
    expect(Date.now() - t0).toBeLessThan(PAGE_TIMEOUT_MS + 3000);
    expect(r.json.data.pages).toEqual([{ url: `http://slow.test:${sites.port}/`, status: 200 }]);
    expect(r.json.data.skipped).toEqual([{ url: `http://slow.test:${sites.port}/contact`, reason: 'timeout' }]);
    expect(r.json.creditsUsed).toBe(2);
  });

  it('the whole-crawl budget (QUARRY_WEB_CONTACTS_BUDGET_MS) ends a call whose pages have a longer timeout', async () => {
    const http2 = createUpstreamClient({ source: 'web', retries: 0, timeoutMs: 10_000, ssrfAllow: ['127.0.0.1/32'], dnsServers: [dns.server] });
    const log = { info() {}, warn() {}, error() {} };
    const ctx = { signal: new AbortController().signal, http: http2, log, settings: { CONTACTS_BUDGET_MS: '700', CONTACTS_PAGE_TIMEOUT_MS: '5000' } };
    try {
      const limits = limitsFrom(ctx.settings, 5);
      expect(limits).toMatchObject({ budgetMs: 700, pageTimeoutMs: 5000, pageMaxBytes: 2 * 1024 * 1024 });
      const t0 = Date.now();
      const e = await crawlContacts(new URL(`http://silent.test:${sites.port}/`), limits, ctx).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(Date.now() - t0).toBeLessThan(2500);
      expect(e).toBeInstanceOf(QuarryError);
      expect((e as QuarryError).code).toBe('sourceTimeout');
      expect((e as QuarryError).message).toBe('web: the site was not read within the 700 ms budget');
    } finally {
      await http2.close();
    }
  });

  it('bad input: missing url and maxPages out of range are 400s naming the field', async () => {
    const a = await call({ maxPages: 2 });
    expect(a.status).toBe(400);
    expect(a.json.error.message).toMatch(/url/);
    const b = await call({ url: 'acme.test', maxPages: 11 });
    expect(b.status).toBe(400);
    expect(b.json.error.message).toMatch(/^maxPages: must be at most 10/);
    const c = await call({ url: 'javascript:alert(1)' });
    expect(c.status).toBe(400);
    expect(c.json.error.message).toMatch(/^url: /);
  });

  it('test mode: the committed sample, never upstream, no credits spent', async () => {
    const before = await balance();
    const seen = [sites.seen.length, dns.queries.length];
    const r = await call({ url: 'https://www.tdameritrade.com', maxPages: 3 }, testKey);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual(pruneData(sample.pages[0].data as never));
    expect(r.json.creditsUsed).toBe(2);
    expect([sites.seen.length, dns.queries.length]).toEqual(seen);
    expect(await balance()).toBe(before);
  });
});
