import {
  ApiBadRequestError,
  ApiInvalidJsonError,
  ApiNotFoundError,
  ApiResponseShapeError,
  ApiUnexpectedStatusError,
} from '../api/client/index.js';
import { writeTransaction } from '../db/writeTransaction.js';
import { recordCategoryCounts } from '../sql/writes/recordCategoryCounts.js';
import { isAbortOf } from './isAbortOf.js';
import type { SyncContext } from './SyncContext.js';

/**
 * Reads each provider's own event counts (GET /events/categories) and stores them beside the
 * run, so that `status` can set them against what the crawl listed: a category the crawl misses
 * shows as a gap. Counts are a check, not data: a provider whose counts cannot be read is noted
 * and skipped, and never fails the crawl.
 */
export async function readCategoryCounts(ctx: SyncContext): Promise<void> {
  for (const provider of ctx.providers) {
    if (ctx.signal?.aborted) return;
    try {
      const { categories, unreadable } = await ctx.client.getEventCategories({ provider });
      const observedAt = ctx.now();
      await writeTransaction(ctx.sql, ctx.fence, (tx) => recordCategoryCounts(tx, { runId: ctx.runId, provider, observedAt }, categories));
      if (unreadable > 0) ctx.totals.notice(`${provider}: ${unreadable} entries of GET /events/categories could not be read`);
    } catch (error) {
      if (isAbortOf(error, ctx.signal)) return;
      // A server without the route, or with counts in another shape; a key refused or a network
      // down fails the run as in every other phase.
      const tolerated = [ApiNotFoundError, ApiBadRequestError, ApiResponseShapeError, ApiInvalidJsonError, ApiUnexpectedStatusError];
      if (!tolerated.some((kind) => error instanceof kind)) throw error;
      ctx.totals.notice(`${provider}: event counts per category not read (${(error as Error).message})`);
    }
  }
}
