import { z } from 'zod';

import { LIMITS } from './limits.js';

const count = z.int().min(0);
const label = z.string().max(LIMITS.idChars);

/**
 * One entry of GET /events/categories (OpenAPI 2026-07-05, `EventCategory`): a category, its event
 * count and its subcategories' counts. Only what a completeness check reads is required; the
 * display fields (`label`, `filterSubcategories`, `children`) are ignored.
 */
export const eventCategorySchema = z.object({
  category: label,
  eventCount: count,
  subcategories: z
    .array(z.object({ subcategory: label, eventCount: count }))
    .max(LIMITS.arrayItems)
    .optional(),
});

/** The envelope: entries stay `unknown` so that one unreadable entry spares the others. */
export const eventCategoriesEnvelopeSchema = z.object({ data: z.array(z.unknown()).max(LIMITS.arrayItems) });

export type EventCategoryWire = z.output<typeof eventCategorySchema>;
