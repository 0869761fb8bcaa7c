/**
 * Market and book shapes between the spec and today, from the service's own doc examples
 * (docs/upstream/examples/market-detail-2026-02.json and -2026-03.json).
 */
import type { WireLevel, WirePricing } from '../world/wireTypes.js';
import type { LiveDollarLevel } from './liveWireTypes.js';

/** 2026-02: flat, prices as numeric strings at the top level. */
export interface Market202602 {
  marketId: string;
  /** Only on GET /markets/{id}. */
  eventId?: string;
  title: string;
  description: string;
  status: 'open' | 'closed';
  /** "" while unresolved. */
  result: '' | 'yes' | 'no';
  openTime: number;
  closeTime: number;
  /** Micro-USD as integer strings ("650000"). */
  buyYesPriceUsd: string;
  sellYesPriceUsd: string;
  buyNoPriceUsd: string;
  sellNoPriceUsd: string;
  /** Whole dollars traded, integer string. */
  volumeUsd: string;
  /** Contracts outstanding, integer string. */
  openInterest: string;
  /** Whole dollars resting in the book, integer string ("0" once closed). */
  liquidityUsd: string;
}

/** 2026-03: nested metadata beside top-level status and result; resolveAt replaces settlementTime. */
export interface Market202603 {
  marketId: string;
  status: 'open' | 'closed';
  result: 'yes' | 'no' | null;
  openTime: number;
  closeTime: number;
  /** Unix seconds (a number) once resolved, else null. */
  resolveAt: number | null;
  marketResultPubkey: string | null;
  metadata: {
    marketId: string;
    title: string;
    status: 'open' | 'closed';
    /** "" while unresolved. */
    result: string;
    closeTime: number;
    openTime: number;
    isTeamMarket: boolean;
    rulesPrimary: string;
  };
  /** Micro-USD numbers as in the spec; `volume` in whole dollars. */
  pricing: WirePricing;
}

/** 2026-03 to April: the spec's descending whole-cent levels, plus the `*_dollars` arrays. */
export interface OrderBook202603 {
  yes: WireLevel[];
  no: WireLevel[];
  yes_dollars: LiveDollarLevel[];
  no_dollars: LiveDollarLevel[];
}
