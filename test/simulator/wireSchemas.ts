/** The spec's shapes (sections 2.1-2.7), strict: what the simulator must emit with no fault on. */
import { z } from 'zod';

const unixSec = z.number().int().nonnegative();
const microUsd = z.number().int().min(0).max(1_000_000);

export const marketSchema = z.strictObject({
  marketId: z.string().min(1),
  status: z.enum(['open', 'closed']),
  result: z.enum(['yes', 'no']).nullable(),
  openTime: unixSec,
  closeTime: unixSec,
  settlementTime: unixSec,
  metadata: z.strictObject({
    marketId: z.string(),
    isTradable: z.boolean(),
    title: z.string().regex(/^[^\u0000]*$/),
    subtitle: z.string(),
    description: z.string(),
    status: z.string(),
    result: z.string(),
    closeTime: unixSec,
    openTime: unixSec,
    settlementTime: unixSec,
    rulesPrimary: z.string(),
    rulesSecondary: z.string(),
  }),
  pricing: z.strictObject({
    buyYesPriceUsd: microUsd,
    buyNoPriceUsd: microUsd,
    sellYesPriceUsd: microUsd,
    sellNoPriceUsd: microUsd,
    volume: z.number().nonnegative(),
  }),
});

export const eventSchema = z.strictObject({
  eventId: z.string().min(1),
  series: z.string(),
  winner: z.string(),
  multipleWinners: z.boolean(),
  isActive: z.boolean(),
  isLive: z.boolean(),
  isTrending: z.boolean(),
  isRecommended: z.boolean(),
  category: z.enum(['all', 'crypto', 'sports', 'politics', 'esports', 'culture', 'economics', 'tech']),
  subcategory: z.string(),
  tvlDollars: z.string().regex(/^\d{1,3}(,\d{3})*\.\d{2}$/),
  volumeUsd: z.string().regex(/^\d+\.\d{2}$/),
  closeCondition: z.string(),
  beginAt: z.string().regex(/^\d+$/).nullable(),
  rulesPdf: z.string(),
  metadata: z.strictObject({ eventId: z.string(), title: z.string().regex(/^[^\u0000]*$/), subtitle: z.string(), imageUrl: z.string(), isLive: z.boolean() }),
  markets: z.array(marketSchema).optional(),
});

export const paginationSchema = z.strictObject({ start: z.number().int(), end: z.number().int(), total: z.number().int(), hasNext: z.boolean() });

const level = z.tuple([z.number().int().min(1).max(99), z.number().positive()]);
export const orderBookSchema = z.strictObject({ yes: z.array(level), no: z.array(level) }).nullable();

export const serviceErrorSchema = z.strictObject({
  type: z.string(),
  message: z.string(),
  code: z.string().optional(),
  param: z.string().optional(),
  request_id: z.string(),
});
export const gatewayErrorSchema = z.strictObject({ code: z.number(), message: z.string() });
