import { lastCompleteCrawlStart } from '../sql/selectSyncTargets.js';
import { crawlListings } from '../sync/crawlListings.js';
import { fetchEventMarkets, refreshStaleEvents, refreshStaleMarkets } from '../sync/refreshDetails.js';
import { SYNC_JOB } from '../sync/runSyncCycle.js';
import type { SyncContext } from '../sync/SyncContext.js';
import { sweepOrderBooks } from '../sync/sweepOrderBooks.js';

/** The service's jobs, in request priority order: the crawl is never starved by the others. */
export const JOB_NAMES = ['crawl', 'details', 'orderbooks'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/** p-queue priority of each job's requests (higher goes first). */
export const JOB_PRIORITY: Record<JobName, number> = { crawl: 30, details: 20, orderbooks: 10 };

export interface JobSettings {
  orderBookMaxAgeSec: number;
  maxRejectedPercent: number;
}

/** Jobs whose every run must receive records: a crawl that lists nothing read its upstream wrong. */
export const JOB_EXPECTS_RECORDS: Record<JobName, boolean> = { crawl: true, details: false, orderbooks: false };

/** What one execution of a job does; `deadline` is when the next tick of the same job is due. */
export function jobWork(job: JobName, settings: JobSettings): (ctx: SyncContext, deadline: Date) => Promise<void> {
  switch (job) {
    case 'crawl':
      return async (ctx) => {
        const missing = await crawlListings(ctx);
        await fetchEventMarkets(ctx, missing);
      };
    case 'details':
      return async (ctx) => {
        // What the latest complete crawl did not see has left the listings; before any crawl completed, nothing has.
        const seenSince = await lastCompleteCrawlStart(ctx.sql, ['crawl', SYNC_JOB]);
        if (seenSince) {
          await refreshStaleEvents(ctx, seenSince);
          await refreshStaleMarkets(ctx, seenSince, { aheadSec: 600, behindSec: 3600 });
        }
      };
    case 'orderbooks':
      return async (ctx, deadline) => {
        await sweepOrderBooks(ctx, { limit: null, maxAgeSec: settings.orderBookMaxAgeSec, deadline });
      };
  }
}
