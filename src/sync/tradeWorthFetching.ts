import { TRADE_TIME_RESOLUTION_MS } from '../domain/types.js';

/**
 * A fill of the trade feed is a change of its market's book, told for the price of the poll that
 * carried it (the feed is polled anyway, for the trades). Fetched while the state the trade left
 * still holds, the book is stored before it changes again. For a book that changes as a Poisson
 * process of rate λ, the state still holds `age` after the trade with probability e^(−λ·age): a
 * quiet book fetched seconds after a trade almost surely stores that state, while a book that
 * changes every few seconds has moved on by then and is better served by its place in the plan.
 */

/**
 * Least probability that the state a trade left still holds for the trade to bring its book's
 * fetch ahead of the plan. A plan's fetch at 600 requests a minute stores about 0.3 new states
 * on average in the capture bench (C over the fetches a state: 0.8 of 3.3 states a second for 9
 * fetches a second), so a fetch that stores one with at least this probability is worth as much.
 */
export const LEAST_HOLD_PROBABILITY = 0.3;

/**
 * Whether the book of a market that traded at `tradedAtMs` is worth fetching next: the trade may
 * have come after its latest fetch (`fetchedMs`, null if never fetched: the plan fetches it first
 * anyway), and the state it left likely still holds at `nowMs` for the book's change rate. Pure.
 */
export function tradeWorthFetching(tradedAtMs: number, fetchedMs: number | null, ratePerSec: number, nowMs: number): boolean {
  if (fetchedMs === null || tradedAtMs + TRADE_TIME_RESOLUTION_MS <= fetchedMs) return false;
  return ratePerSec * Math.max(0, (nowMs - tradedAtMs) / 1000) <= -Math.log(LEAST_HOLD_PROBABILITY);
}
