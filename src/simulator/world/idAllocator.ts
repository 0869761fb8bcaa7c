/**
 * Upstream-looking ids, unique across providers and kinds: Polymarket events and markets are
 * `POLY-<n>` from two disjoint number ranges; Kalshi events are series tickers plus a year and a
 * close month and a base-36 sequence (`KXF1-26JAN1A7`), markets add the outcome code
 * (`KXF1-26JAN1A7-LN`).
 */
import type { Rng } from './prng.js';

/** Polymarket event numbers start here and market numbers at MARKET_BASE: the ranges never meet below 480k events. */
const POLY_EVENT_BASE = 20_000;
const POLY_MARKET_BASE = 500_000;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

export class IdAllocator {
  private polyEvent = POLY_EVENT_BASE;
  private polyMarket = POLY_MARKET_BASE;
  private kalshiSeq = 36 * 36; // three base-36 digits from the start, so ids do not grow short-then-long
  private readonly used = new Set<string>();

  constructor(private readonly rng: Rng) {}

  polymarketEvent(): string {
    // Gaps, as upstream ids are sparse: a client must not assume consecutive ids.
    this.polyEvent += this.rng.int(1, 5);
    return this.claim(`POLY-${this.polyEvent}`);
  }

  polymarketMarket(): string {
    this.polyMarket += this.rng.int(1, 9);
    return this.claim(`POLY-${this.polyMarket}`);
  }

  kalshiEvent(series: string, closeTimeSec: number): string {
    const close = new Date(closeTimeSec * 1000);
    const yy = String(close.getUTCFullYear() % 100).padStart(2, '0');
    const mon = MONTHS[close.getUTCMonth()];
    this.kalshiSeq += 1;
    return this.claim(`${series}-${yy}${mon}${this.kalshiSeq.toString(36).toUpperCase()}`);
  }

  kalshiMarket(eventId: string, code: string): string {
    let id = `${eventId}-${code}`;
    for (let n = 2; this.used.has(id); n++) id = `${eventId}-${code}${n}`;
    return this.claim(id);
  }

  private claim(id: string): string {
    if (this.used.has(id)) throw new Error(`simulator bug: duplicate id ${id}`);
    this.used.add(id);
    return id;
  }
}
