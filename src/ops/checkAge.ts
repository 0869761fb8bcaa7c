import { humanDuration } from '../status/humanUnits.js';

/**
 * A probe's verdict on one job from the time of its last `what` (progress for /healthz, success for
 * /readyz): within `limitMs` of `atMs` it passes; a job with none yet passes for `limitMs` after
 * the process started (`startedAtMs`), its start-up grace. The detail says both ages as the
 * `status` report says a duration (`5m 12s`, `20m`).
 */
export function checkAge(
  what: 'progress' | 'success',
  lastMs: number | null,
  limitMs: number,
  atMs: number,
  startedAtMs: number,
): { ok: boolean; detail: string } {
  const span = (ms: number) => humanDuration(ms / 1000);
  if (lastMs === null) {
    const sinceStart = atMs - startedAtMs;
    return sinceStart <= limitMs
      ? { ok: true, detail: `no ${what} yet; within the start-up grace of ${span(limitMs)} (${span(sinceStart)} elapsed)` }
      : { ok: false, detail: `no ${what} in the ${span(sinceStart)} since start (allowed ${span(limitMs)})` };
  }
  const age = atMs - lastMs;
  return age <= limitMs
    ? { ok: true, detail: `last ${what} ${span(age)} ago (allowed ${span(limitMs)})` }
    : { ok: false, detail: `last ${what} ${span(age)} ago, more than the ${span(limitMs)} allowed` };
}
