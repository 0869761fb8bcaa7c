/** The spec's wire shapes (sections 2.1-2.7), as the simulator emits them when no fault is on. */

export interface WireMarketMetadata {
  marketId: string;
  isTradable: boolean;
  title: string;
  subtitle: string;
  description: string;
  /** Spec: allowed values not shown. The simulator uses Kalshi's: active, closed, finalized. */
  status: string;
  /** Spec: a string; the simulator sends '' while unresolved, else 'yes' / 'no'. */
  result: string;
  closeTime: number;
  openTime: number;
  settlementTime: number;
  rulesPrimary: string;
  rulesSecondary: string;
}

export interface WirePricing {
  buyYesPriceUsd: number;
  buyNoPriceUsd: number;
  sellYesPriceUsd: number;
  sellNoPriceUsd: number;
  volume: number;
}

export interface WireMarket {
  marketId: string;
  status: 'open' | 'closed';
  result: 'yes' | 'no' | null;
  openTime: number;
  closeTime: number;
  settlementTime: number;
  metadata?: WireMarketMetadata;
  pricing?: WirePricing;
}

export interface WireEventMetadata {
  eventId: string;
  title: string;
  subtitle: string;
  imageUrl: string;
  isLive: boolean;
}

export interface WireEvent {
  eventId: string;
  series: string;
  winner: string;
  multipleWinners: boolean;
  isActive: boolean;
  isLive: boolean;
  isTrending: boolean;
  isRecommended: boolean;
  category: string;
  subcategory: string;
  tvlDollars: string;
  volumeUsd: string;
  closeCondition: string;
  beginAt: string | null;
  rulesPdf: string;
  metadata?: WireEventMetadata;
  markets?: WireMarket[];
}

/** [priceCents, size] */
export type WireLevel = [number, number];

export interface WireOrderBook {
  yes: WireLevel[];
  no: WireLevel[];
}

export interface WirePagination {
  start: number;
  end: number;
  total: number;
  hasNext: boolean;
}
