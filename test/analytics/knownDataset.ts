import type { Sql } from '../../src/db/connect.js';
import type { Market, Pricing } from '../../src/domain/types.js';
import { writeEvents } from '../../src/store/writeEvents.js';
import { writeOrderBooks } from '../../src/store/writeOrderBooks.js';
import { book, event, market, ok } from '../helpers/domainFixtures.js';

/** Minutes after 2026-01-01 00:00 UTC: every observation of the dataset happens at one of these. */
export const t = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min));
export const iso = (min: number) => t(min).toISOString();
const sec = (min: number) => t(min).getTime() / 1000;

const prices = (buyYes: string, sellYes: string | null, buyNo: string | null, sellNo: string, volume = '100'): Pricing => ({
  buyYesMicroUsd: buyYes,
  sellYesMicroUsd: sellYes,
  buyNoMicroUsd: buyNo,
  sellNoMicroUsd: sellNo,
  volume,
});

/**
 * The prices of M1 over time (micro-USD as the API sends them), and what they mean:
 *   A  from t0:   bid 0.64 ask 0.65 -> mid 0.645, spread 0.01 (confirmed at t5)
 *   B  from t10:  bid 0.68 ask 0.70 -> mid 0.69,  spread 0.02 (confirmed at t20, then unobserved until t90)
 *   C  from t90:  bid 0.58 ask 0.60 -> mid 0.59,  spread 0.02 (market closed; confirmed at t95)
 *   D  from t100: bid 0.01 ask 0.02 -> mid 0.015, spread 0.01 (result "no", settled at t98)
 * M2 never changes: its YES bid comes from 1 - buyNo (sellYes is missing): bid 0.28 ask 0.30.
 * M3 appears only at t100.
 */
export const M1_PRICES = {
  A: prices('650000', '640000', '360000', '350000'),
  B: prices('700000', '680000', '320000', '300000'),
  C: prices('600000', '580000', '420000', '400000'),
  D: prices('20000', '10000', '990000', '980000'),
};
const M2_PRICES = prices('300000', null, '720000', '690000', '5');

const M1_BASE: Partial<Market> = { closeTimeSec: sec(60) };

/** M1's state and prices at each observation of the listing (minutes); M2 rides along in every page. */
const M1_OBSERVED: [number, Partial<Market>][] = [
  [0, { pricing: M1_PRICES.A }],
  [5, { pricing: M1_PRICES.A }],
  [10, { pricing: M1_PRICES.B }],
  [20, { pricing: M1_PRICES.B }],
  // No observation between t20 and t90 (an outage).
  [90, { status: 'closed', pricing: M1_PRICES.C }],
  [95, { status: 'closed', pricing: M1_PRICES.C }],
  [100, { status: 'closed', result: 'no', settlementTimeSec: sec(98), pricing: M1_PRICES.D }],
];

/** Order books of M1: YES bids and NO bids, [price cents, size]. */
/** M1's first book, seen at t0 and unchanged at t5. */
const M1_FIRST_BOOK = book(
  'M1',
  [
    ['64', '100'],
    ['63', '50'],
    ['55', '10'],
  ],
  [
    ['35', '10'],
    ['34', '20'],
    ['20', '5'],
  ],
);

/** Order books of M1: YES bids and NO bids, [price cents, size]. */
export const M1_BOOKS: [number, ReturnType<typeof book>][] = [
  [0, M1_FIRST_BOOK],
  [5, M1_FIRST_BOOK],
  [10, book('M1', [['66', '40']], [['32', '15']])],
  [20, book('M1', [], [], true)],
];

/** Writes the dataset through the pipeline's own write path (writeEvents, writeOrderBooks). */
export async function writeKnownDataset(sql: Sql): Promise<void> {
  for (const [min, m1] of M1_OBSERVED) {
    const markets = [market('M1', { ...M1_BASE, ...m1 }), market('M2', { pricing: M2_PRICES })];
    if (min === 100) markets.push(market('M3'));
    await writeEvents(sql, { runId: null, endpoint: '/events', events: [ok(event('E1', markets))], observedAt: t(min) });
  }
  for (const [min, b] of M1_BOOKS) {
    await writeOrderBooks(sql, { runId: null, endpoint: '/orderbook/{marketId}', fetches: [{ books: [ok(b)], observedAt: t(min) }] });
  }
}

/** Numeric columns arrive as exact decimal strings; compare them as numbers. */
export const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
export const time = (value: unknown): string | null =>
  value instanceof Date ? value.toISOString() : value === null ? null : String(value);

/** A value as a test compares it: times as ISO strings, exact decimal text as a number. */
const plain = (value: unknown): unknown =>
  value instanceof Date ? value.toISOString() : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;

/** The columns a test compares, each value `plain`. */
export function pick<T extends Record<string, unknown>>(row: T | undefined, columns: readonly string[]) {
  return Object.fromEntries(columns.map((c) => [c, plain(row?.[c])]));
}

/** A row's values in the order of its columns, each `plain`: rows compared as tuples. */
export const values = (row: Record<string, unknown>): unknown[] => Object.values(row).map(plain);
