/**
 * Checks of request parameters against the spec's bounds, run before anything is sent: a
 * violation throws ApiRequestInvalidError naming the parameter and the rule. Values arrive
 * untyped at runtime (CLI flags, callers' casts), so every check looks at the actual value.
 */
import { LIMITS } from '../../wire/limits.js';
import { ApiRequestInvalidError } from '../errors.js';

/**
 * Longest id (eventId, marketId, pubkey) a request may carry, in characters. The spec sets no
 * maximum; real ids are short ("POLY-2470848", a 44-character base58 key), and the same bound
 * already caps every id read from the service, so any id this pipeline stored can be requested.
 */
export const MAX_ID_CHARS = LIMITS.idChars;

/** A path identifier: a non-empty string of at most MAX_ID_CHARS characters (a 100 KB id would make a 100 KB URL). */
export function requireId(endpoint: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ApiRequestInvalidError(endpoint, name, 'must be a non-empty string', value);
  }
  return requireMaxChars(endpoint, name, value, MAX_ID_CHARS);
}

/** Length counted in Unicode code points, so an emoji is one character, not two. */
export function requireLength(endpoint: string, name: string, value: unknown, minChars: number, maxChars: number): string {
  if (typeof value !== 'string') throw new ApiRequestInvalidError(endpoint, name, 'must be a string', value);
  const chars = codePoints(value);
  if (chars < minChars || chars > maxChars) {
    throw new ApiRequestInvalidError(endpoint, name, `must be ${minChars} to ${maxChars} characters long (was ${chars})`, value);
  }
  return value;
}

export function optionalInt(endpoint: string, name: string, value: unknown, bounds: { min: number; max?: number }): number | undefined {
  if (value === undefined) return undefined;
  const rule = bounds.max === undefined ? `must be an integer >= ${bounds.min}` : `must be an integer from ${bounds.min} to ${bounds.max}`;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < bounds.min || (bounds.max !== undefined && value > bounds.max)) {
    throw new ApiRequestInvalidError(endpoint, name, rule, value);
  }
  return value;
}

export function optionalEnum<T extends string>(endpoint: string, name: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new ApiRequestInvalidError(endpoint, name, `must be one of ${allowed.join(', ')}`, value);
  }
  return value as T;
}

export function optionalMatch(endpoint: string, name: string, value: unknown, pattern: RegExp, rule: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) throw new ApiRequestInvalidError(endpoint, name, rule, value);
  return value;
}

export function optionalBoolean(endpoint: string, name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new ApiRequestInvalidError(endpoint, name, 'must be true or false', value);
  return value;
}

/** A free-text parameter of at most `maxChars` characters. */
export function optionalString(endpoint: string, name: string, value: unknown, maxChars: number): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiRequestInvalidError(endpoint, name, 'must be a string', value);
  return requireMaxChars(endpoint, name, value, maxChars);
}

function requireMaxChars(endpoint: string, name: string, value: string, maxChars: number): string {
  // A code point takes one or two UTF-16 units: no need to count when the units already fit.
  if (value.length <= maxChars) return value;
  const chars = codePoints(value);
  if (chars > maxChars)
    throw new ApiRequestInvalidError(endpoint, name, `must be at most ${maxChars} characters long (was ${chars})`, value);
  return value;
}

/** Length in Unicode code points, counted without copying the string. */
function codePoints(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}
