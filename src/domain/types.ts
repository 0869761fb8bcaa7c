/**
 * The domain model: what the pipeline stores, after validation and normalization.
 * Independent of the wire format (src/wire) and of the tables (src/schema).
 * Money and sizes are exact decimal strings (`Decimal`), never floats; times are Unix seconds.
 */

/** Providers the spec names, first-listed first. Others are stored as received (the live service added `bisonfi`). */
export const KNOWN_PROVIDERS = ['kalshi', 'polymarket'] as const;
export type KnownProvider = (typeof KNOWN_PROVIDERS)[number];
export const DEFAULT_PROVIDER: KnownProvider = 'polymarket';
/** What a provider name may look like: a request may name one we do not know yet, never arbitrary text. */
export const PROVIDER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/** The documented categories. The live service also sends others (e.g. "climate & science"), stored as received. */
export const CATEGORIES = ['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech'] as const;
export type Category = (typeof CATEGORIES)[number];
/** Every documented category but the `all` pseudo-category. */
export const CONCRETE_CATEGORIES = CATEGORIES.filter((c) => c !== 'all') as Exclude<Category, 'all'>[];
/** The listing that holds every event, whatever its category: what a crawl must page to see them all. */
export const ALL_CATEGORIES: Category = 'all';

/** Canonical decimal text such as "650000" or "12.5": exact, safe for Postgres numeric. */
export type Decimal = string;

/** `open` and `closed` are documented; any other value (e.g. `cancelled`) is stored as received. */
export type MarketStatus = string;
/** `yes` and `no` are documented; null while unresolved; any other value is stored as received. */
export type MarketResult = string | null;

/** A tag naming a tolerated deviation from the spec that was seen on a record (e.g. "pricing_as_string"). */
export type DriftTag = string;

/**
 * The structure of a record as received: its sorted key paths with JSON types, a short
 * fingerprint of them, and an example (arrays cut short). Records of one shape share one object.
 */
export interface RecordShape {
  readonly fingerprint: string;
  readonly paths: readonly string[];
  readonly example: unknown;
  /** How the record differs from what the service sends today (wire/liveContract.ts); empty when it matches. */
  readonly changes: readonly ContractChange[];
}

/**
 * A difference between a record and today's contract that means the service changed: a field the
 * contract lacks, a field it requires that is absent, a value of another JSON type, a value outside
 * one of its lists. A null where the contract has a value is none of these (nullability is no change).
 */
export type ContractChangeKind = 'new_field' | 'field_gone' | 'changed_type' | 'new_value';

export interface ContractChange {
  readonly kind: ContractChangeKind;
  /** Key path as in RecordShape.paths, without the type (`pricing.fee`, `marketOptions[].label`). */
  readonly path: string;
  /** new_field: its JSON type; field_gone: the type expected; changed_type: `string -> number`; new_value: the value as JSON. */
  readonly detail: string;
}

export interface Pricing {
  buyYesMicroUsd: Decimal | null;
  buyNoMicroUsd: Decimal | null;
  sellYesMicroUsd: Decimal | null;
  sellNoMicroUsd: Decimal | null;
  /** As received: whole US dollars on the live service (the spec left the unit undocumented). */
  volume: Decimal | null;
}

export interface Market {
  marketId: string;
  /** Known from context only (the embedding event or the request); the wire market carries none. */
  eventId: string | null;
  /** null only when the record carried none (a drift). */
  status: MarketStatus | null;
  result: MarketResult;
  /** Unix seconds, possibly fractional; null only when the record carried none (a drift). */
  openTimeSec: number | null;
  closeTimeSec: number | null;
  /** `settlementTime`, or `resolveAt` where that is absent; null while settlement is pending (wire value 0 or null). */
  settlementTimeSec: number | null;
  title: string | null;
  subtitle: string | null;
  description: string | null;
  rulesPrimary: string | null;
  rulesSecondary: string | null;
  isTradable: boolean | null;
  /** null when the record had no pricing, or when its pricing was quarantined (`pricingRejection`). */
  pricing: Pricing | null;
  /** A pricing we could read but not believe (a price outside 0..1,000,000 micro-USD): quarantined, the market kept. */
  pricingRejection: Rejection | null;
  drift: DriftTag[];
  /** The record as received, for the `raw` jsonb column. */
  raw: unknown;
  shape: RecordShape;
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
  /** The shape of `raw` (markets have their own). */
  shape: RecordShape;
}

export interface OrderBookLevel {
  /** Exact: from the dollar arrays when sent ("0.9950" -> "99.5"), else the cent arrays. */
  priceCents: Decimal;
  /** Contracts; levels sent at one price are merged by summing their sizes. */
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
  shape: RecordShape;
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
  /** Readable reason built from the validation issues, e.g. "markets[2].closeTime: expected Unix seconds, got \"tomorrow\"". */
  reason: string;
  payload: unknown;
  shape: RecordShape;
}

/** Result of validating one record: either the normalized value or its rejection. */
export type Checked<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };

/**
 * The bound of a stored volume: fewer than AMOUNT_INTEGER_DIGITS digits before the point, at most
 * AMOUNT_FRACTION_DIGITS after it. The Parquet export writes volumes, sizes and depths as
 * DECIMAL(38, 18) (export/exportColumns.ts, AMOUNT): what the ingest accepts, the export can write.
 */
export const AMOUNT_INTEGER_DIGITS = 20;
export const AMOUNT_FRACTION_DIGITS = 18;

/** `buy` and `sell` as the trade feed sends them; any other value is stored as received and tagged. */
export const TRADE_ACTIONS = ['buy', 'sell'] as const;
/** `yes` and `no`: the outcome the trade was on; any other value is stored as received and tagged. */
export const TRADE_SIDES = ['yes', 'no'] as const;

/** Rows the live service's trade feed answers with (GET /trades, 2026-07-05): its latest 20 fills, no paging. */
export const TRADE_FEED_ROWS = 20;

/** One fill of the service's trade feed (GET /trades). */
export interface Trade {
  /** The feed's id, e.g. "order-2357571" (its number is a counter shared with other record kinds). */
  tradeId: string;
  marketId: string;
  eventId: string | null;
  /** Unix seconds, possibly fractional. */
  tradedAtSec: number;
  /** As received. */
  action: string;
  side: string;
  priceMicroUsd: Decimal;
  amountMicroUsd: Decimal;
  ownerPubkey: string | null;
  drift: DriftTag[];
  raw: unknown;
  shape: RecordShape;
}

/**
 * The trade feed dates its trades in Unix seconds, whole in every answer recorded: a trade dated t
 * may have happened up to this much later, so a book fetched before then may not hold it yet.
 */
export const TRADE_TIME_RESOLUTION_MS = 1_000;

/** A market that traded, and when (its latest trade's time): a change of its order book. */
export interface TradedBook {
  marketId: string;
  tradedAtMs: number;
}

/** A provider's own count of its events in one category (GET /events/categories), with its subcategories'. */
export interface CategoryCount {
  category: string;
  eventCount: number;
  subcategories: { subcategory: string; eventCount: number }[];
}
