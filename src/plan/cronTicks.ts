import cron from 'node-cron';

/** Ticks computed at most per schedule: an every-second schedule over a six-hour replay. */
const MAX_TICKS = 25_000;

/**
 * The ticks of a cron expression from now on (UTC, as the service schedules its jobs), as epoch
 * ms, enough to cover `spanMs`: node-cron's own matcher, from a task that is created and never started.
 */
export function cronTicks(expression: string, spanMs: number): number[] {
  const task = cron.createTask(expression, () => {}, { timezone: 'Etc/UTC' });
  try {
    const [first, second] = task.getNextRuns(2).map((d) => d.getTime());
    if (first === undefined) return [];
    if (second === undefined) return [first];
    const count = Math.min(MAX_TICKS, Math.ceil(spanMs / (second - first)) + 2);
    return task.getNextRuns(count).map((d) => d.getTime());
  } finally {
    void task.destroy();
  }
}

/** Time between a schedule's next two ticks, as startScheduler's periodMs reads it. */
export function periodMsOf(ticksMs: readonly number[]): number {
  const [a, b] = ticksMs;
  return a !== undefined && b !== undefined ? b - a : 60_000;
}
