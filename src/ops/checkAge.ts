/**
 * A probe's verdict on one job from the time of its last `what` (progress for /healthz, success for
 * /readyz): within `limitMs` of `atMs` it passes; a job with none yet passes for `limitMs` after
 * the process started (`startedAtMs`), its start-up grace. The detail says both ages in seconds.
 */
export function checkAge(
  what: 'progress' | 'success',
  lastMs: number | null,
  limitMs: number,
  atMs: number,
  startedAtMs: number,
): { ok: boolean; detail: string } {
  if (lastMs === null) {
    const sinceStart = atMs - startedAtMs;
    return sinceStart <= limitMs
      ? { ok: true, detail: `no ${what} yet; within the start-up grace of ${seconds(limitMs)} (${seconds(sinceStart)} elapsed)` }
      : { ok: false, detail: `no ${what} in the ${seconds(sinceStart)} since start (allowed ${seconds(limitMs)})` };
  }
  const age = atMs - lastMs;
  return age <= limitMs
    ? { ok: true, detail: `last ${what} ${seconds(age)} ago (allowed ${seconds(limitMs)})` }
    : { ok: false, detail: `last ${what} ${seconds(age)} ago, more than the ${seconds(limitMs)} allowed` };
}

/**
 * A duration as whole seconds, the unit of the probes' other numbers: `1200 s`. A negative span (a
 * clock step back) reads as `0 s`. (status/humanUnits.ts's humanDuration is for a person's report.)
 */
function seconds(ms: number): string {
  return `${Math.round(Math.max(0, ms) / 1000)} s`;
}
