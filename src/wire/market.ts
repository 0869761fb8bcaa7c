import { z } from 'zod';

import { lenient } from './lenient.js';
import { marketMetadataSchema, marketTextFields } from './marketMetadata.js';
import { priceFields, pricingSchema } from './pricing.js';
import { amount, idString, label, unixTime, unixTimeOrIso } from './primitives.js';

/**
 * A market in any of the service's shapes: the spec's (nested `metadata`, `settlementTime`), the
 * 2026-02 flat one (string prices, `result` ""), the 2026-03 one (metadata beside top-level fields,
 * `resolveAt`) and today's flat one (`resolveAt`, no `settlementTime`). Only the id must be
 * readable; `status` and `result` are labels stored as received ("cancelled" included). An open or
 * close time that cannot be read is stored as null and tagged; a settlement time or a price sent
 * but not a number rejects the record (the settlement time is part of the market's state, which a
 * null would change).
 */
export const marketSchema = z.object({
  marketId: idString,
  /** Only on GET /markets/{id} in today's shape: the embedding event otherwise. */
  eventId: lenient(idString),
  status: lenient(label),
  result: lenient(label),
  openTime: lenient(unixTime),
  closeTime: lenient(unixTime),
  settlementTime: unixTime.nullish(),
  resolveAt: unixTimeOrIso.nullish(),
  metadata: lenient(marketMetadataSchema),
  pricing: pricingSchema.nullish(),
  /** The 2026-02 shape: prices, and the volume as `volumeUsd`, at the top level instead of `pricing`. */
  ...priceFields,
  volumeUsd: amount.nullish(),
  /** The 2026-07 name of `isTradable`. */
  tradable: lenient(z.boolean()),
  ...marketTextFields,
});

export type MarketWire = z.output<typeof marketSchema>;
