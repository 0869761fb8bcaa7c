import { z } from 'zod';

import { LIMITS } from './limits.js';
import { paginationSchema } from './pagination.js';

/** Records stay `unknown` here: each is validated on its own so that one bad record spares its siblings. */
const records = z.array(z.unknown()).max(LIMITS.recordsPerPage);

/** GET /events and GET /events/{id}/markets: paging continues from `pagination`, so it is required. */
export const listEnvelopeSchema = z.object({ data: records, pagination: paginationSchema });

/**
 * GET /events/closed: a list, plus `timestamp`, when the answer was generated (an ISO string in the
 * OpenAPI of 2026-07-05). Optional here: without it the reader falls back on its own clock.
 */
export const closedListEnvelopeSchema = listEnvelopeSchema.extend({ timestamp: z.unknown().optional() });

/**
 * GET /events/search and GET /events/suggested/{pubkey}: `data` is what counts. Search also sends a
 * `pagination` and more events than its `limit` asked for; suggested sends none.
 */
export const dataEnvelopeSchema = z.object({ data: records });

export type ClosedListEnvelope = z.output<typeof closedListEnvelopeSchema>;
export type ListEnvelope = z.output<typeof listEnvelopeSchema>;
export type DataEnvelope = z.output<typeof dataEnvelopeSchema>;
