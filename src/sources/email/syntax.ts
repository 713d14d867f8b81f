/**
 * Address syntax, strict on purpose: the dot-atom form of RFC 5322 §3.4.1 that mail systems actually route. Quoted
 * local parts, comments and IP-literal domains are refused (legal, but no real mailbox is verified through them);
 * an internationalised domain becomes its A-label. Lengths follow RFC 5321 §4.5.3.1 (local 64, domain 253, path 254).
 */
import { domainToASCII, domainToUnicode } from 'node:url';

export type SyntaxProblem =
  | 'missingAt'
  | 'localPart'
  | 'domain'
  | 'tooLong'
  | 'quotedLocalPart'
  | 'ipLiteral'
  | 'internationalLocalPart';

export interface Syntax {
  valid: boolean;
  local?: string;
  /** Lower-case A-label. */
  domain?: string;
  /** The domain in Unicode when it is an IDN. */
  unicodeDomain?: string;
  /** Why the address is not valid. */
  problem?: SyntaxProblem;
}

/** RFC 5322 atext: letters, digits and ! # $ % & ' * + - / = ? ^ _ ` { | } ~ . */
const ATOM = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+$/;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

export const PROBLEM_TEXT: Record<SyntaxProblem, string> = {
  missingAt: 'the address has no @ or nothing on one side of it',
  localPart: 'the part before @ is not a valid mailbox name (letters, digits, . ! # $ % & \' * + - / = ? ^ _ ` { | } ~, no leading, trailing or double dots, at most 64 characters)',
  domain: 'the part after @ is not a valid domain name',
  tooLong: 'the address is longer than 254 characters',
  quotedLocalPart: 'quoted mailbox names ("…"@domain) are not accepted',
  ipLiteral: 'address literals (user@[192.0.2.1]) are not accepted',
  internationalLocalPart: 'the part before @ has non-ASCII characters (RFC 6531 addresses are not checked)',
};

export function parseAddress(input: string): Syntax {
  const raw = input.trim();
  const at = raw.lastIndexOf('@');
  if (at <= 0 || at === raw.length - 1) return { valid: false, problem: 'missingAt' };
  const local = raw.slice(0, at);
  const domainPart = raw.slice(at + 1);
  if (local.startsWith('"')) return { valid: false, problem: 'quotedLocalPart' };
  if (domainPart.startsWith('[')) return { valid: false, problem: 'ipLiteral' };
  const domain = asciiDomain(domainPart);
  if (/[^\x00-\x7f]/.test(local)) return { valid: false, problem: 'internationalLocalPart', ...(domain ? { domain } : {}) };
  if (!validLocal(local)) return { valid: false, problem: 'localPart' };
  if (!domain) return { valid: false, local, problem: 'domain' };
  if (local.length + 1 + domain.length > 254) return { valid: false, problem: 'tooLong' };
  const unicode = domainToUnicode(domain);
  return { valid: true, local, domain, ...(unicode && unicode !== domain ? { unicodeDomain: unicode } : {}) };
}

function validLocal(local: string): boolean {
  if (local.length > 64) return false;
  return local.split('.').every((atom) => ATOM.test(atom));
}

/** The A-label of a mail domain, or undefined: at least two labels, LDH only, a non-numeric top label. */
function asciiDomain(raw: string): string | undefined {
  const name = raw.replace(/\.$/, '');
  if (!name || /[\s@]/.test(name)) return undefined;
  const ascii = domainToASCII(name).toLowerCase();
  if (!ascii || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return undefined;
  if (/^\d+$/.test(labels[labels.length - 1])) return undefined;
  return ascii;
}
