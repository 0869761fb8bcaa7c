import { readFileSync } from 'node:fs';

/** A process's peak resident set so far (VmHWM), in kB; null once it is gone or off Linux. */
export function peakRssKb(pid: number | 'self'): number | null {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return hwm ? Number(hwm[1]) : null;
  } catch {
    return null;
  }
}

/**
 * Polls a child's peak resident set every `intervalMs` until `stop()`, which returns the highest
 * seen: a second opinion beside the figure the child reports at exit (reportMaxRss.mjs).
 */
export function pollPeakRss(pid: number | undefined, intervalMs: number): { stop: () => number } {
  let peakKb = 0;
  const poll = setInterval(() => {
    if (pid !== undefined) peakKb = Math.max(peakKb, peakRssKb(pid) ?? 0);
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(poll);
      return peakKb;
    },
  };
}
