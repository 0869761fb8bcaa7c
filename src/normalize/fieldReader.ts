import type { DriftTag } from '../domain/types.js';
import { Unreadable } from '../wire/lenient.js';
import { missingTag, unreadableTag } from './driftTags.js';

/**
 * Reads the lenient fields of one record into plain values, tagging what deviates: a field sent
 * with an unusable type reads as null (`unreadable_<field>`); a field the spec requires and the
 * record lacks reads as null too (`missing_<field>`).
 */
export function fieldReader(drift: DriftTag[]) {
  function optional<T>(field: string, value: T | Unreadable | null | undefined): T | null {
    if (value instanceof Unreadable) {
      drift.push(unreadableTag(field));
      return null;
    }
    return value ?? null;
  }
  return {
    optional,
    required<T>(field: string, value: T | Unreadable | null | undefined): T | null {
      if (value === undefined) drift.push(missingTag(field));
      return optional(field, value);
    },
  };
}
