const UNIT_SEC = { s: 1, m: 60, h: 3600, d: 86_400 } as const;
const DURATION = /^(\d+)\s*([smhd])$/;
/** A date, or a date and time with its zone (Z or ±hh:mm): a time without one would be read in the machine's zone. */
const TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * The earliest instant `--since` may name: 0001-01-01T00:00:00Z. Postgres reads no earlier one as
 * JavaScript writes it (year 0 is out of range, and it cannot parse a signed year such as -006187).
 */
const EARLIEST_SINCE = '0001-01-01T00:00:00Z';

/** What `--since` accepts, for its error message. */
export const SINCE_FORMATS = 'a duration before now (30m, 24h, 7d) or a UTC date or time (2026-01-31, 2026-01-31T08:00:00Z)';

/**
 * The instant `--since` names, relative to `now`: a duration before now (`24h`) or a date or time
 * (a date alone is midnight UTC). Throws a RangeError saying what is accepted; a time after `now`
 * is refused, since nothing can have happened since then, and one before EARLIEST_SINCE too.
 */
export function parseSince(text: string, now: Date): Date {
  const value = text.trim();
  const duration = DURATION.exec(value);
  let at: Date | undefined;
  if (duration) at = new Date(now.getTime() - Number(duration[1]) * UNIT_SEC[duration[2] as keyof typeof UNIT_SEC] * 1000);
  else if (TIME.test(value)) at = new Date(value);
  // A duration too long for a Date at all (10^20d) is out of range too, not a bad format.
  const earliest = Date.parse(EARLIEST_SINCE);
  if (at !== undefined && (duration ? !(at.getTime() >= earliest) : at.getTime() < earliest)) {
    const maxDays = Math.floor((now.getTime() - earliest) / (UNIT_SEC.d * 1000));
    throw new RangeError(`Must not be before ${EARLIEST_SINCE} (a duration of at most ${maxDays}d).`);
  }
  if (at === undefined || Number.isNaN(at.getTime())) throw new RangeError(`Must be ${SINCE_FORMATS}.`);
  if (at.getTime() > now.getTime()) throw new RangeError('Must not be in the future.');
  return at;
}
