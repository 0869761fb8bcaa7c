import cron from 'node-cron';

/** How many upcoming ticks are looked at: enough to see the long gap of a schedule such as `0 9,17 * * *`. */
const TICKS = 32;

/**
 * The longest time between two consecutive ticks of a cron schedule (UTC, as the service runs
 * it), over its next ticks, in seconds. The task is created to be asked, never started.
 */
export async function schedulePeriodSec(schedule: string): Promise<number> {
  const task = cron.createTask(schedule, () => {}, { timezone: 'Etc/UTC' });
  try {
    const ticks = task.getNextRuns(TICKS).map((d) => d.getTime());
    let longestMs = 0;
    for (let i = 1; i < ticks.length; i++) longestMs = Math.max(longestMs, ticks[i]! - ticks[i - 1]!);
    if (longestMs === 0) throw new RangeError(`the schedule ${JSON.stringify(schedule)} has fewer than two upcoming ticks`);
    return longestMs / 1000;
  } finally {
    await task.destroy();
  }
}
