import type { Decimal, DriftTag, OrderBook, OrderBookLevel, RecordShape } from '../domain/types.js';
import { type OrderBookWire, readCentLevel, readDollarLevel, type WireLevel } from '../wire/orderBook.js';
import { addDecimals, shiftDecimal, toDecimal } from './decimal.js';
import { DRIFT, missingTag } from './driftTags.js';
import { fieldReader } from './fieldReader.js';

export interface OrderBookContext {
  /** The requested market: the book body carries no id. */
  marketId: string;
  shape: RecordShape;
}

/** A null body is an observation ("no book"), kept with empty sides. */
export function normalizeOrderBook(wire: OrderBookWire, ctx: OrderBookContext): OrderBook {
  const base = { marketId: ctx.marketId, shape: ctx.shape };
  if (wire === null) return { ...base, isNull: true, yes: [], no: [], drift: [] };
  const tags: DriftTag[] = [];
  const read = fieldReader(tags);
  const sides = {
    yes: read.optional('yes', wire.yes),
    no: read.optional('no', wire.no),
    yesDollars: read.optional('yes_dollars', wire.yes_dollars),
    noDollars: read.optional('no_dollars', wire.no_dollars),
  };
  const drift = new Set<DriftTag>(tags);
  // A side sent in neither unit reads as empty: say so, for it may not be.
  if (wire.yes === undefined && wire.yes_dollars === undefined) drift.add(missingTag('yes'));
  if (wire.no === undefined && wire.no_dollars === undefined) drift.add(missingTag('no'));
  if (sides.yesDollars !== null || sides.noDollars !== null) drift.add(DRIFT.orderBookDollars);
  const yes = readSide(sides.yes, sides.yesDollars, drift);
  const no = readSide(sides.no, sides.noDollars, drift);
  return { ...base, isNull: false, yes, no, drift: [...drift] };
}

/**
 * One side, best (highest) price first. The dollar array gives the exact price when sent; the
 * cent array (prices rounded to whole cents) is the fallback. Levels arrive in either order and
 * unmerged: levels at one exact price become one level with the sizes summed, and a level that
 * cannot be read is dropped (tagged), never a reason to lose the book.
 */
function readSide(cents: readonly unknown[] | null, dollars: readonly unknown[] | null, drift: Set<DriftTag>): OrderBookLevel[] {
  const useDollars = dollars !== null;
  if (useDollars && cents !== null && cents.length !== dollars.length) drift.add(DRIFT.orderBookDollarsMismatch);
  const source = (useDollars ? dollars : cents) ?? [];
  const sizeByPrice = new Map<Decimal, Decimal>();
  let previous: number | null = null;
  for (const raw of source) {
    const level: WireLevel | null = useDollars ? readDollarLevel(raw) : readCentLevel(raw);
    if (level === null) {
      drift.add(DRIFT.orderBookLevelDropped);
      continue;
    }
    const priceCents = useDollars ? shiftDecimal(toDecimal(level.price), 2) : toDecimal(level.price);
    const size = toDecimal(level.size);
    const price = Number(priceCents);
    if (previous !== null && price > previous) drift.add(DRIFT.orderBookAscending);
    previous = price;
    const merged = sizeByPrice.get(priceCents);
    if (merged !== undefined) drift.add(DRIFT.orderBookMergedLevels);
    sizeByPrice.set(priceCents, merged === undefined ? size : addDecimals(merged, size));
  }
  return [...sizeByPrice].map(([priceCents, size]) => ({ priceCents, size })).sort((a, b) => Number(b.priceCents) - Number(a.priceCents));
}
