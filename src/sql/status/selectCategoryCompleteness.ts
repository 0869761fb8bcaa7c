import { categoryCounts, crawlCoverage } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const N = sqlNames(categoryCounts);
const K = sqlNames(crawlCoverage);

/** One provider × category: the service's own count beside what the crawl listed. */
export interface CategoryCompletenessRow {
  provider: string;
  category: string;
  /** GET /events/categories at the provider's latest read; null when it did not name the category. */
  serviceEvents: number | null;
  /** Events of the category the provider's latest complete crawl listed; null when it listed none. */
  crawledEvents: number | null;
  countedAt: Date | null;
}

/**
 * For each provider, its latest counts from the service (the latest run that read them) set
 * beside its latest complete crawl (prediction.crawl_coverage: the per-category rows of that run,
 * the unfiltered `all` row left out since it holds every category). A category on one side only
 * shows with null on the other.
 */
export async function selectCategoryCompleteness(sql: Queryable): Promise<CategoryCompletenessRow[]> {
  const [n, k] = [N.col, K.col];
  return sql<CategoryCompletenessRow[]>`
    with counted as (
      select c.${sql(n.provider)} as provider, c.${sql(n.category)} as category, c.${sql(n.eventCount)} as events, c.${sql(n.observedAt)} as at
      from ${sql(N.table)} c
      where c.${sql(n.runId)} = (select max(x.${sql(n.runId)}) from ${sql(N.table)} x where x.${sql(n.provider)} = c.${sql(n.provider)})
    ), crawled_run as (
      select distinct on (${sql(k.provider)}) ${sql(k.provider)} as provider, ${sql(k.runId)} as run_id
      from ${sql(K.table)} where ${sql(k.complete)}
      order by ${sql(k.provider)}, ${sql(k.startedAt)} desc, ${sql(k.runId)} desc
    ), crawled as (
      select c.${sql(k.provider)} as provider, c.${sql(k.category)} as category, c.${sql(k.eventsSeen)} as events
      from ${sql(K.table)} c join crawled_run r on r.provider = c.${sql(k.provider)} and r.run_id = c.${sql(k.runId)}
      where c.${sql(k.category)} <> 'all'
    )
    select * from (
      select coalesce(n.provider, l.provider) as provider, coalesce(n.category, l.category) as category,
             n.events as "serviceEvents", l.events as "crawledEvents", n.at as "countedAt"
      from counted n full join crawled l on l.provider = n.provider and l.category = n.category
    ) x
    order by x.provider collate "C", x.category collate "C"`;
}
