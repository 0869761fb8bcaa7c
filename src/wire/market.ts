import { z } from 'zod';
import { expected } from './issues.js';
import { marketMetadataSchema, marketTextFields } from './marketMetadata.js';
import { pricingSchema } from './pricing.js';
import { idString, isoDateTimeAsUnixSeconds, unixSeconds } from './primitives.js';

export const MARKET_STATUSES = ['open', 'closed'] as const;
/** `""` and `pending` are early-version spellings of "unresolved" (drift, tagged by normalize). */
export const WIRE_MARKET_RESULTS = ['yes', 'no', '', 'pending'] as const;

/**
 * Spec 2.3. Tolerated drift: `resolveAt` (null, ISO string or seconds) beside or instead of
 * `settlementTime`, and flattened markets carrying the metadata fields at the top level.
 */
export const marketSchema = z
  .object({
    marketId: idString,
    status: z.enum(MARKET_STATUSES),
    result: z.enum(WIRE_MARKET_RESULTS, { error: expected('one of null|yes|no') }).nullable(),
    openTime: unixSeconds,
    closeTime: unixSeconds,
    settlementTime: unixSeconds.optional(),
    resolveAt: z
      .union([unixSeconds, isoDateTimeAsUnixSeconds], { error: expected('Unix seconds or an ISO 8601 date-time') })
      .nullable()
      .optional(),
    metadata: marketMetadataSchema.nullish(),
    pricing: pricingSchema.nullish(),
    ...marketTextFields,
  })
  .superRefine((market, ctx) => {
    // Required by the spec; only its documented successor may stand in for it.
    if (market.settlementTime === undefined && market.resolveAt === undefined) {
      ctx.addIssue({ code: 'custom', path: ['settlementTime'], message: 'required', input: undefined });
    }
  });

export type MarketWire = z.output<typeof marketSchema>;
