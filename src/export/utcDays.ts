import type { DayRange } from './planPartitions.js';

const DAY_MS = 86_400_000;

/** The UTC day of an instant, YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The instant a UTC day starts, as ISO text. */
export function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** The UTC day after `day`. */
export function nextDay(day: string): string {
  return utcDay(new Date(Date.parse(dayStart(day)) + DAY_MS));
}

/** The whole UTC days that overlap [since, until): partitions are always whole days. */
export function daysOverlapping(since: Date | undefined, until: Date | undefined): DayRange {
  const toDay = until === undefined ? null : until.getTime() % DAY_MS === 0 ? utcDay(until) : nextDay(utcDay(until));
  return { fromDay: since === undefined ? null : utcDay(since), toDay };
}
