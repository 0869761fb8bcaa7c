/** Bounds of an exponential backoff. */
export interface BackoffBounds {
  /** Ceiling of the first retry's delay; each later retry doubles it. */
  readonly baseMs: number;
  /** No delay is ever longer than this, however many attempts failed. */
  readonly capMs: number;
}

/**
 * Delay before retry number `attempt` (1 = the first retry): capped exponential backoff with full
 * jitter, i.e. uniform in [0, min(capMs, baseMs * 2^(attempt-1))). Full jitter rather than a fixed
 * schedule so that many requests failing together (an upstream blip) do not come back together.
 * Pure: `random` is injected (returns a number in [0, 1), like Math.random).
 */
export function backoffDelayMs(attempt: number, bounds: BackoffBounds, random: () => number): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer >= 1, got ${attempt}`);
  const { baseMs, capMs } = bounds;
  if (!(baseMs >= 0) || !(capMs >= 0)) throw new RangeError(`baseMs and capMs must be >= 0, got ${baseMs} and ${capMs}`);
  // 2 ** attempt overflows to Infinity for very large attempts; min() with the cap keeps it finite.
  const ceilingMs = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  // Clamp `random` into [0, 1) so a misbehaving source cannot produce a delay at or above the ceiling.
  const raw = random();
  const r = Number.isFinite(raw) ? Math.min(Math.max(raw, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(r * ceilingMs);
}
