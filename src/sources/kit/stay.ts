/**
 * A stay's dates as travel endpoints take them: `checkIn` and `checkOut`, calendar days `YYYY-MM-DD` (the catalogue's
 * `date()` field checks each one), given together, check-out after check-in and at most a year apart. What the
 * schema cannot say across two fields is said here, as a 400 naming the field.
 */
import { QuarryError } from '../../errors.js';

export interface Stay {
  checkIn: string;
  checkOut: string;
  nights: number;
}

const DAY_MS = 86_400_000;
const MAX_NIGHTS = 365;

const bad = (field: string, what: string): QuarryError => new QuarryError('invalidRequest', `${field}: ${what}`, { retryable: false });

/** The stay the input asks, or undefined when it names no dates; `required` makes dates mandatory. */
export function stayOf(input: { checkIn?: string; checkOut?: string }, required = false): Stay | undefined {
  const { checkIn, checkOut } = input;
  if (!checkIn && !checkOut) {
    if (required) throw bad('checkIn', 'checkIn and checkOut are required');
    return undefined;
  }
  if (!checkIn) throw bad('checkIn', 'give checkIn with checkOut');
  if (!checkOut) throw bad('checkOut', 'give checkOut with checkIn');
  const nights = Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / DAY_MS);
  if (!(nights > 0)) throw bad('checkOut', 'must be after checkIn');
  if (nights > MAX_NIGHTS) throw bad('checkOut', `at most ${MAX_NIGHTS} nights after checkIn`);
  return { checkIn, checkOut, nights };
}

/** The calendar day `n` days after `day` (YYYY-MM-DD). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
