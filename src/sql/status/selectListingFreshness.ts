import { dataFreshness } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import type { RowOf } from '../core/sqlNames.js';
import { viewNames, viewSelection } from '../core/viewNames.js';

const { view, col: c } = viewNames(dataFreshness);
const FRESHNESS = viewSelection(dataFreshness, [
  'provider',
  'category',
  'events',
  'activeEvents',
  'markets',
  'openMarkets',
  'lastCompleteCrawlStartedAt',
  'lastCompleteCrawlFinishedAt',
]);

/** A row of analytics.data_freshness: one provider × category, with its counts and its last complete crawl. */
export type ListingFreshnessRow = RowOf<typeof FRESHNESS>;

/** Every provider × category of analytics.data_freshness, in provider and category order (null category last). */
export async function selectListingFreshness(sql: Queryable): Promise<ListingFreshnessRow[]> {
  return sql<ListingFreshnessRow[]>`
    select ${sql.unsafe(FRESHNESS.text)} from ${sql(view)}
    order by ${sql(c.provider)}, ${sql(c.category)} nulls last`;
}
