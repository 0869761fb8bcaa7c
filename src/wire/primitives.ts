import { z } from 'zod';
import { expected } from './issues.js';
import { LIMITS } from './limits.js';

/** Identifiers: never empty, bounded (they become primary keys). */
export const idString = z.string().min(1).max(LIMITS.idChars);
/** An identifier-like string that may be empty (the spec's `winner` is "" while unresolved). */
export const shortString = z.string().max(LIMITS.idChars);
/** Free text: titles, descriptions, rules. */
export const text = z.string().max(LIMITS.textChars);

/** Unix seconds, integer, within what JS Date and Postgres timestamptz both represent. */
export const unixSeconds = z.int().min(0).max(LIMITS.maxUnixSec);

/** Unix seconds sent as a string (the spec's `beginAt`); stays a string: normalize converts it. */
export const unixSecondsString = z
  .string()
  .regex(/^\d{1,12}$/, { error: expected('a string of Unix seconds'), abort: true })
  .refine((s) => Number(s) <= LIMITS.maxUnixSec, { error: expected(`Unix seconds <= ${LIMITS.maxUnixSec}`) });

/** ISO 8601 date-time with zone (`resolveAt` drift), converted here since parsing is the validation. */
export const isoDateTimeAsUnixSeconds = z.iso
  .datetime({ offset: true, error: expected('an ISO 8601 date-time with time zone') })
  .transform((s) => Math.floor(Date.parse(s) / 1000))
  .pipe(unixSeconds);

/**
 * Plain decimal notation only: no sign, exponent, NaN, Infinity or blanks. Exponents are refused
 * rather than evaluated, which is what keeps "1e400" out without float arithmetic.
 */
export const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;
/** Thousands separators, as in the spec's formatted `tvlDollars` ("1,234.56"). */
export const GROUPED_DECIMAL = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

export const decimalString = z
  .string()
  .max(LIMITS.decimalChars)
  .regex(PLAIN_DECIMAL, { error: expected('a non-negative decimal number') });

export const formattedDecimalString = z
  .string()
  .max(LIMITS.decimalChars)
  .refine((s) => PLAIN_DECIMAL.test(s) || GROUPED_DECIMAL.test(s), {
    error: expected('a non-negative decimal number, optionally with thousands separators'),
  });

/** JSON numbers: zod 4 already refuses NaN and ±Infinity. */
export const nonNegativeNumber = z.number().min(0);

/** A non-negative amount as a JSON number or a decimal string (pricing drift). */
export const amount = z.union([nonNegativeNumber, decimalString], {
  error: expected('a non-negative number or decimal string'),
});

/** A non-negative amount as a JSON number or a possibly formatted decimal string (event tvl/volume). */
export const formattedAmount = z.union([nonNegativeNumber, formattedDecimalString], {
  error: expected('a non-negative number or decimal string'),
});
