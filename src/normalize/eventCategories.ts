import type { CategoryCount } from '../domain/types.js';
import type { EventCategoryWire } from '../wire/eventCategories.js';

/** Copies the counts a completeness check reads; display fields stay behind. */
export function normalizeCategoryCount(wire: EventCategoryWire): CategoryCount {
  return {
    category: wire.category,
    eventCount: wire.eventCount,
    subcategories: (wire.subcategories ?? []).map((s) => ({ subcategory: s.subcategory, eventCount: s.eventCount })),
  };
}
