import { orderbookSnapshots } from '../../schema/index.js';
import { sqlNames } from '../core/sqlNames.js';

const { quoted } = sqlNames(orderbookSnapshots);

/**
 * The call that reads the levels of the orderbook_snapshots row `alias` as rows (level_index, side,
 * price_cents, size): prediction.book_levels, the one decoder of the stored form (0013), for a
 * `cross join lateral`.
 */
export function bookLevelsOf(alias: string): string {
  const args = [
    quoted.yesLevels,
    quoted.priceScale,
    quoted.sizeScale,
    quoted.priceUnits,
    quoted.sizeUnits,
    quoted.exactPriceCents,
    quoted.exactSizes,
  ].map((column) => `${alias}.${column}`);
  return `prediction.book_levels(${args.join(', ')})`;
}
