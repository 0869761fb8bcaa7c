/**
 * Drifted shapes from other versions of the upstream (docs/upstream/behaviour.md, "Drift"). Each function
 * mutates a clean wire record in place; which variant a record gets (e.g. ISO vs number for
 * resolveAt) is a hash of the seed and its id, so output is deterministic.
 */
import { centsAsDollars } from '../world/money.js';
import { hash32 } from '../world/prng.js';
import type { DriftKind } from './faultSettings.js';

type Json = Record<string, unknown>;
type Level = [number, number];

const METADATA_FIELDS_KEPT_ON_TOP = ['title', 'subtitle', 'description', 'isTradable', 'rulesPrimary', 'rulesSecondary'];

export function driftMarket(market: Json, kinds: ReadonlySet<DriftKind>, seed: number): Json {
  const id = String(market.marketId);
  const variant = hash32(seed, 'drift-variant', id);
  if (kinds.has('pricesAsStrings') && market.pricing) {
    const pricing = market.pricing as Json;
    for (const k of Object.keys(pricing)) pricing[k] = String(pricing[k]);
  }
  if (kinds.has('legacyResult') && market.result === null) market.result = variant % 2 === 0 ? '' : 'pending';
  // Only where the shape still has settlementTime: newer shapes already carry resolveAt.
  if (kinds.has('resolveAt') && 'settlementTime' in market) {
    const settledSec = Number(market.settlementTime);
    delete market.settlementTime;
    market.resolveAt = settledSec === 0 ? null : variant % 3 === 0 ? settledSec : new Date(settledSec * 1000).toISOString();
    const meta = market.metadata as Json | undefined;
    if (meta) {
      delete meta.settlementTime;
      meta.resolveAt = market.resolveAt;
    }
  }
  if (kinds.has('newMarketField')) market.feeBps = variant % 50;
  if (kinds.has('newStatusValue') && market.status === 'open') market.status = 'suspended';
  if (kinds.has('statusAsNumber') && typeof market.status === 'string') market.status = market.status === 'open' ? 1 : 0;
  if (kinds.has('flatMarkets') && market.metadata) {
    const meta = market.metadata as Json;
    for (const k of METADATA_FIELDS_KEPT_ON_TOP) if (k in meta) market[k] = meta[k];
    delete market.metadata;
  }
  return market;
}

export function driftEvent(event: Json, kinds: ReadonlySet<DriftKind>, seed: number, provider: string): Json {
  if (kinds.has('missingFields')) {
    delete event.series;
    delete event.winner;
    delete event.tvlDollars;
  }
  if (kinds.has('extraFields')) {
    const meta = event.metadata as Json | undefined;
    // Added where absent only: a live-shaped event keeps its own tags, provider and volume24hr.
    const extra: Json = {
      tags: [event.category, event.subcategory],
      provider,
      imageUrl: meta?.imageUrl ?? null,
      volume24hr: hash32(seed, 'volume24hr', String(event.eventId)) % 250_000,
    };
    for (const [k, v] of Object.entries(extra)) if (!(k in event)) event[k] = v;
  }
  return event;
}

export function driftBook(book: { yes: Level[]; no: Level[] }, kinds: ReadonlySet<DriftKind>): Json {
  // A book that has dollar arrays already (2026-03 and live shapes) keeps its own.
  if (!kinds.has('bookDollars') || 'yes_dollars' in book) return book as unknown as Json;
  const ascending = (levels: Level[]) => [...levels].sort((a, b) => a[0] - b[0]);
  const yes = ascending(book.yes);
  const no = ascending(book.no);
  return {
    yes,
    no,
    yes_dollars: yes.map(([cents, size]) => [centsAsDollars(cents), size]),
    no_dollars: no.map(([cents, size]) => [centsAsDollars(cents), size]),
  };
}
