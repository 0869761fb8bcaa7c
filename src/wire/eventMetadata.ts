import { z } from 'zod';
import { text } from './primitives.js';

/** Spec 2.2, limited to the fields the domain stores (`raw` keeps eventId and isLive). */
export const eventTextFields = {
  title: text.nullish(),
  subtitle: text.nullish(),
  imageUrl: text.nullish(),
};

export const eventMetadataSchema = z.object(eventTextFields);

export type EventMetadataWire = z.output<typeof eventMetadataSchema>;
