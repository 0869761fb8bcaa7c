import type { IncomingHttpHeaders } from 'node:http';

/**
 * How long a 429 asks the client to wait, from `Retry-After` (seconds, possibly decimal, or an
 * HTTP date) and/or `x-ratelimit-reset` (absolute Unix seconds at which the oldest request leaves
 * the window). When both are present the later wins: retrying early only earns another 429.
 * Returns undefined when neither header gives a usable future time (a wait of 0 included); the
 * caller then falls back to its own default. Pure: `nowMs` is injected.
 */
export function rateLimitWaitMs(headers: IncomingHttpHeaders, nowMs: number): number | undefined {
  const candidates = [retryAfterMs(firstHeader(headers['retry-after']), nowMs), resetMs(firstHeader(headers['x-ratelimit-reset']), nowMs)];
  const usable = candidates.filter((ms): ms is number => ms !== undefined);
  return usable.length === 0 ? undefined : Math.ceil(Math.max(...usable));
}

function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  // "0", or a date already past (a skewed clock): no time to wait given, so the caller's default
  // applies rather than an immediate retry that only earns another 429.
  const positive = (ms: number) => (ms > 0 ? ms : undefined);
  if (/^\d+(\.\d+)?$/.test(trimmed)) return positive(Number(trimmed) * 1000);
  // An HTTP date names a day and a month; Date.parse alone would read "-3" as a year.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const dateMs = Date.parse(trimmed);
  return Number.isNaN(dateMs) ? undefined : positive(dateMs - nowMs);
}

// Below this a "reset" cannot be an absolute Unix time (it would be 2001): some gateways send
// the seconds remaining instead, which this reads as such rather than as a time long past.
const SMALLEST_PLAUSIBLE_UNIX_SEC = 1_000_000_000;

function resetMs(value: string | undefined, nowMs: number): number | undefined {
  const at = resetAtMs(value, nowMs);
  if (at === undefined) return undefined;
  const waitMs = at - nowMs;
  // A reset already past means a skewed clock or a stale header: it says nothing about when to retry.
  return waitMs > 0 ? waitMs : undefined;
}

/** `x-ratelimit-reset` as the epoch ms at which the window ends (possibly past), or undefined when unreadable. */
export function resetAtMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const sec = Number(value.trim());
  return sec < SMALLEST_PLAUSIBLE_UNIX_SEC ? nowMs + sec * 1000 : sec * 1000;
}

export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
