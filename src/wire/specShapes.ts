import { z } from 'zod';

import { CATEGORIES } from '../domain/types.js';
import { centLevelSchema } from './orderBook.js';
import { idString, label, secondsNumber, storableText, text } from './primitives.js';

/**
 * The spec's shapes (docs/upstream/read-api-spec.md, section 2), exact: every key it lists and no
 * other, each value of the type it gives. The tolerant reader (event.ts, market.ts, orderBook.ts)
 * takes these and every later shape; these say what one version sent, for what plays or checks
 * that version (the simulator and its tests). Built from the reader's own primitives.
 */

/** Unix seconds as the spec sends them: whole-second JSON numbers. */
export const specSeconds = secondsNumber.int();
/** A price in micro-USD: $0 to $1. */
export const microUsdPrice = z.int().min(0).max(1_000_000);

/** `market.pricing`: micro-USD JSON numbers; `volume` in dollars. */
export const specPricingSchema = z.strictObject({
  buyYesPriceUsd: microUsdPrice,
  buyNoPriceUsd: microUsdPrice,
  sellYesPriceUsd: microUsdPrice,
  sellNoPriceUsd: microUsdPrice,
  volume: z.number().nonnegative(),
});

/** `market.metadata`: its `status` and `result` are strings whose values the spec does not list. */
export const specMarketMetadataSchema = z.strictObject({
  marketId: idString,
  isTradable: z.boolean(),
  title: storableText,
  subtitle: text,
  description: text,
  status: label,
  result: label,
  closeTime: specSeconds,
  openTime: specSeconds,
  settlementTime: specSeconds,
  rulesPrimary: text,
  rulesSecondary: text,
});

/** A market; `settlementTime` is 0 while settlement is pending. */
export const specMarketSchema = z.strictObject({
  marketId: idString,
  status: z.enum(['open', 'closed']),
  result: z.enum(['yes', 'no']).nullable(),
  openTime: specSeconds,
  closeTime: specSeconds,
  settlementTime: specSeconds,
  metadata: specMarketMetadataSchema.optional(),
  pricing: specPricingSchema.optional(),
});

export const specEventMetadataSchema = z.strictObject({
  eventId: idString,
  title: storableText,
  subtitle: text,
  imageUrl: text,
  isLive: z.boolean(),
});

/**
 * An event: `tvlDollars` formatted ("1,234.56", no currency sign), `volumeUsd` a decimal string,
 * `beginAt` a string of whole Unix seconds or null, `winner` "" while unresolved.
 */
export const specEventSchema = z.strictObject({
  eventId: idString,
  series: label,
  winner: label,
  multipleWinners: z.boolean(),
  isActive: z.boolean(),
  isLive: z.boolean(),
  isTrending: z.boolean(),
  isRecommended: z.boolean(),
  category: z.enum(CATEGORIES),
  subcategory: text,
  tvlDollars: z.string().regex(/^\d{1,3}(?:,\d{3})*(?:\.\d+)?$/),
  volumeUsd: z.string().regex(/^\d+(?:\.\d+)?$/),
  closeCondition: text,
  beginAt: z.string().regex(/^\d+$/).nullable(),
  rulesPdf: text,
  metadata: specEventMetadataSchema.optional(),
  markets: z.array(specMarketSchema).optional(),
});

/** GET /orderbook/{id}: bids, levels descending by price; the body may be null. */
export const specOrderBookSchema = z.strictObject({ yes: z.array(centLevelSchema), no: z.array(centLevelSchema) }).nullable();

export type SpecPricing = z.output<typeof specPricingSchema>;
export type SpecMarketMetadata = z.output<typeof specMarketMetadataSchema>;
export type SpecMarket = z.output<typeof specMarketSchema>;
export type SpecEventMetadata = z.output<typeof specEventMetadataSchema>;
export type SpecEvent = z.output<typeof specEventSchema>;
export type SpecOrderBook = NonNullable<z.output<typeof specOrderBookSchema>>;
