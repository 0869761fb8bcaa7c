import { z } from 'zod';

import { lenient } from './lenient.js';
import { LIMITS } from './limits.js';
import { PLAIN_DECIMAL } from './primitives.js';

/**
 * One side as sent: levels are read one by one (readCentLevel / readDollarLevel), never as a whole.
 * A side that is not an array reads as absent (an empty side, or the cent fallback), tagged.
 */
const side = lenient(z.array(z.unknown()).max(LIMITS.levelsPerSide));

/**
 * GET /orderbook/{id}: an object or null. `yes`/`no` are `[price_cents, size]` bids; since 2026-03
 * `yes_dollars`/`no_dollars` repeat them with the exact price as a 4-decimal dollar string. Levels
 * come in either order and unmerged (cent prices are rounded, so they repeat): nothing about a
 * level rejects the book. Only a body that is neither an object nor null does.
 */
export const orderBookSchema = z.object({ yes: side, no: side, yes_dollars: side, no_dollars: side }).nullable();

export type OrderBookWire = z.output<typeof orderBookSchema>;

/** A level's price as sent, as decimal text in its unit, and its size as a number or decimal text. */
export interface WireLevel {
  price: number | string;
  size: number | string;
}

const isDecimalText = (v: unknown): v is string => typeof v === 'string' && v.length <= LIMITS.decimalChars && PLAIN_DECIMAL.test(v);

function readSize(v: unknown): number | string | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  return isDecimalText(v) ? v : null;
}

function readPair(level: unknown, maxPrice: number, price: (v: unknown) => number | string | null): WireLevel | null {
  if (!Array.isArray(level) || level.length < 2) return null;
  const p = price(level[0]);
  const size = readSize(level[1]);
  if (p === null || size === null) return null;
  const n = Number(p);
  return n >= 0 && n <= maxPrice ? { price: p, size } : null;
}

/** `[cents, size]` with 0 <= cents <= 100; null when the level cannot be read (normalize drops it). */
export function readCentLevel(level: unknown): WireLevel | null {
  return readPair(level, 100, (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null));
}

/** `["0.9950", size]` with 0 <= dollars <= 1 (a number is accepted too); null when unreadable. */
export function readDollarLevel(level: unknown): WireLevel | null {
  return readPair(level, 1, (v) => (typeof v === 'number' && Number.isFinite(v) ? v : isDecimalText(v) ? v : null));
}

/**
 * A cent level exactly as the service sends it: `[price_cents, size]`, whole cents 0..100 (the
 * cent arrays round the price), a size above zero that may have decimals (659518.58).
 */
export const centLevelSchema = z.tuple([z.int().min(0).max(100), z.number().positive()]);

/** A dollar level exactly as sent since 2026-03: `["0.9950", size]`, the price as 4-decimal dollars. */
export const dollarLevelSchema = z.tuple([z.string().regex(/^[01]\.\d{4}$/), z.number().positive()]);

export type CentLevel = z.output<typeof centLevelSchema>;
export type DollarLevel = z.output<typeof dollarLevelSchema>;
