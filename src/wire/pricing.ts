import { z } from 'zod';
import { amount } from './primitives.js';

/**
 * Spec 2.5: micro-USD JSON numbers. Numeric strings (older versions) are accepted here and tagged
 * by normalize. The table marks no field required, so an absent or null field is a null price.
 */
export const pricingSchema = z.object({
  buyYesPriceUsd: amount.nullish(),
  buyNoPriceUsd: amount.nullish(),
  sellYesPriceUsd: amount.nullish(),
  sellNoPriceUsd: amount.nullish(),
  volume: amount.nullish(),
});

export type PricingWire = z.output<typeof pricingSchema>;
