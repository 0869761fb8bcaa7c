/** What happened to one attempt: passed to `onRequest` and counted in the stats. */
export interface RequestEvent {
  /** Route template, e.g. `/events/{eventId}`: a bounded label set, unlike concrete paths. */
  readonly endpoint: string;
  readonly method: 'GET';
  /** HTTP status, or `network_error` when no response came back (including timeouts). */
  readonly status: number | 'network_error';
  /** From sending to the end of the body (or the failure). */
  readonly durationMs: number;
  /** 1 for the first send of a call, 2 for its first retry, and so on. */
  readonly attempt: number;
}

export interface ClientStats {
  /** Attempts sent, by endpoint label, then by status (`"200"`, `"429"`, `"network_error"`). */
  readonly requests: Readonly<Record<string, Readonly<Record<string, number>>>>;
  readonly totalRequests: number;
  /** 429 responses received. */
  readonly rateLimited: number;
  /** Attempts re-sent after a 429, a 5xx or a network error. */
  readonly retries: number;
  /** Calls waiting for a slot, and attempts in flight. */
  readonly queue: { readonly size: number; readonly pending: number };
  /** Epoch ms at which a 429 pause ends, or null when not paused. */
  readonly pausedUntilMs: number | null;
  readonly state: 'open' | 'closed' | 'failed';
}

/** Counters behind `ClientStats`; the live parts (queue, pause, state) are added by the client. */
export class ClientStatsRecorder {
  readonly #requests = new Map<string, Map<string, number>>();
  #total = 0;
  #rateLimited = 0;
  #retries = 0;

  record(event: RequestEvent): void {
    const byStatus = this.#requests.get(event.endpoint) ?? new Map<string, number>();
    this.#requests.set(event.endpoint, byStatus);
    const key = String(event.status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
    this.#total += 1;
    if (event.status === 429) this.#rateLimited += 1;
  }

  recordRetry(): void {
    this.#retries += 1;
  }

  snapshot(live: Pick<ClientStats, 'queue' | 'pausedUntilMs' | 'state'>): ClientStats {
    const requests: Record<string, Record<string, number>> = {};
    for (const [endpoint, byStatus] of this.#requests) requests[endpoint] = Object.fromEntries(byStatus);
    return { requests, totalRequests: this.#total, rateLimited: this.#rateLimited, retries: this.#retries, ...live };
  }
}
