/**
 * Records that cannot be read soundly, as a validator must quarantine them (an unfamiliar value
 * is not one: that is drift, stored and tagged). Each picks one defect by a hash of the seed and
 * its id, so it is the same defect on every request.
 */
import { hash32 } from '../world/prng.js';

type Json = Record<string, unknown>;

const MARKET_DEFECTS = ['idNotString', 'settlementTimeNotNumber', 'nanPrice', 'nulTitle'] as const;
const EVENT_DEFECTS = ['nulTitle', 'idNotString', 'idMissing'] as const;

export type MarketDefect = (typeof MARKET_DEFECTS)[number];
export type EventDefect = (typeof EVENT_DEFECTS)[number];

/** Puts a NUL in the middle of a title: Postgres text cannot store it. */
function withNul(title: unknown): string {
  const s = String(title ?? '');
  const mid = Math.floor(s.length / 2);
  return `${s.slice(0, mid)}\u0000${s.slice(mid)}`;
}

export function marketDefect(seed: number, marketId: string): MarketDefect {
  return MARKET_DEFECTS[hash32(seed, 'defect', marketId) % MARKET_DEFECTS.length]!;
}

export function eventDefect(seed: number, eventId: string): EventDefect {
  return EVENT_DEFECTS[hash32(seed, 'defect', eventId) % EVENT_DEFECTS.length]!;
}

/** Mutates and returns the wire market. */
export function malformMarket(market: Json, defect: MarketDefect): Json {
  switch (defect) {
    case 'idNotString':
      market.marketId = hash32(0, 'id', String(market.marketId));
      break;
    case 'settlementTimeNotNumber':
      market.settlementTime = 'tomorrow';
      break;
    case 'nanPrice': {
      const pricing = market.pricing as Json | undefined;
      if (pricing) pricing.buyYesPriceUsd = 'NaN';
      else market.settlementTime = 'tomorrow'; // a 2026-02 market has no pricing object to break
      break;
    }
    case 'nulTitle': {
      const meta = market.metadata as Json | undefined;
      if (meta) meta.title = withNul(meta.title);
      else market.title = withNul(market.title);
      break;
    }
  }
  return market;
}

/** Mutates and returns the wire event. */
export function malformEvent(event: Json, defect: EventDefect): Json {
  switch (defect) {
    case 'nulTitle': {
      const meta = event.metadata as Json | undefined;
      if (meta) meta.title = withNul(meta.title);
      break;
    }
    case 'idNotString':
      event.eventId = hash32(0, 'id', String(event.eventId));
      break;
    case 'idMissing':
      delete event.eventId;
      break;
  }
  return event;
}
