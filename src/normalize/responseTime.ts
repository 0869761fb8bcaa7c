import { LIMITS } from '../wire/limits.js';

/**
 * When an answer says it was generated (`timestamp` of GET /events/closed): an ISO 8601 string as
 * the OpenAPI of 2026-07-05 types it, or Unix seconds as the feed's `since` takes them. Anything
 * else, or a time outside what a timestamptz holds, is null: the caller then uses its own clock.
 */
export function normalizeResponseTime(value: unknown): Date | null {
  let ms: number;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) ms = Date.parse(value);
  else if (typeof value === 'number' || (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value))) ms = Number(value) * 1000;
  else return null;
  if (!Number.isFinite(ms) || ms <= 0 || ms > LIMITS.maxUnixSec * 1000) return null;
  return new Date(ms);
}
