import { z } from 'zod';

import { liveOrderBookSchema, livePricingSchema } from './liveShapes.js';
import { idString, storableText, text } from './primitives.js';
import { specSeconds } from './specShapes.js';

/**
 * Market and book shapes between the spec and today, exact, from the service's own doc examples
 * (docs/upstream/examples/market-detail-2026-02.json and -2026-03.json).
 */

/** Micro-USD or whole dollars as a string of digits ("650000"). */
const digits = z.string().regex(/^\d+$/);

/** 2026-02: flat, prices as strings at the top level, `result` "" while unresolved; `eventId` only on GET /markets/{id}. */
export const market202602Schema = z.strictObject({
  marketId: idString,
  eventId: idString.optional(),
  title: storableText,
  description: text,
  status: z.enum(['open', 'closed']),
  result: z.enum(['', 'yes', 'no']),
  openTime: specSeconds,
  closeTime: specSeconds,
  buyYesPriceUsd: digits,
  sellYesPriceUsd: digits,
  buyNoPriceUsd: digits,
  sellNoPriceUsd: digits,
  /** Whole dollars traded. */
  volumeUsd: digits,
  /** Contracts outstanding. */
  openInterest: digits,
  /** Whole dollars resting in the book ("0" once closed). */
  liquidityUsd: digits,
});

/**
 * 2026-03: metadata nested beside top-level status and result, `resolveAt` (Unix seconds here)
 * instead of settlementTime; pricing as today's.
 */
export const market202603Schema = z.strictObject({
  marketId: idString,
  status: z.enum(['open', 'closed']),
  result: z.enum(['yes', 'no']).nullable(),
  openTime: specSeconds,
  closeTime: specSeconds,
  resolveAt: specSeconds.nullable(),
  marketResultPubkey: z.string().nullable(),
  metadata: z.strictObject({
    marketId: idString,
    title: storableText,
    status: z.enum(['open', 'closed']),
    result: z.enum(['', 'yes', 'no']),
    closeTime: specSeconds,
    openTime: specSeconds,
    isTeamMarket: z.boolean(),
    rulesPrimary: text,
  }),
  pricing: livePricingSchema,
});

/** 2026-03 to April: today's keys (the `*_dollars` arrays entered the spec on 2026-03-11), levels still descending. */
export const orderBook202603Schema = liveOrderBookSchema;

export type Market202602 = z.output<typeof market202602Schema>;
export type Market202603 = z.output<typeof market202603Schema>;
export type OrderBook202603 = z.output<typeof orderBook202603Schema>;
