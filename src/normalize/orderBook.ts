import type { OrderBookLevelWire, OrderBookWire } from '../wire/orderBook.js';
import type { DriftTag, OrderBook, OrderBookLevel } from '../domain/types.js';
import { decimalFromNumber } from './decimal.js';
import { DRIFT } from './driftTags.js';
import { isAbsent } from './isAbsent.js';

export interface OrderBookContext {
  /** The requested market: the book body carries no id. */
  marketId: string;
}

/** A null body is an observation ("no book"), kept with empty sides. */
export function normalizeOrderBook(wire: OrderBookWire, ctx: OrderBookContext): OrderBook {
  const drift: DriftTag[] = [];
  if (wire === null) return { marketId: ctx.marketId, isNull: true, yes: [], no: [], drift };

  if (!isAbsent(wire.yes_dollars) || !isAbsent(wire.no_dollars)) drift.push(DRIFT.orderBookDollars);
  const yes = bestFirst(wire.yes);
  const no = bestFirst(wire.no);
  if (yes.wasAscending || no.wasAscending) drift.push(DRIFT.orderBookAscending);

  return { marketId: ctx.marketId, isNull: false, yes: yes.levels, no: no.levels, drift };
}

/**
 * The schema guarantees strictly monotonic prices, so one comparison of the ends tells the order;
 * a single level is already in order whatever the sender's convention.
 */
function bestFirst(side: readonly OrderBookLevelWire[]): { levels: OrderBookLevel[]; wasAscending: boolean } {
  const levels = side.map(([price, size]) => ({ priceCents: decimalFromNumber(price), size: decimalFromNumber(size) }));
  const first = side[0];
  const last = side[side.length - 1];
  const wasAscending = first !== undefined && last !== undefined && first[0] < last[0];
  if (wasAscending) levels.reverse();
  return { levels, wasAscending };
}
