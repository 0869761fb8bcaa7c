/** Process exit codes: a public interface (scripts and supervisors branch on them). */
export const ExitCode = {
  ok: 0,
  /** Unexpected failure; the message says what. */
  failure: 1,
  /** Bad command-line argument or configuration value. */
  usage: 2,
  /** The upstream rejected the API key (401/403), or none is configured for the real service. */
  apiKeyRejected: 3,
  /** The database could not be reached. */
  databaseUnreachable: 4,
  /** The upstream API stayed unavailable after retries. */
  upstreamUnavailable: 5,
  /**
   * The run finished but read its upstream badly: it rejected or could not fetch more than
   * MAX_REJECTED_PERCENT of the records, rejected a whole listing page, gave a listing up, or
   * received nothing. What it could read is stored; the message
   * names the most common rejection reasons. Usually the upstream changed shape.
   */
  degraded: 6,
  /** `status`: unhealthy: data older than allowed, a job's latest run failed, or nothing ingested yet. */
  unhealthy: 7,
  /**
   * The host's clock is farther from the database's than PREDICTION_CLOCK_TOLERANCE_SEC: nothing
   * was written (observation times, months ahead and retention would follow the wrong clock).
   */
  clockSkew: 8,
  /** Stopped by a signal before finishing (graceful shutdown). */
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
