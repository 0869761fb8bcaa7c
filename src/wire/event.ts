import { z } from 'zod';
import { eventMetadataSchema, eventTextFields } from './eventMetadata.js';
import { lenient } from './lenient.js';
import { LIMITS } from './limits.js';
import { formattedAmount, idString, label, text, unixTime } from './primitives.js';

/**
 * An event as any version of the service has sent it. Only the id must be readable; every other
 * field may be absent (the live service no longer sends `multipleWinners`, `series`, `winner`,
 * `isTrending`, `isRecommended` or `tvlDollars`), and enum-like values are labels stored as
 * received (`category` "climate & science", `provider` "bisonfi"). A time or amount that is sent
 * but is not a number rejects the record. Markets are validated one by one by the caller, so one
 * bad market does not sink the event: here they are only an array of bounded length.
 */
export const eventSchema = z.object({
  eventId: idString,
  series: lenient(label),
  winner: lenient(label),
  multipleWinners: lenient(z.boolean()),
  isActive: lenient(z.boolean()),
  isLive: lenient(z.boolean()),
  isTrending: lenient(z.boolean()),
  isRecommended: lenient(z.boolean()),
  category: lenient(label),
  subcategory: lenient(text),
  tvlDollars: formattedAmount.nullish(),
  volumeUsd: formattedAmount.nullish(),
  closeCondition: lenient(text),
  beginAt: unixTime.nullish(),
  rulesPdf: lenient(text),
  metadata: lenient(eventMetadataSchema),
  markets: z.array(z.unknown()).max(LIMITS.marketsPerEvent).nullish(),
  provider: lenient(label),
  ...eventTextFields,
});

export type EventWire = z.output<typeof eventSchema>;
