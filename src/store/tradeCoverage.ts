import { TRADE_FEED_ROWS } from '../domain/types.js';

export interface TradeAnswer {
  /** Rows of the feed's answer, readable or not. */
  rows: number;
  /** Times of the trades that could be read, Unix seconds. */
  tradedAtSec: readonly number[];
  /** Whether any of them had been stored by an earlier poll. */
  overlapsStored: boolean;
  polledAt: Date;
}

export interface TradeCoverage {
  coversFrom: Date;
  coversTo: Date;
  gapBefore: boolean;
}

/**
 * The span of time a poll of the trade feed saw whole, and whether it joined the previous poll's.
 * The feed answers its latest fills, newest first: a poll that finds a trade already stored saw
 * every trade since, and one whose answer was not full saw all the feed had. Either joins the
 * previous span. A full answer of trades all new may have missed some in between: a gap. The
 * first poll has nothing to join, so its gap_before is true. Pure.
 */
export function tradeCoverage(answer: TradeAnswer, previousCoversTo: Date | null): TradeCoverage {
  const joined = previousCoversTo !== null && (answer.overlapsStored || answer.rows < TRADE_FEED_ROWS);
  const oldestSec = answer.tradedAtSec.length === 0 ? null : Math.min(...answer.tradedAtSec);
  const coversFrom =
    joined && previousCoversTo !== null
      ? previousCoversTo
      : oldestSec === null
        ? answer.polledAt
        : new Date(Math.min(oldestSec * 1000, answer.polledAt.getTime()));
  return { coversFrom, coversTo: answer.polledAt, gapBefore: !joined };
}
