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
  metadata: z.strictObject({
    eventId: z.string(),
    title: z.string().regex(/^[^\u0000]*$/),
    subtitle: z.string(),
    imageUrl: z.string(),
    isLive: z.boolean(),
  }),
  markets: z.array(marketSchema).optional(),
});

export const paginationSchema = z.strictObject({
  start: z.number().int(),
  end: z.number().int(),
  total: z.number().int(),
  hasNext: z.boolean(),
});

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

// ---- Today's live shapes (docs/upstream/live-service.md), strict: what the 'live' profile must emit. ----

const noNul = z.string().regex(/^[^\u0000]*$/);
const isoMs = z.iso.datetime({ precision: 3 });
const microUsdText = z.string().regex(/^\d+$/);

export const livePricingSchema = z.strictObject({
  buyYesPriceUsd: microUsd,
  buyNoPriceUsd: microUsd,
  sellYesPriceUsd: microUsd,
  sellNoPriceUsd: microUsd,
  /** Whole dollars. */
  volume: z.number().int().nonnegative(),
});

export const liveMarketSchema = z.strictObject({
  provider: z.string().min(1),
  marketId: z.string().min(1),
  eventId: z.string().min(1).optional(),
  status: z.enum(['open', 'closed']),
  result: z.enum(['yes', 'no']).nullable(),
  marketResultPubkey: z
    .string()
    .regex(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/)
    .nullable(),
  title: noNul,
  openTime: unixSec,
  closeTime: unixSec,
  isTeamMarket: z.boolean(),
  rulesPrimary: z.string(),
  rulesSecondary: z.string(),
  resolveAt: isoMs.nullable(),
  pricing: livePricingSchema,
  imageUrl: z.string().nullable(),
  team: z.null(),
  outcomes: z.tuple([z.literal('Yes'), z.literal('No')]),
  clobTokenIds: z.tuple([z.string().regex(/^\d{20,78}$/), z.string().regex(/^\d{20,78}$/)]),
  marketOptions: z.array(z.strictObject({ label: z.string(), buyYes: microUsd })),
  sportsMarketType: z.string().nullable(),
  sportsLine: z.number().nullable(),
  gameNumber: z.null(),
});

export const liveEventSchema = z.strictObject({
  eventId: z.string().min(1),
  provider: z.string().min(1),
  isActive: z.boolean(),
  isLive: z.boolean(),
  category: z.string().min(1),
  subcategory: z.string(),
  tags: z.array(z.string()),
  metadata: z.strictObject({
    slug: z.string().regex(/^[a-z0-9-]+$/),
    title: noNul,
    isLive: z.boolean(),
    series: z.string(),
    eventId: z.string(),
    imageUrl: z.string(),
    subtitle: z.string(),
    closeTime: isoMs,
  }),
  volumeUsd: microUsdText,
  volume24hr: microUsdText,
  beginAt: z
    .string()
    .regex(/^\d+(\.\d{1,3})?$/)
    .nullable(),
  closeCondition: z.string(),
  rulesPdf: z.literal(''),
  markets: z.array(liveMarketSchema).optional(),
  sportsMarketGroups: z.tuple([]),
});

const liveLevel = z.tuple([z.number().int().min(0).max(100), z.number().positive()]);
const dollarLevel = z.tuple([z.string().regex(/^[01]\.\d{4}$/), z.number().positive()]);
export const liveOrderBookSchema = z.strictObject({
  yes: z.array(liveLevel),
  no: z.array(liveLevel),
  yes_dollars: z.array(dollarLevel),
  no_dollars: z.array(dollarLevel),
});

// ---- The doc-example shapes between the spec and today (docs/upstream/examples). ----

const priceText = z.string().regex(/^\d+$/);
export const market202602Schema = z.strictObject({
  marketId: z.string().min(1),
  eventId: z.string().min(1).optional(),
  title: noNul,
  description: z.string(),
  status: z.enum(['open', 'closed']),
  result: z.enum(['', 'yes', 'no']),
  openTime: unixSec,
  closeTime: unixSec,
  buyYesPriceUsd: priceText,
  sellYesPriceUsd: priceText,
  buyNoPriceUsd: priceText,
  sellNoPriceUsd: priceText,
  volumeUsd: priceText,
  openInterest: priceText,
  liquidityUsd: priceText,
});

export const market202603Schema = z.strictObject({
  marketId: z.string().min(1),
  status: z.enum(['open', 'closed']),
  result: z.enum(['yes', 'no']).nullable(),
  openTime: unixSec,
  closeTime: unixSec,
  resolveAt: unixSec.nullable(),
  marketResultPubkey: z.string().nullable(),
  metadata: z.strictObject({
    marketId: z.string(),
    title: noNul,
    status: z.enum(['open', 'closed']),
    result: z.enum(['', 'yes', 'no']),
    closeTime: unixSec,
    openTime: unixSec,
    isTeamMarket: z.boolean(),
    rulesPrimary: z.string(),
  }),
  pricing: livePricingSchema,
});

const centLevel = z.tuple([z.number().int().min(1).max(99), z.number().positive()]);
export const orderBook202603Schema = z.strictObject({
  yes: z.array(centLevel),
  no: z.array(centLevel),
  yes_dollars: z.array(dollarLevel),
  no_dollars: z.array(dollarLevel),
});
