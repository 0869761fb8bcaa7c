import { describe, expect, it } from 'vitest';

import { decimalFromString } from '../../src/normalize/decimal.js';
import { mulberry32 } from '../../src/simulator/world/prng.js';
import { storedLevels } from '../../src/sql/writes/storedLevels.js';
import { useTestDatabase } from '../helpers/testDatabase.js';

// The writer encodes levels in TypeScript; the rows it migrated were encoded by the database's
// prediction.encode_levels, and prediction.book_levels decodes both. They must agree on every book.

const db = await useTestDatabase();
const random = mulberry32(20261125);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** A canonical decimal with `integer` integer digits at most and `decimals` fraction digits at most. */
function decimal(integer: number, decimals: number): string {
  const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
  const whole = digits(1 + Math.floor(random() * integer));
  const fraction = digits(Math.floor(random() * (decimals + 1)));
  return decimalFromString(fraction === '' ? whole : `${whole}.${fraction}`);
}

function randomBook() {
  // Mostly ordinary books; some with values at or past what 32-bit units hold.
  const [priceInt, priceDec, sizeInt, sizeDec] = pick([
    [2, 2, 6, 2],
    [2, 4, 4, 0],
    [3, 1, 8, 2],
    [2, 10, 3, 3],
    [2, 2, 11, 1],
  ] as const);
  const side = () =>
    Array.from({ length: Math.floor(random() * 6) }, () => ({ priceCents: decimal(priceInt, priceDec), size: decimal(sizeInt, sizeDec) }));
  return { yes: side(), no: side() };
}

describe('storedLevels', () => {
  it('encodes every book as prediction.encode_levels does', async () => {
    // At the edges: scale 9 and 10, and 2^31 - 1 and 2^31 units, for prices and for sizes.
    const edges = [
      ['2.147483647', '1'],
      ['2.147483648', '1'],
      ['0.0000000001', '1'],
      ['50', '21474836.47'],
      ['50', '21474836.48'],
      ['50', '0.000000001'],
    ].map(([priceCents, size]) => ({ yes: [{ priceCents: priceCents!, size: size! }], no: [] }));
    const books = [...edges, ...Array.from({ length: 400 }, randomBook)];
    let exact = 0;
    for (const book of books) {
      const levels = [...book.yes, ...book.no];
      const [row] = await db.sql<
        {
          price_scale: number | null;
          size_scale: number | null;
          price_units: number[] | null;
          size_units: number[] | null;
          exact_price_cents: string[] | null;
          exact_sizes: string[] | null;
        }[]
      >`select price_scale, size_scale, price_units, size_units, exact_price_cents::text[], exact_sizes::text[]
        from prediction.encode_levels(${levels.map((l) => l.priceCents)}::numeric[], ${levels.map((l) => l.size)}::numeric[])`;
      const stored = storedLevels(book);
      expect(stored, JSON.stringify(book)).toEqual({
        priceScale: row!.price_scale,
        sizeScale: row!.size_scale,
        priceUnits: row!.price_units,
        sizeUnits: row!.size_units,
        exactPriceCents: row!.exact_price_cents,
        exactSizes: row!.exact_sizes,
      });
      if (stored.exactPriceCents !== null) exact++;
    }
    // Both forms were exercised.
    expect(exact).toBeGreaterThan(20);
    expect(exact).toBeLessThan(books.length - 20);
  });
});
