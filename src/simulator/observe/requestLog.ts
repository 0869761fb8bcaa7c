/**
 * Every request the simulator saw, for tests to assert pacing ("no request arrived during a 429
 * pause", "no window of W ms had more than N accepted requests"). The api key is never recorded;
 * query parameters whose name looks like a secret are redacted.
 */
import type { KeyState } from '../limits/authenticate.js';

export type RequestOutcome =
  | 'ok' // 200
  | 'client_error' // 400 / 404 / 405
  | 'unauthorized' // 401
  | 'rate_limited' // 429 from the sliding window
  | 'storm' // 429 from the storm fault
  | 'server_error' // 5xx (faults, or a simulator bug)
  | 'hung' // never answered
  | 'pending'; // still being handled (latency fault)

export interface RequestRecord {
  /** Arrival order, from 0 (not reset by `reset()`, so records stay distinguishable). */
  readonly seq: number;
  /** Wall-clock arrival, ms since the Unix epoch (the time the limiter counted). */
  readonly timeMs: number;
  readonly method: string;
  /** Path without the query string, e.g. /prediction/v1/events. */
  readonly path: string;
  /** Query string without '?', secrets redacted. */
  readonly query: string;
  keyState: KeyState | 'unchecked';
  /** Passed the rate limiter (counted in the sliding window). */
  accepted: boolean;
  status: number | null;
  outcome: RequestOutcome;
  /** Wall-clock ms when the answer was written, null while pending or hung. */
  finishedMs: number | null;
}

export interface RequestCounters {
  total: number;
  accepted: number;
  byStatus: Record<string, number>;
  byOutcome: Partial<Record<RequestOutcome, number>>;
}

const SECRET_PARAM = /key|token|secret|password|auth/i;

export class RequestLog {
  private records: RequestRecord[] = [];
  private seq = 0;

  /** Keeps the last `limit` records (default 200,000; oldest dropped) so a long CLI run does not grow forever. */
  constructor(private readonly limit = 200_000) {}

  begin(timeMs: number, method: string, path: string, search: URLSearchParams): RequestRecord {
    const query = new URLSearchParams(
      [...search].map(([k, v]): [string, string] => [k, SECRET_PARAM.test(k) ? '[redacted]' : v]),
    ).toString();
    const record: RequestRecord = {
      seq: this.seq++,
      timeMs,
      method,
      path,
      query,
      keyState: 'unchecked',
      accepted: false,
      status: null,
      outcome: 'pending',
      finishedMs: null,
    };
    this.records.push(record);
    // Trim in batches: an O(n) copy per request would be wasteful.
    if (this.records.length > this.limit * 1.25) this.records = this.records.slice(-this.limit);
    return record;
  }

  all(): readonly RequestRecord[] {
    return this.records;
  }

  reset(): void {
    this.records = [];
  }

  counters(): RequestCounters {
    const c: RequestCounters = { total: 0, accepted: 0, byStatus: {}, byOutcome: {} };
    for (const r of this.records) {
      c.total++;
      if (r.accepted) c.accepted++;
      const status = r.status === null ? 'none' : String(r.status);
      c.byStatus[status] = (c.byStatus[status] ?? 0) + 1;
      c.byOutcome[r.outcome] = (c.byOutcome[r.outcome] ?? 0) + 1;
    }
    return c;
  }

  /** The largest number of accepted requests that arrived within any `windowMs`-long interval. */
  maxAcceptedInWindow(windowMs: number): number {
    const times = this.records
      .filter((r) => r.accepted)
      .map((r) => r.timeMs)
      .sort((a, b) => a - b);
    let best = 0;
    for (let lo = 0, hi = 0; hi < times.length; hi++) {
      while (times[hi]! - times[lo]! >= windowMs) lo++;
      best = Math.max(best, hi - lo + 1);
    }
    return best;
  }

  /** Requests that arrived in [fromMs, toMs). */
  arrivedBetween(fromMs: number, toMs: number): RequestRecord[] {
    return this.records.filter((r) => r.timeMs >= fromMs && r.timeMs < toMs);
  }
}
