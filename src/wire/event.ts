import { z } from 'zod';
import { CATEGORIES } from '../domain/types.js';
import { expected } from './issues.js';
import { eventMetadataSchema, eventTextFields } from './eventMetadata.js';
import { LIMITS } from './limits.js';
import { formattedAmount, idString, shortString, text, unixSeconds, unixSecondsString } from './primitives.js';

/**
 * Spec 2.1. Tolerated drift: `series`, `winner`, `tvlDollars` absent (removed by later versions),
 * amounts as JSON numbers, `beginAt` as a number, an extra `provider` of any value, and the
 * metadata text fields at the top level. Markets are validated one by one by the caller, so one
 * bad market does not sink the event: here they are only an array of bounded length.
 */
export const eventSchema = z.object({
  eventId: idString,
  series: shortString.nullish(),
  winner: shortString.nullish(),
  multipleWinners: z.boolean(),
  isActive: z.boolean(),
  isLive: z.boolean(),
  isTrending: z.boolean().nullish(),
  isRecommended: z.boolean().nullish(),
  category: z.enum(CATEGORIES),
  subcategory: text,
  tvlDollars: formattedAmount.nullish(),
  volumeUsd: formattedAmount,
  closeCondition: text,
  beginAt: z
    .union([unixSecondsString, unixSeconds], { error: expected('Unix seconds as a string, or null') })
    .nullable(),
  rulesPdf: text,
  metadata: eventMetadataSchema.nullish(),
  markets: z.array(z.unknown()).max(LIMITS.marketsPerEvent).nullish(),
  provider: z.string().min(1).max(LIMITS.idChars).nullish(),
  ...eventTextFields,
});

export type EventWire = z.output<typeof eventSchema>;
