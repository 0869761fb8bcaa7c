import type { z } from 'zod';

import { formatIssues, readableErrorMap } from './issues.js';
import { findHostileContent } from './untrusted.js';

/** `hostile`: the record failed the content scan, so nothing else may walk it (it may be huge or deep). */
export type RecordCheck<T> = { ok: true; data: T } | { ok: false; reason: string; hostile: boolean };

export interface CheckOptions {
  /** Prepended to every path in the reason, e.g. `markets[2]`. */
  prefix?: string;
  /** What to scan for hostile content, when not the whole payload (an event's markets are scanned one by one). */
  scan?: unknown;
}

/** Validates one record: hostile-content scan first (cheap, and bounds the work), then the schema. */
export function checkRecord<S extends z.ZodType>(schema: S, payload: unknown, options: CheckOptions = {}): RecordCheck<z.output<S>> {
  const prefix = options.prefix ?? '';
  const hostile = findHostileContent('scan' in options ? options.scan : payload);
  if (hostile !== null) return { ok: false, reason: formatIssues([hostile], prefix), hostile: true };
  const result = schema.safeParse(payload);
  if (result.success) return { ok: true, data: result.data };
  // Failures are rare: parsing again with the error map costs less than passing it on every success.
  const explained = schema.safeParse(payload, { error: readableErrorMap });
  return { ok: false, reason: explained.success ? 'failed validation' : formatIssues(explained.error.issues, prefix), hostile: false };
}
