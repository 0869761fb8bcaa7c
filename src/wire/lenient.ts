import { z } from 'zod';

/**
 * A field sent with a type we cannot use (a title that is a number, a boolean that is a string).
 * Only fields we can do without are read this way: the record is kept, the field is stored as
 * null, `raw` keeps what was sent, and normalize tags the drift.
 */
export class Unreadable {
  constructor(readonly input: unknown) {}
}

/**
 * Tolerant reading of an optional field: absent, null, the expected type, or `Unreadable`. Never
 * fails, so an unfamiliar shape of a field never costs us its record.
 */
export function lenient<S extends z.ZodType>(schema: S) {
  return z.union([schema.nullish(), z.unknown().transform((input) => new Unreadable(input))]);
}
