/**
 * Rate-limit headers. Integer seconds by default (ceiling, so a client never retries early);
 * with `subSecond` the values are decimal seconds ("0.2", "1767225600.250") so tests can use
 * short windows and pauses without waiting whole seconds.
 */

export function secondsText(ms: number, subSecond: boolean): string {
  if (!subSecond) return String(Math.ceil(ms / 1000));
  const text = (Math.ceil(ms) / 1000).toFixed(3);
  return text.replace(/\.?0+$/, '') || '0';
}

export interface LimitHeaderValues {
  remaining: number;
  current: number;
  /** Absolute wall-clock ms when the oldest counted request leaves the window. */
  resetAtMs: number;
  /** Set on 429s only. */
  retryAfterMs?: number;
}

export function limitHeaders(v: LimitHeaderValues, subSecond: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-remaining': String(v.remaining),
    'x-ratelimit-current': String(v.current),
    'x-ratelimit-reset': secondsText(v.resetAtMs, subSecond),
  };
  if (v.retryAfterMs !== undefined) headers['retry-after'] = secondsText(Math.max(0, v.retryAfterMs), subSecond);
  return headers;
}
