/**
 * The domain model: what the pipeline stores, after validation and normalization.
 * Independent of the wire format (src/wire) and of the tables (src/db/schema).
 * Money and sizes are exact decimal strings (`Decimal`), never floats; times are Unix seconds.
 */

/** Providers the spec names, first-listed first. Other values are tolerated (upstream adds some). */
export const KNOWN_PROVIDERS = ['kalshi', 'polymarket'] as const;
export type KnownProvider = (typeof KNOWN_PROVIDERS)[number];
export const DEFAULT_PROVIDER: KnownProvider = 'polymarket';

export const CATEGORIES = ['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech'] as const;
export type Category = (typeof CATEGORIES)[number];
/** Every category but the `all` pseudo-category: crawling these covers `all` without duplicates. */
export const CONCRETE_CATEGORIES = CATEGORIES.filter((c) => c !== 'all') as Exclude<Category, 'all'>[];

/** Canonical decimal text such as "650000" or "12.5": exact, safe for Postgres numeric. */
export type Decimal = string;

export type MarketStatus = 'open' | 'closed';
export type MarketResult = 'yes' | 'no' | null;

/** A tag naming a tolerated deviation from the spec that was seen on a record (e.g. "pricing_as_string"). */
export type DriftTag = string;

export interface Pricing {
  buyYesMicroUsd: Decimal | null;
  buyNoMicroUsd: Decimal | null;
  sellYesMicroUsd: Decimal | null;
  sellNoMicroUsd: Decimal | null;
  /** Units undocumented upstream: stored as received. */
  volume: Decimal | null;
}

export interface Market {
  marketId: string;
  /** Known from context only (the embedding event or the request); the wire market carries none. */
  eventId: string | null;
  status: MarketStatus;
  result: MarketResult;
  openTimeSec: number;
  closeTimeSec: number;
  /** null while settlement is pending (wire value 0). */
  settlementTimeSec: number | null;
  title: string | null;
  subtitle: string | null;
  description: string | null;
  rulesPrimary: string | null;
  rulesSecondary: string | null;
  isTradable: boolean | null;
  pricing: Pricing | null;
  drift: DriftTag[];
  /** The record as received, for the `raw` jsonb column. */
  raw: unknown;
}

export interface Event {
  eventId: string;
  /** From the request context (the wire event may carry none). */
  provider: string | null;
  series: string | null;
  category: string | null;
  subcategory: string | null;
  title: string | null;
  subtitle: string | null;
  imageUrl: string | null;
  closeCondition: string | null;
  rulesPdf: string | null;
  multipleWinners: boolean | null;
  isActive: boolean | null;
  isLive: boolean | null;
  isTrending: boolean | null;
  isRecommended: boolean | null;
  /** null while unresolved (wire value ""). */
  winner: string | null;
  beginAtSec: number | null;
  tvlUsd: Decimal | null;
  volumeUsd: Decimal | null;
  /** null when the response did not include markets; otherwise the valid ones. */
  markets: Market[] | null;
  /** Embedded markets that failed validation: quarantined while the event and its other markets are kept. */
  rejectedMarkets: Rejection[];
  drift: DriftTag[];
  /** The event as received, without its `markets` array (each market keeps its own raw). */
  raw: unknown;
}

export interface OrderBookLevel {
  priceCents: Decimal;
  size: Decimal;
}

export interface OrderBook {
  marketId: string;
  /** True when the endpoint answered `null`: recorded, since "no book" is itself an observation. */
  isNull: boolean;
  /** YES bids, best (highest price) first. */
  yes: OrderBookLevel[];
  /** NO bids, best (highest price) first. */
  no: OrderBookLevel[];
  drift: DriftTag[];
}

export interface Pagination {
  start: number;
  end: number;
  total: number;
  hasNext: boolean;
}

/** A record that failed validation, with what is needed to quarantine it. */
export interface Rejection {
  /** Best-effort id of the record (eventId / marketId) when one could be read. */
  entityId: string | null;
  /** Readable reason built from the validation issues, e.g. "markets[2].status: expected open|closed, got \"halted\"". */
  reason: string;
  payload: unknown;
}

/** Result of validating one record: either the normalized value or its rejection. */
export type Checked<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };
