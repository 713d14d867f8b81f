/**
 * `domain.technologies`: which technologies a site uses, each with its category, the version where a signal shows
 * one, a confidence, and the evidence (header, cookie, meta tag, script, HTML, URL, DNS record) that revealed it.
 *
 * Record: `{domain, url, status, technologies: Detection[], dnsChecked}`; see matcher.ts for a Detection.
 * Fingerprints: the built-in set (fingerprints.json, our own; retire-scripts.json, derived from Retire.js) plus the
 * operator's file named by QUARRY_DOMAIN_FINGERPRINTS_FILE (same format, merged over the built-in set, validated on
 * first use; a bad file is logged with the exact place and rule, and calls fail unbilled until it is fixed).
 */
import { DOMAIN } from '../../../catalogue/endpoints/domain.js';
import type { OutputOf } from '../../../catalogue/types.js';
import { operation } from '../../kit/operation.js';
import { QuarryError, isQuarryError } from '../../../errors.js';
import type { OperationResult, SourceContext } from '../../types.js';
import { domainName } from '../name.js';
import { FingerprintError, loadFingerprints } from './fingerprints.js';
import { Matcher } from './matcher.js';
import { cnameSignals, dnsQuery, dnsSignals, fetchPage, pageSignals, type Target } from './signals.js';
import samples from '../samples/technologies.json' with { type: 'json' };

/** domain.technologies' record, read off its declaration (src/catalogue/endpoints/domain.ts). */
export type TechnologiesData = OutputOf<typeof DOMAIN.technologies>;

let cache: { file: string; matcher?: Matcher; error?: FingerprintError } | undefined;

/** The compiled matcher for this extra file (or none), built once per process and file name. */
export function matcherFor(file: string | undefined, log?: SourceContext['log']): Matcher {
  const key = file ?? '';
  if (!cache || cache.file !== key) {
    try {
      cache = { file: key, matcher: new Matcher(loadFingerprints(file || undefined)) };
      if (file) log?.info({ file, technologies: cache.matcher!.size }, 'domain.technologies: fingerprint file loaded');
    } catch (e) {
      if (!(e instanceof FingerprintError)) throw e;
      cache = { file: key, error: e };
      log?.error({ file, problem: e.message }, `QUARRY_DOMAIN_FINGERPRINTS_FILE rejected: ${e.message}`);
    }
  }
  if (cache.error) {
    throw new QuarryError('sourceUnavailable', 'domain: the technology fingerprints of this server are misconfigured (see its log)', {
      retryable: false,
    });
  }
  return cache.matcher!;
}

/** A full http(s) address is fetched as given; a bare name's home page over https, then http. */
export function technologiesTarget(input: string): Target {
  const raw = input.trim();
  const domain = domainName(raw);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new QuarryError('invalidRequest', 'domain: only http and https addresses are allowed', { retryable: false });
    }
    url.hash = '';
    return { domain, urls: [url.href] };
  }
  return { domain, urls: [`https://${domain}/`, `http://${domain}/`] };
}

export const technologiesOp = operation(DOMAIN.technologies, {
  async run(input, ctx) {
    const target = technologiesTarget(input.domain);
    const matcher = matcherFor(ctx.settings.FINGERPRINTS_FILE, ctx.log);
    const query = dnsQuery(ctx);
    // The page and the domain's records in parallel; the final host's alias once the page says where it ended.
    const records = settle(dnsSignals(target.domain, query));
    const page = await fetchPage(target, ctx);
    const finalHost = new URL(page.url).hostname;
    const alias = finalHost === target.domain ? undefined : await settle(cnameSignals(finalHost, query));
    const dns = await records;
    for (const failed of [dns, alias]) {
      if (failed && !failed.ok) ctx.log.warn({ problem: isQuarryError(failed.error) ? failed.error.message : String(failed.error) }, 'domain.technologies: DNS records unavailable');
    }
    const merged = { ...(dns.ok ? dns.value : {}) };
    if (alias?.ok) merged.CNAME = [...(merged.CNAME ?? []), ...(alias.value.CNAME ?? [])];
    const technologies = matcher.detect({ ...pageSignals(page), dns: merged });
    return result({ domain: target.domain, url: page.url, status: page.status, technologies, dnsChecked: dns.ok });
  },
  samples,
});

/** A promise that never rejects, so a DNS failure cannot fail the call or go unhandled while the page loads. */
function settle<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  return p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
}

/** A site where nothing was recognised returned nothing worth paying for (SPEC): answered, not billed. */
function result(data: TechnologiesData): OperationResult<OutputOf<typeof DOMAIN.technologies>> {
  return { data, ...(data.technologies.length ? {} : { free: true }) };
}
