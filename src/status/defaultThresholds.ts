import type { Config } from '../config.js';
import { schedulePeriodSec } from './schedulePeriodSec.js';
import type { Thresholds } from './StatusReport.js';

/**
 * The staleness `status` allows when not told otherwise, from the schedules the service runs:
 * - a listing, twice the crawl schedule's period (CRAWL_SCHEDULE; 1200 s by default): the
 *   allowance /readyz gives a job, so a crawl may be late by a tick before it counts as stale;
 * - the oldest open market's book, ORDERBOOK_MAX_AGE_SEC (the age the sweep keeps every book
 *   under, budget permitting) plus twice the order-book schedule's period (3720 s by default).
 */
export async function defaultThresholds(
  config: Pick<Config, 'crawlSchedule' | 'orderBookSchedule' | 'orderBookMaxAgeSec'>,
): Promise<Thresholds> {
  return {
    listingMaxAgeSec: 2 * (await schedulePeriodSec(config.crawlSchedule)),
    bookMaxAgeSec: config.orderBookMaxAgeSec + 2 * (await schedulePeriodSec(config.orderBookSchedule)),
  };
}
