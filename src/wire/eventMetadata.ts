import { z } from 'zod';

import { lenient } from './lenient.js';
import { label, text } from './primitives.js';

/** The event's text fields, read from `metadata` or, in flattened shapes, from the top level. */
export const eventTextFields = {
  title: lenient(text),
  subtitle: lenient(text),
  imageUrl: lenient(text),
};

/** `metadata` as the live service sends it; `series` lives only here since the top-level one was removed. */
export const eventMetadataSchema = z.object({ ...eventTextFields, series: lenient(label) });

export type EventMetadataWire = z.output<typeof eventMetadataSchema>;
