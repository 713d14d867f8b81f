/** The `domain` input of the domain endpoints: a name or an address, IDN allowed → its lower-case A-label. */
import { domainToASCII } from 'node:url';
import { QuarryError } from '../../errors.js';

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

export function domainName(input: string, field = 'domain'): string {
  let raw = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    if (!URL.canParse(raw)) throw bad(field);
    raw = new URL(raw).hostname;
  } else raw = raw.split(/[/?#]/, 1)[0];
  raw = raw.replace(/\.$/, '');
  const ascii = domainToASCII(raw).toLowerCase();
  if (!ascii || ascii.length > 253 || !ascii.includes('.') || !ascii.split('.').every((l) => LABEL.test(l)) || /^[\d.]+$/.test(ascii)) {
    throw bad(field);
  }
  return ascii;
}

function bad(field: string): QuarryError {
  return new QuarryError('invalidRequest', `${field}: not a domain name (e.g. example.com)`, { retryable: false });
}
