/**
 * The host's clock is further from the database's than the tolerance allows. Nothing is written:
 * observation times, the months created ahead and retention's horizon would follow the wrong clock
 * (a clock years ahead would drop the current month).
 */
export class ClockSkewError extends Error {
  override name = 'ClockSkewError';
  constructor(
    /** Host minus database, in ms (positive: the host is ahead). */
    readonly offsetMs: number,
    readonly toleranceMs: number,
  ) {
    super(
      `the host clock is ${(Math.abs(offsetMs) / 1000).toFixed(1)} s ${offsetMs > 0 ? 'ahead of' : 'behind'} the database's ` +
        `(tolerance ${toleranceMs / 1000} s, PREDICTION_CLOCK_TOLERANCE_SEC): nothing was written; set the host's time right (NTP)`,
    );
  }
}
