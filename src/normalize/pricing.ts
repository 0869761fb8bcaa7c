import type { PricingWire } from '../wire/pricing.js';
import type { Decimal, Pricing } from '../domain/types.js';
import { toDecimal } from './decimal.js';

export interface NormalizedPricing {
  pricing: Pricing;
  /** True when any amount came as a string: the `pricing_as_string` drift. */
  sentAsString: boolean;
}

/** Wire names say "Usd" but the values are micro-USD (650000 = $0.65): the domain names say so. */
export function normalizePricing(wire: PricingWire): NormalizedPricing {
  const amounts = [wire.buyYesPriceUsd, wire.buyNoPriceUsd, wire.sellYesPriceUsd, wire.sellNoPriceUsd, wire.volume];
  return {
    pricing: {
      buyYesMicroUsd: decimalOrNull(wire.buyYesPriceUsd),
      buyNoMicroUsd: decimalOrNull(wire.buyNoPriceUsd),
      sellYesMicroUsd: decimalOrNull(wire.sellYesPriceUsd),
      sellNoMicroUsd: decimalOrNull(wire.sellNoPriceUsd),
      volume: decimalOrNull(wire.volume),
    },
    sentAsString: amounts.some((a) => typeof a === 'string'),
  };
}

function decimalOrNull(value: number | string | null | undefined): Decimal | null {
  return value === null || value === undefined ? null : toDecimal(value);
}
