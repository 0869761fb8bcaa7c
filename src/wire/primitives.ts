import { z } from 'zod';

import { expected } from './issues.js';
import { LIMITS } from './limits.js';

/** Identifiers: never empty, bounded (they become primary keys). */
export const idString = z.string().min(1).max(LIMITS.idChars);
/** A short label stored as received: enum-like values (status, category, provider) may be ones we do not know yet. */
export const label = z.string().max(LIMITS.idChars);
/** Free text: titles, descriptions, rules. */
export const text = z.string().max(LIMITS.textChars);

/** Unix seconds, possibly fractional, within what JS Date and Postgres timestamptz both represent. */
export const secondsNumber = z.number().min(0).max(LIMITS.maxUnixSec);

/**
 * Unix seconds written as a string, possibly fractional ("1784692980.306"), as events send
 * `beginAt`. It stays a string, so normalize can tell the spelling the record used.
 */
const secondsString = z
  .string()
  .regex(/^\d{1,12}(?:\.\d{1,9})?$/, { error: expected('a string of Unix seconds'), abort: true })
  .refine((s) => Number(s) <= LIMITS.maxUnixSec, { error: expected(`Unix seconds <= ${LIMITS.maxUnixSec}`) });

/** A time as a number or a string of Unix seconds; a time that is not a number rejects its record. */
export const unixTime = z.union([secondsNumber, secondsString], { error: expected('Unix seconds') });

/** ISO 8601 date-time with zone, to Unix seconds with its milliseconds kept ("…:12.365Z" -> ….365). */
const isoDateTime = z.iso
  .datetime({ offset: true, error: expected('an ISO 8601 date-time with time zone') })
  .transform((s) => Date.parse(s) / 1000)
  .pipe(secondsNumber);

/** `resolveAt`: Unix seconds (number or string) or an ISO date-time. */
export const unixTimeOrIso = z.union([secondsNumber, secondsString, isoDateTime], {
  error: expected('Unix seconds or an ISO 8601 date-time'),
});

/**
 * Plain decimal notation only: no sign, exponent, NaN, Infinity or blanks. Exponents are refused
 * rather than evaluated, which is what keeps "1e400" out without float arithmetic.
 */
export const PLAIN_DECIMAL = /^\d+(?:\.\d+)?$/;
/** The same with a sign: a negative price reaches the range checks (and is quarantined there) instead of reading as text. */
const SIGNED_DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** Thousands separators, as in the spec-era formatted `tvlDollars` ("1,234.56"). */
export const GROUPED_DECIMAL = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

const decimalString = z
  .string()
  .max(LIMITS.decimalChars)
  .regex(SIGNED_DECIMAL, { error: expected('a decimal number') });

const formattedDecimalString = z
  .string()
  .max(LIMITS.decimalChars)
  .refine((s) => PLAIN_DECIMAL.test(s) || GROUPED_DECIMAL.test(s), {
    error: expected('a decimal number, optionally with thousands separators'),
  });

/** A string without NUL (which Postgres text cannot hold): what the exact shapes send as text. */
export const NO_NUL = /^[^\u0000]*$/;

/** JSON numbers: zod 4 already refuses NaN and ±Infinity. */
export const nonNegativeNumber = z.number().min(0);

/** An amount as a JSON number or a decimal string (prices were strings in early versions). Ranges are checked by normalize. */
export const amount = z.union([z.number(), decimalString], { error: expected('a number or decimal string') });

/** An event amount: a JSON number or a possibly formatted decimal string. */
export const formattedAmount = z.union([nonNegativeNumber, formattedDecimalString], {
  error: expected('a non-negative number or decimal string'),
});

/** Text that Postgres can store (no NUL), as the exact shapes of every era send it. */
export const storableText = text.regex(NO_NUL);
