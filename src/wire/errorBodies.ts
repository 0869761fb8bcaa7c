import { z } from 'zod';

/**
 * The two error bodies the upstream sends (docs/upstream/behaviour.md), exact. The client reads
 * only their `message`, `code` and `type`, loosely (api/client/readErrorBody.ts): an error body is
 * never a record to store.
 */

/** The gateway's: 401, 429, an unknown base path. */
export const gatewayErrorBodySchema = z.strictObject({ code: z.int(), message: z.string() });

/** The service's: 400, 404, 405, 5xx. */
export const serviceErrorBodySchema = z.strictObject({
  type: z.string(),
  message: z.string(),
  code: z.string().optional(),
  param: z.string().optional(),
  request_id: z.string(),
  /** In the published ErrorResponse (OpenAPI 2026-07-02), not yet seen in an answer. */
  doc_url: z.string().optional(),
});

export type GatewayErrorBody = z.output<typeof gatewayErrorBodySchema>;
export type ServiceErrorBody = z.output<typeof serviceErrorBodySchema>;
