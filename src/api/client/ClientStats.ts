import type { RequestEvent } from './RequestEvent.js';
import { RequestTally } from './RequestTally.js';
import type { ServerWindowSnapshot } from './ServerWindow.js';

export interface ClientStats {
  /** Attempts sent, by endpoint label, then by status (`"200"`, `"429"`, `"network_error"`, `"aborted"`). */
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
  /** The configured plan: requests per minute the client allows itself. */
  readonly planRequestsPerMinute: number;
  /** The gateway's window as its answers report it (x-ratelimit-*), or null before any answer carried the headers. */
  readonly serverWindow: ServerWindowSnapshot | null;
}

/** Counters behind `ClientStats`; the live parts (queue, pause, state) are added by the client. */
export class ClientStatsRecorder {
  readonly #requests = new RequestTally();
  #rateLimited = 0;
  #retries = 0;

  record(event: RequestEvent): void {
    this.#requests.record(event);
    if (event.status === 429) this.#rateLimited += 1;
  }

  recordRetry(): void {
    this.#retries += 1;
  }

  snapshot(live: Pick<ClientStats, 'queue' | 'pausedUntilMs' | 'state' | 'planRequestsPerMinute' | 'serverWindow'>): ClientStats {
    const requests = this.#requests;
    return {
      requests: requests.byEndpoint(),
      totalRequests: requests.total,
      rateLimited: this.#rateLimited,
      retries: this.#retries,
      ...live,
    };
  }
}
