import { z } from 'zod';

import { eventMetadataSchema, eventTextFields } from './eventMetadata.js';
import { lenient } from './lenient.js';
import { LIMITS } from './limits.js';
import { formattedAmount, idString, label, text, unixTime } from './primitives.js';

/**
 * An event as any version of the service has sent it. Only the id must be readable; every other
 * field may be absent (the live service no longer sends `multipleWinners`, `series`, `winner`,
 * `isTrending`, `isRecommended` or `tvlDollars`), and enum-like values are labels stored as
 * received (`category` "climate & science", `provider` "bisonfi"). An amount or a time that cannot
 * be read (an empty string, a negative value, an exponent, milliseconds) is stored as null and
 * tagged: none is the event's state, and the event and its markets are still sound. Markets are
 * validated one by one by the caller, so one bad market does not sink the event: here they are
 * only an array of bounded length.
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
  tvlDollars: lenient(formattedAmount),
  volumeUsd: lenient(formattedAmount),
  closeCondition: lenient(text),
  beginAt: lenient(unixTime),
  rulesPdf: lenient(text),
  metadata: lenient(eventMetadataSchema),
  markets: z.array(z.unknown()).max(LIMITS.marketsPerEvent).nullish(),
  provider: lenient(label),
  ...eventTextFields,
});

export type EventWire = z.output<typeof eventSchema>;
