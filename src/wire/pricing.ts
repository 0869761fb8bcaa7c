import { z } from 'zod';

import { amount } from './primitives.js';

/**
 * The four prices, micro-USD JSON numbers (numeric strings in early versions). An absent or null
 * field is a null price. A value that is not a number rejects the market; one that is a number out
 * of range is normalize's to judge (it quarantines the pricing only).
 */
export const priceFields = {
  buyYesPriceUsd: amount.nullish(),
  buyNoPriceUsd: amount.nullish(),
  sellYesPriceUsd: amount.nullish(),
  sellNoPriceUsd: amount.nullish(),
};

/** `market.pricing`. */
export const pricingSchema = z.object({ ...priceFields, volume: amount.nullish() });

export type PricingWire = z.output<typeof pricingSchema>;
