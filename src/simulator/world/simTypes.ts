/**
 * The simulator's own records: the state the wire JSON is rendered from. Not the domain model
 * (src/domain) and not the wire shape (see wire.ts): this is what the fake upstream "stores".
 * Prices are kept in micro-USD on whole cents so the pricing object and the order book agree.
 */
import type { CONCRETE_CATEGORIES, KnownProvider } from '../../domain/types.js';

/** The providers the live service accepts (its OpenAPI enum since 2026-07-02): the spec's two and bisonfi, of which this world holds no event. */
export const LIVE_PROVIDERS = ['kalshi', 'polymarket', 'bisonfi'] as const satisfies readonly (KnownProvider | 'bisonfi')[];
export type SimProvider = (typeof LIVE_PROVIDERS)[number];
/** The spec's concrete categories (what a category filter accepts). */
export type SimCategory = (typeof CONCRETE_CATEGORIES)[number];
/** An event's category: a documented one, or (in worlds that follow the live service) another. */
/**
 * Categories outside the spec's list that the live service sends ("climate & science" was seen
 * live; "geopolitics" stands in for the others): see undocumentedCatalog.ts.
 */
export const UNDOCUMENTED_CATEGORIES = ['climate & science', 'geopolitics'] as const;
export type UndocumentedCategory = (typeof UNDOCUMENTED_CATEGORIES)[number];

export type SimEventCategory = SimCategory | UndocumentedCategory;
export type Outcome = 'yes' | 'no';

export interface SimEvent {
  readonly eventId: string;
  readonly provider: SimProvider;
  readonly series: string;
  readonly category: SimEventCategory;
  readonly subcategory: string;
  readonly title: string;
  /** Lower-cased title, kept for search. */
  readonly titleLower: string;
  readonly subtitle: string;
  readonly closeCondition: string;
  readonly multipleWinners: boolean;
  readonly createdAtSec: number;
  /** When the event begins (game start, ...); null for events without a start. */
  beginAtSec: number | null;
  /** Listed on /events. False once resolved or delisted. */
  isActive: boolean;
  /** Winning market id; '' while unresolved. */
  winner: string;
  volumeMicroUsd: number;
  tvlMicroUsd: number;
  lastTradeSec: number;
  readonly marketIds: string[];
  /** Markets whose result is still null. The event resolves when it reaches 0. */
  unresolvedCount: number;
  /** Creation order, used to keep listings of equal keys deterministic. */
  readonly ordinal: number;
}

export interface SimMarket {
  readonly marketId: string;
  readonly eventId: string;
  readonly title: string;
  readonly subtitle: string;
  readonly openTimeSec: number;
  closeTimeSec: number;
  /** 0 while settlement is pending, as on the wire. */
  settlementTimeSec: number;
  status: 'open' | 'closed';
  result: Outcome | null;
  /** Hidden truth revealed at settlement (mutators may override it). */
  outcome: Outcome;
  /** Best YES bid = sellYesPriceUsd; whole cents, in micro-USD. */
  bidMicroUsd: number;
  /** Best YES ask = buyYesPriceUsd; whole cents, in micro-USD. */
  askMicroUsd: number;
  /** Traded contracts in hundredths (rendered as volume / 100, exact in JSON). */
  volumeCenti: number;
  /**
   * Dollars traded (contracts x YES ask at each trade), micro-USD: the event's volumeMicroUsd is
   * the sum over its markets (until a test sets either by hand). The live shape's volume.
   */
  notionalMicroUsd: number;
  /** Bumped on every change that should change the order book. */
  bookVersion: number;
  /** Some markets have no book at all (the endpoint answers null). */
  readonly hasBook: boolean;
  lastTradeSec: number;
  /** Index in the world's open-market list, -1 once closed. */
  openIndex: number;
}

/** One fill of the trade feed (fills.ts). */
export interface SimFill {
  /** Its number in the feed's id, `order-<seq>`. */
  readonly seq: number;
  readonly marketId: string;
  readonly eventId: string;
  readonly atSec: number;
  readonly action: 'buy' | 'sell';
  readonly side: 'yes' | 'no';
  /** Price per contract of the side traded, micro-USD. */
  readonly priceMicroUsd: number;
  readonly amountMicroUsd: number;
  readonly trader: number;
}
