import { dataCoverage } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { viewNames } from '../core/viewNames.js';

const { view, col: c } = viewNames(dataCoverage);

export interface ListingCrawls {
  provider: string;
  category: string;
  /** Crawls of the listing started since then, complete or not (a crawl cut short by a failed or stopped run is not). */
  crawls: number;
  completeCrawls: number;
}

/** How many crawls of each provider × category listing started at or after `since` (analytics.data_coverage), and how many completed. */
export async function selectCoverageSince(sql: Queryable, since: Date): Promise<ListingCrawls[]> {
  return sql<ListingCrawls[]>`
    select ${sql(c.provider)} as provider, ${sql(c.category)} as category,
      count(*)::int as crawls, (count(*) filter (where ${sql(c.complete)}))::int as "completeCrawls"
    from ${sql(view)}
    where ${sql(c.startedAt)} >= ${since}::timestamptz
    group by 1, 2 order by 1, 2`;
}
