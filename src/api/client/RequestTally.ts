import type { RequestEvent } from './RequestEvent.js';

/** Request attempts counted by endpoint label, then by status (`"200"`, `"429"`, `"network_error"`, `"aborted"`). */
export class RequestTally {
  readonly #counts = new Map<string, Map<string, number>>();
  #total = 0;

  /** Counts one attempt; an arrow so that it can be handed over as a callback (`observedBy(tally.record)`). */
  readonly record = (event: RequestEvent): void => {
    const byStatus = this.#counts.get(event.endpoint) ?? new Map<string, number>();
    this.#counts.set(event.endpoint, byStatus);
    const key = String(event.status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
    this.#total += 1;
  };

  get total(): number {
    return this.#total;
  }

  /** A plain copy, safe to keep or serialize. */
  byEndpoint(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const [endpoint, byStatus] of this.#counts) out[endpoint] = Object.fromEntries(byStatus);
    return out;
  }
}
