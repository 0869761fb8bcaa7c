import type { Decimal, OrderBook } from '../../domain/types.js';

/**
 * A book's levels as orderbook_snapshots stores them (migration 0013): YES bids best first, then NO
 * bids best first, as integers in units of 10^-scale with the smallest scale that keeps every value
 * exact, or as the decimals themselves when one needs more than 9 decimals or 32 bits. The same
 * rule as the database's prediction.encode_levels, which migrated the old rows and which
 * test/sql/storedLevels.test.ts holds this to; prediction.book_levels reads either form back.
 */
export interface StoredLevels {
  priceScale: number | null;
  sizeScale: number | null;
  priceUnits: number[] | null;
  sizeUnits: number[] | null;
  exactPriceCents: Decimal[] | null;
  exactSizes: Decimal[] | null;
}

const MAX_SCALE = 9;
const MAX_UNITS = 2_147_483_647;

/** The stored form of a book's levels. Pure. */
export function storedLevels(book: Pick<OrderBook, 'yes' | 'no'>): StoredLevels {
  const levels = book.yes.length === 0 ? book.no : book.no.length === 0 ? book.yes : [...book.yes, ...book.no];
  let priceScale = 0;
  let sizeScale = 0;
  for (const level of levels) {
    priceScale = Math.max(priceScale, decimalsOf(level.priceCents));
    sizeScale = Math.max(sizeScale, decimalsOf(level.size));
  }
  const priceUnits: number[] = [];
  const sizeUnits: number[] = [];
  let fits = priceScale <= MAX_SCALE && sizeScale <= MAX_SCALE;
  for (let i = 0; fits && i < levels.length; i++) {
    const price = unitsOf(levels[i]!.priceCents, priceScale);
    const size = unitsOf(levels[i]!.size, sizeScale);
    fits = price !== null && size !== null;
    priceUnits.push(price!);
    sizeUnits.push(size!);
  }
  if (!fits) {
    const exactPriceCents = levels.map((l) => l.priceCents);
    const exactSizes = levels.map((l) => l.size);
    return { priceScale: null, sizeScale: null, priceUnits: null, sizeUnits: null, exactPriceCents, exactSizes };
  }
  return { priceScale, sizeScale, priceUnits, sizeUnits, exactPriceCents: null, exactSizes: null };
}

const POWERS_OF_TEN = Array.from({ length: MAX_SCALE + 1 }, (_, k) => 10 ** k);

/** Digits after the point of a canonical decimal (no trailing zeros). */
function decimalsOf(value: Decimal): number {
  const point = value.indexOf('.');
  return point === -1 ? 0 : value.length - point - 1;
}

/**
 * value × 10^scale (scale at least its decimals, at most MAX_SCALE), or null past 32 bits. Exact: a
 * number of up to 2^53 holds its digits, and its product with a power of ten up to 2^31 is exact;
 * longer digit strings are larger than 2^31 anyway.
 */
function unitsOf(value: Decimal, scale: number): number | null {
  const point = value.indexOf('.');
  const digits = point === -1 ? value : value.slice(0, point) + value.slice(point + 1);
  const unit = Number(digits) * POWERS_OF_TEN[scale - decimalsOf(value)]!;
  return Math.abs(unit) <= MAX_UNITS ? unit : null;
}
