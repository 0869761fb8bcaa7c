import { dataFreshness } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import type { RowOf } from '../core/sqlNames.js';
import { viewNames, viewSelectionWithout } from '../core/viewNames.js';

const { view, col: c } = viewNames(dataFreshness);
// Every column but when events and markets were last seen: the report dates a listing by its last complete crawl.
const FRESHNESS = viewSelectionWithout(dataFreshness, ['eventsLastSeenAt', 'marketsLastSeenAt']);

/** A row of analytics.data_freshness: one provider × category, with its counts and its last complete crawl. */
export type ListingFreshnessRow = RowOf<typeof FRESHNESS>;

/** Every provider × category of analytics.data_freshness, in provider and category order (null category last). */
export async function selectListingFreshness(sql: Queryable): Promise<ListingFreshnessRow[]> {
  return sql<ListingFreshnessRow[]>`
    select ${sql.unsafe(FRESHNESS.text)} from ${sql(view)}
    order by ${sql(c.provider)}, ${sql(c.category)} nulls last`;
}
