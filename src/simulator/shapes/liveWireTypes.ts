/**
 * The shapes the live service sends today (docs/upstream/live-service.md), as the 'live' profile
 * emits them with no fault on. The spec's shapes are in ../world/wireTypes.ts.
 */
import type { WireLevel, WirePricing } from '../world/wireTypes.js';

export interface LiveEventMetadata {
  slug: string;
  title: string;
  isLive: boolean;
  series: string;
  eventId: string;
  imageUrl: string;
  subtitle: string;
  /** ISO 8601, e.g. "2026-07-24T00:00:00.000Z": the latest close of the event's markets. */
  closeTime: string;
}

export interface LiveEvent {
  eventId: string;
  provider: string;
  isActive: boolean;
  isLive: boolean;
  /** May be outside the spec's list (e.g. "climate & science"). */
  category: string;
  /** May be "". */
  subcategory: string;
  tags: string[];
  metadata: LiveEventMetadata;
  /** Micro-USD as an integer string ("26003599000000"): the sum of its markets' volume x 1e6, give or take $1 a market. */
  volumeUsd: string;
  /** Micro-USD traded in the last 24 h, integer string. */
  volume24hr: string;
  /** Unix seconds as a string, sometimes fractional ("1784692980.306"), or null. */
  beginAt: string | null;
  closeCondition: string;
  rulesPdf: string;
  markets?: LiveMarket[];
  sportsMarketGroups: unknown[];
}

/** Micro-USD integers; all four 0 on a closed market (no quote); `volume` in whole dollars. */
export type LivePricing = WirePricing;

export interface LiveMarketOption {
  label: string;
  /** The option's YES ask, micro-USD (as pricing.buyYesPriceUsd). */
  buyYes: number;
}

export interface LiveMarket {
  provider: string;
  marketId: string;
  /** Only on GET /markets/{id}, not on markets nested in an event. */
  eventId?: string;
  status: 'open' | 'closed';
  result: 'yes' | 'no' | null;
  /** A base58 key once resolved, else null. */
  marketResultPubkey: string | null;
  title: string;
  openTime: number;
  closeTime: number;
  isTeamMarket: boolean;
  rulesPrimary: string;
  rulesSecondary: string;
  /** ISO 8601 with milliseconds once resolved, else null. There is no settlementTime. */
  resolveAt: string | null;
  pricing: LivePricing;
  imageUrl: string | null;
  team: null;
  outcomes: ['Yes', 'No'];
  clobTokenIds: [string, string];
  marketOptions: LiveMarketOption[];
  sportsMarketType: string | null;
  sportsLine: number | null;
  gameNumber: null;
}

/** ["0.9950", size]: the exact price as 4-decimal dollars. */
export type LiveDollarLevel = [string, number];

/**
 * Both sides are bids, levels ascending and not merged: the cent arrays carry prices rounded to
 * whole cents (0..100, so they repeat), the dollar arrays the exact prices, same sizes, same order.
 */
export interface LiveOrderBook {
  yes: WireLevel[];
  no: WireLevel[];
  yes_dollars: LiveDollarLevel[];
  no_dollars: LiveDollarLevel[];
}
