/** What happened to one attempt: passed to `onRequest` and counted in the stats. */
export interface RequestEvent {
  /** Route template, e.g. `/events/{eventId}`: a bounded label set, unlike concrete paths. */
  readonly endpoint: string;
  readonly method: 'GET';
  /**
   * HTTP status; `network_error` when no response came back (including timeouts); `aborted` when
   * the attempt was cut on purpose (abort(), or the call's signal) before its answer was read.
   */
  readonly status: number | 'network_error' | 'aborted';
  /** From sending to the end of the body (or the failure). */
  readonly durationMs: number;
  /** 1 for the first send of a call, 2 for its first retry, and so on. */
  readonly attempt: number;
}
