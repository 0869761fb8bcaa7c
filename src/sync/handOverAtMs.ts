/**
 * When a sweep started at `startMs` hands over to the tick due at `deadlineMs`: a tenth of the span
 * before it (at most 2 s), left for the last write and the run's end, so the next tick finds the
 * job free. A sweep that only checked its deadline between batches sent its last batch across it
 * whenever the rate limit held that batch back, and node-cron skipped the next tick, finding the
 * sweep still running: half the ticks, and about half the book budget, were lost that way.
 */
export function handOverAtMs(startMs: number, deadlineMs: number): number {
  return deadlineMs - Math.min(MAX_HAND_OVER_MS, (deadlineMs - startMs) / 10);
}

const MAX_HAND_OVER_MS = 2_000;
