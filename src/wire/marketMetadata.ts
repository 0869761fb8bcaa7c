import { z } from 'zod';
import { text } from './primitives.js';

/**
 * Spec 2.4, limited to the fields the domain stores. The metadata copies of status, result and the
 * times are not validated: the top-level fields are authoritative, and `raw` keeps the copies.
 */
export const marketTextFields = {
  title: text.nullish(),
  subtitle: text.nullish(),
  description: text.nullish(),
  rulesPrimary: text.nullish(),
  rulesSecondary: text.nullish(),
  isTradable: z.boolean().nullish(),
};

export const marketMetadataSchema = z.object(marketTextFields);

export type MarketMetadataWire = z.output<typeof marketMetadataSchema>;
