import { InvalidArgumentError } from 'commander';

const UNIT_SEC = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const DURATION = /^(\d+)\s*([smhd])$/;
/**
 * A date, or a date and time with its zone (Z or ±hh:mm, ±hhmm): a time without one would be read
 * in the machine's zone. `T` or a space between them.
 */
const TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * The earliest instant a time may name: 0001-01-01T00:00:00Z. Postgres reads no earlier one as
 * JavaScript writes it (year 0 is out of range, and it cannot parse a signed year such as -006187).
 */
const EARLIEST = '0001-01-01T00:00:00Z';
/** Days are compared as YYYY-MM-DD text, and the day after a time must have four digits too (an export's --until). */
const LATEST = '9999-12-31T00:00:00Z';

/** What every time option accepts, for its help and its error message. */
export const TIME_FORMATS = 'a duration before now (30m, 24h, 7d) or a UTC date or time (2026-01-31, 2026-01-31T08:00:00Z)';

/**
 * The instant a time option names, relative to `now`: a duration before now (`7d`) or a date or a
 * time with its zone (a date alone is midnight UTC). The one parser of every command that takes a
 * time (status, export, backfill). Throws a RangeError saying what is accepted.
 */
export function parseTime(text: string, now: Date): Date {
  const value = text.trim();
  const earliest = Date.parse(EARLIEST);
  const duration = DURATION.exec(value);
  if (duration) {
    const at = new Date(now.getTime() - Number(duration[1]) * UNIT_SEC[duration[2] as keyof typeof UNIT_SEC] * 1000);
    // A duration too long for a Date at all (10^20d) is out of range too, not a bad format.
    if (!(at.getTime() >= earliest)) {
      const maxDays = Math.floor((now.getTime() - earliest) / (UNIT_SEC.d * 1000));
      throw new RangeError(`Must not be before ${EARLIEST} (a duration of at most ${maxDays}d).`);
    }
    return at;
  }
  const dateOnly = !value.includes(':');
  const at = TIME.test(value) ? new Date(dateOnly ? `${value}T00:00:00Z` : value.replace(' ', 'T')) : undefined;
  // Date rolls 2026-02-30 over into March: the calendar date must come back as written.
  const day = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  const realDay = !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value.slice(0, 10);
  if (at === undefined || Number.isNaN(at.getTime()) || !realDay) throw new RangeError(`Must be ${TIME_FORMATS}.`);
  if (at.getTime() < earliest) throw new RangeError(`Must not be before ${EARLIEST}.`);
  if (at.getTime() >= Date.parse(LATEST)) throw new RangeError(`Must be before ${LATEST.slice(0, 10)}.`);
  return at;
}

/** parseTime for a `--since`: nothing can have happened since a time after `now`. */
export function parseSince(text: string, now: Date): Date {
  const at = parseTime(text, now);
  if (at.getTime() > now.getTime()) throw new RangeError('Must not be in the future.');
  return at;
}

/** A commander parser of a time option (`--until`): the instant, read against the time of parsing. */
export function timeArgument(value: string): Date {
  try {
    return parseTime(value, new Date());
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** A commander parser of a `--since` option, likewise. */
export function sinceArgument(value: string): Date {
  try {
    return parseSince(value, new Date());
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}
