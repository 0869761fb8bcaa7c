import {
  AMOUNT_FRACTION_DIGITS,
  AMOUNT_INTEGER_DIGITS,
  type Decimal,
  type DriftTag,
  type Pricing,
  type Rejection,
} from '../domain/types.js';
import type { MarketWire } from '../wire/market.js';
import type { PricingWire } from '../wire/pricing.js';
import { recordShape } from '../wire/recordShape.js';
import { fitsAmount, toDecimal } from './decimal.js';
import { DRIFT } from './driftTags.js';

/** A contract pays $1: no price can be above 1,000,000 micro-USD, nor below 0. */
export const MAX_PRICE_MICRO_USD = 1_000_000;

const PRICE_KEYS = ['buyYesPriceUsd', 'buyNoPriceUsd', 'sellYesPriceUsd', 'sellNoPriceUsd'] as const;

export interface PricingContext {
  marketId: string;
  status: string | null;
  drift: DriftTag[];
}

export interface NormalizedPricing {
  pricing: Pricing | null;
  /** Set when the prices could be read but not believed: the pricing is quarantined, the market kept. */
  rejection: Rejection | null;
}

/**
 * Wire names say "Usd" but the values are micro-USD (650000 = $0.65): the domain names say so.
 * Prices come from `pricing`, or from the top level in the 2026-02 shape (volume as `volumeUsd`).
 */
export function normalizePricing(market: MarketWire, ctx: PricingContext): NormalizedPricing {
  const wire = market.pricing ?? topLevelPricing(market);
  if (wire === null) return { pricing: null, rejection: null };
  if (market.pricing === undefined || market.pricing === null) ctx.drift.push(DRIFT.pricesAtTopLevel);
  const amounts = [...PRICE_KEYS.map((k) => wire[k]), wire.volume];
  if (amounts.some((a) => typeof a === 'string')) ctx.drift.push(DRIFT.pricingAsString);

  const volumeFits =
    inRange(wire.volume, Infinity) && (wire.volume === null || wire.volume === undefined || fitsAmount(toDecimal(wire.volume)));
  const outOfRange = PRICE_KEYS.find((k) => !inRange(wire[k], MAX_PRICE_MICRO_USD)) ?? (volumeFits ? null : 'volume');
  if (outOfRange) {
    ctx.drift.push(DRIFT.pricingOutOfRange);
    const bound =
      outOfRange === 'volume'
        ? `>= 0, below 10^${AMOUNT_INTEGER_DIGITS} with at most ${AMOUNT_FRACTION_DIGITS} decimals`
        : `within 0..${MAX_PRICE_MICRO_USD} micro-USD`;
    return {
      pricing: null,
      rejection: {
        entityId: ctx.marketId,
        reason: `pricing.${outOfRange}: must be ${bound}, got ${String(wire[outOfRange])}`,
        payload: wire,
        shape: recordShape(wire, 'pricing'),
      },
    };
  }

  const prices = PRICE_KEYS.map((k) => decimalOrNull(wire[k]));
  // A market that stopped trading quotes 0 everywhere: "no quote", which candles and as-of lookups must not read as $0.
  if (ctx.status !== null && ctx.status !== 'open' && !prices.some((p) => p !== '0')) {
    ctx.drift.push(DRIFT.noQuoteZeroPrices);
    prices.fill(null);
  }
  const [buyYes, buyNo, sellYes, sellNo] = prices as [Decimal | null, Decimal | null, Decimal | null, Decimal | null];
  return {
    pricing: {
      buyYesMicroUsd: buyYes,
      buyNoMicroUsd: buyNo,
      sellYesMicroUsd: sellYes,
      sellNoMicroUsd: sellNo,
      volume: decimalOrNull(wire.volume),
    },
    rejection: null,
  };
}

function topLevelPricing(market: MarketWire): PricingWire | null {
  const sent = PRICE_KEYS.some((k) => market[k] !== undefined && market[k] !== null);
  if (!sent) return null;
  return {
    buyYesPriceUsd: market.buyYesPriceUsd,
    buyNoPriceUsd: market.buyNoPriceUsd,
    sellYesPriceUsd: market.sellYesPriceUsd,
    sellNoPriceUsd: market.sellNoPriceUsd,
    volume: market.volumeUsd,
  };
}

/** Validated amounts are plain decimals, so Number() is exact enough for a range test. */
function inRange(value: number | string | null | undefined, max: number): boolean {
  if (value === null || value === undefined) return true;
  const n = Number(value);
  return n >= 0 && n <= max;
}

function decimalOrNull(value: number | string | null | undefined): Decimal | null {
  return value === null || value === undefined ? null : toDecimal(value);
}
