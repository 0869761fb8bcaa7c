/**
 * Renders the 2026-02 and 2026-03 doc-example shapes from the world's records. Where those
 * examples leave a value open, the choice is said here: prices are the spec's (a settled market
 * at $1 / $0, not today's zeros); volumes are whole dollars as today; 2026-03's resolveAt is a
 * number (docs/upstream/behaviour.md lists null, ISO string or number; the live profile sends the ISO one).
 */
import type { Market202602, Market202603, OrderBook202603 } from '../../wire/legacyShapes.js';
import type { SpecOrderBook } from '../../wire/specShapes.js';
import { centsAsDollars } from '../world/money.js';
import { unitHash } from '../world/prng.js';
import { servedSec } from '../world/servedTime.js';
import type { SimMarket } from '../world/simTypes.js';
import { marketDescription, marketHead, marketRules, quotePrices } from '../world/wire.js';
import type { WorldState } from '../world/worldState.js';
import { resultPubkey } from './fakeIdentifiers.js';
import { isTeamMarket, volumeDollars } from './liveMarket.js';

export function renderMarket202602(state: WorldState, m: SimMarket, detail: boolean): Market202602 {
  const p = quotePrices(m.bidMicroUsd, m.askMicroUsd);
  const volume = volumeDollars(m);
  // Not modelled by the world: stable shares of the volume, so they change only when it does.
  const openInterest = Math.floor((m.volumeCenti / 100) * (0.1 + 0.4 * unitHash(state.seed, 'open-interest', m.marketId)));
  const liquidity = m.status === 'open' ? Math.floor(volume * (0.05 + 0.25 * unitHash(state.seed, 'liquidity', m.marketId))) : 0;
  return {
    marketId: m.marketId,
    ...(detail ? { eventId: m.eventId } : {}),
    title: m.title,
    description: marketDescription(m),
    status: m.status,
    result: m.result ?? '',
    openTime: servedSec(state, m.openTimeSec),
    closeTime: servedSec(state, m.closeTimeSec),
    buyYesPriceUsd: String(p.buyYesPriceUsd),
    sellYesPriceUsd: String(p.sellYesPriceUsd),
    buyNoPriceUsd: String(p.buyNoPriceUsd),
    sellNoPriceUsd: String(p.sellNoPriceUsd),
    volumeUsd: String(volume),
    openInterest: String(openInterest),
    liquidityUsd: String(liquidity),
  };
}

export function renderMarket202603(state: WorldState, m: SimMarket): Market202603 {
  return {
    ...marketHead(state, m),
    resolveAt: m.result === null ? null : servedSec(state, m.settlementTimeSec),
    marketResultPubkey: m.result === null ? null : resultPubkey(state.seed, m.marketId),
    metadata: {
      marketId: m.marketId,
      title: m.title,
      status: m.status,
      result: m.result ?? '',
      closeTime: servedSec(state, m.closeTimeSec),
      openTime: servedSec(state, m.openTimeSec),
      isTeamMarket: isTeamMarket(state.eventsById.get(m.eventId)!),
      rulesPrimary: marketRules(m).rulesPrimary,
    },
    pricing: { ...quotePrices(m.bidMicroUsd, m.askMicroUsd), volume: volumeDollars(m) },
  };
}

/** The spec's book with the `*_dollars` arrays the spec added on 2026-03-11 (still descending then). */
export function orderBook202603(book: SpecOrderBook): OrderBook202603 {
  return {
    yes: book.yes,
    no: book.no,
    yes_dollars: book.yes.map(([cents, size]) => [centsAsDollars(cents), size]),
    no_dollars: book.no.map(([cents, size]) => [centsAsDollars(cents), size]),
  };
}
