/**
 * Query parameter parsing with the spec's bounds. Where the spec is silent: an empty value or
 * the literal `null` counts as absent for optional parameters ("boolean or null", "integer or
 * null"); a repeated parameter uses its first value; unknown parameters are ignored.
 */
import { badRequest } from './httpErrors.js';

export class QueryParams {
  constructor(private readonly search: URLSearchParams) {}

  private raw(name: string): string | undefined {
    const v = this.search.get(name);
    return v === null || v === '' || v === 'null' ? undefined : v;
  }

  /** Non-negative integer. */
  nonNegativeInt(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (/^-\d+$/.test(v)) throw badRequest(name, `${name} must be >= 0, got ${v}`);
    const n = Number(v);
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw badRequest(name, `${name} must be an integer >= 0, got ${JSON.stringify(v)}`);
    return n;
  }

  /** Integer within [min, max]. */
  intInRange(name: string, min: number, max: number): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^-?\d+$/.test(v) || n < min || n > max)
      throw badRequest(name, `${name} must be an integer between ${min} and ${max}, got ${JSON.stringify(v)}`);
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw badRequest(name, `${name} must be true or false, got ${JSON.stringify(v)}`);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v))
      throw badRequest(name, `${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(v)}`);
    return v as T;
  }

  /** Free text; `null` is not special here. Undefined only when the parameter is absent. */
  text(name: string): string | undefined {
    return this.search.get(name) ?? undefined;
  }
}
