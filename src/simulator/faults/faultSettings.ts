/**
 * Fault injection knobs, all changeable at runtime (`sim.faults.set({...})`). Every rate is a
 * fraction 0..1. Request-level faults (errors, storms, hangs, latency) draw from a seeded stream
 * in request order; record-level faults (malformed, drift, null books) are hashes of the seed and
 * the record id, so the same record is broken the same way on every request and every run.
 */

/** Shapes seen in other versions of the upstream (see docs/upstream/behaviour.md, "Drift"). */
export const DRIFT_KINDS = [
  /** pricing.*PriceUsd and volume as numeric strings ("650000"). */
  'pricesAsStrings',
  /** Unresolved market result as "" or "pending" instead of null. */
  'legacyResult',
  /** settlementTime renamed resolveAt: null while pending, else an ISO string or a number. */
  'resolveAt',
  /** Markets flattened: metadata fields at the top level, no `metadata` object. */
  'flatMarkets',
  /** Order book with extra yes_dollars/no_dollars (decimal-dollar strings), all levels ascending. */
  'bookDollars',
  /** Events without series, winner and tvlDollars. */
  'missingFields',
  /** Events with extra tags, provider, imageUrl and volume24hr. */
  'extraFields',
  /** A change the service has not made (yet): markets with a field no shape has, `feeBps` (a number). */
  'newMarketField',
  /** A change the service has not made (yet): market `status` as a number (1 open, 0 closed), which no reader can use. */
  'statusAsNumber',
  /** A change the service has not made (yet): open markets with the status "suspended". */
  'newStatusValue',
] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** The drifts of shapes the service has sent: the default, since the planted ones change what a record means. */
export const PAST_DRIFT_KINDS: readonly DriftKind[] = DRIFT_KINDS.filter(
  (k) => k !== 'newMarketField' && k !== 'statusAsNumber' && k !== 'newStatusValue',
);

export interface FaultSettings {
  /** Share of accepted requests answered with a random 500, 502 or 503. Default 0. */
  errorRate: number;
  /** Share of requests answered 429 whatever the real limiter says (not counted as accepted). Default 0. */
  rateLimitStormRate: number;
  /**
   * Pause asked for by storm 429s, ms. Whole seconds go out as an integer `Retry-After`; anything
   * else as a decimal seconds string ("0.2"), so tests can use short pauses. Default 1000.
   */
  stormRetryAfterMs: number;
  /** Added to every accepted request before it is answered, ms. Default 0. */
  latencyMs: number;
  /** Extra uniform random latency in [0, latencyJitterMs), ms. Default 0. */
  latencyJitterMs: number;
  /** Share of accepted requests that never get an answer (until the simulator stops). Default 0. */
  hangRate: number;
  /** Share of records inside lists (data arrays, embedded markets) made invalid. Default 0. */
  malformedRate: number;
  /** Share of order books answered null (on top of closed / no-liquidity markets). Default 0. */
  nullBookRate: number;
  /** Share of records emitted in a drifted shape. Default 0. */
  driftRate: number;
  /** Which drifts a drifted record gets. Default PAST_DRIFT_KINDS (every kind but the planted changes). */
  driftKinds: readonly DriftKind[];
  /** Share of /orderbook requests answered 502 (its own upstream failing). Default 0. */
  orderbookErrorRate: number;
}

export const DEFAULT_FAULTS: Readonly<FaultSettings> = Object.freeze({
  errorRate: 0,
  rateLimitStormRate: 0,
  stormRetryAfterMs: 1000,
  latencyMs: 0,
  latencyJitterMs: 0,
  hangRate: 0,
  malformedRate: 0,
  nullBookRate: 0,
  driftRate: 0,
  driftKinds: PAST_DRIFT_KINDS,
  orderbookErrorRate: 0,
});

const RATES = ['errorRate', 'rateLimitStormRate', 'hangRate', 'malformedRate', 'nullBookRate', 'driftRate', 'orderbookErrorRate'] as const;
const DURATIONS = ['stormRetryAfterMs', 'latencyMs', 'latencyJitterMs'] as const;

/** Merges `patch` into `base`; throws a RangeError naming the first bad field. */
export function mergeFaults(base: Readonly<FaultSettings>, patch: Partial<FaultSettings>): Readonly<FaultSettings> {
  const next = { ...base, ...patch };
  for (const name of RATES) {
    const v = next[name];
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw new RangeError(`faults.${name} must be a number in 0..1, got ${String(v)}`);
  }
  for (const name of DURATIONS) {
    const v = next[name];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new RangeError(`faults.${name} must be a non-negative number of ms, got ${String(v)}`);
  }
  const bad = next.driftKinds.find((k) => !(DRIFT_KINDS as readonly string[]).includes(k));
  if (bad !== undefined) throw new RangeError(`faults.driftKinds: unknown kind ${JSON.stringify(bad)} (known: ${DRIFT_KINDS.join(', ')})`);
  return Object.freeze({ ...next, driftKinds: Object.freeze([...next.driftKinds]) });
}
