/**
 * Checks of request parameters against the spec's bounds, run before anything is sent: a
 * violation throws ApiRequestInvalidError naming the parameter and the rule. Values arrive
 * untyped at runtime (CLI flags, callers' casts), so every check looks at the actual value.
 */
import { ApiRequestInvalidError } from '../errors.js';

export function requireId(endpoint: string, name: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new ApiRequestInvalidError(endpoint, name, 'must be a non-empty string', value);
  }
  return value;
}

/** Length counted in Unicode code points, so an emoji is one character, not two. */
export function requireLength(endpoint: string, name: string, value: unknown, minChars: number, maxChars: number): string {
  if (typeof value !== 'string') throw new ApiRequestInvalidError(endpoint, name, 'must be a string', value);
  const chars = [...value].length;
  if (chars < minChars || chars > maxChars) {
    throw new ApiRequestInvalidError(endpoint, name, `must be ${minChars} to ${maxChars} characters long (was ${chars})`, value);
  }
  return value;
}

export function optionalInt(
  endpoint: string,
  name: string,
  value: unknown,
  bounds: { min: number; max?: number },
): number | undefined {
  if (value === undefined) return undefined;
  const rule =
    bounds.max === undefined ? `must be an integer >= ${bounds.min}` : `must be an integer from ${bounds.min} to ${bounds.max}`;
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

export function optionalString(endpoint: string, name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ApiRequestInvalidError(endpoint, name, 'must be a string', value);
  return value;
}
