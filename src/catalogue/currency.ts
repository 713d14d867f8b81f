/** An ISO 4217 currency field: three letters, any case (the source upper-cases it). */
import type { Field } from './types.js';

export function currencyCode(def: string): Field<string, true> {
  return { type: 'string', pattern: '^[A-Za-z]{3}$', default: def, description: 'ISO 4217 currency code of the prices, any case' } as Field<string, true>;
}
