import { z } from 'zod';

import { lenient } from './lenient.js';
import { label, text, unixTime } from './primitives.js';

/** The market's text fields, read from `metadata` (spec and 2026-03 shapes) or from the top level (flat shapes). */
export const marketTextFields = {
  title: lenient(text),
  subtitle: lenient(text),
  description: lenient(text),
  rulesPrimary: lenient(text),
  rulesSecondary: lenient(text),
  isTradable: lenient(z.boolean()),
};

/**
 * The 2026-03 shape repeats status, result and the times inside `metadata`: they stand in only
 * when the top level lacks them. A time there that is not a number is read as absent, since the
 * top-level field is the one that decides.
 */
export const marketMetadataSchema = z.object({
  ...marketTextFields,
  status: lenient(label),
  result: lenient(label),
  openTime: lenient(unixTime),
  closeTime: lenient(unixTime),
});

export type MarketMetadataWire = z.output<typeof marketMetadataSchema>;
