import { crawlCoverage } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { type RowOf, selection, sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(crawlCoverage);
const SIZE = selection(crawlCoverage, ['eventsSeen', 'pages', 'startedAt'], 'k');

/** What the latest complete crawl of one provider × category listing saw; null fields when none completed yet. */
export type ListingSize = { provider: string; category: string } & { [K in keyof RowOf<typeof SIZE>]: RowOf<typeof SIZE>[K] | null };

/**
 * For each of these listings, the events its latest complete crawl listed and the pages that took
 * (prediction.crawl_coverage), in the order given. A backward probe of (provider, category,
 * started_at) per listing, not a scan of the coverage history.
 */
export async function selectListingSizes(
  sql: Queryable,
  listings: readonly { provider: string; category: string }[],
): Promise<ListingSize[]> {
  if (listings.length === 0) return [];
  return sql<ListingSize[]>`
    select l.provider, l.category, ${sql.unsafe(SIZE.text)}
    from unnest(${listings.map((l) => l.provider)}::text[], ${listings.map((l) => l.category)}::text[])
      with ordinality as l(provider, category, n)
    left join lateral (
      select k.* from ${sql(table)} k
      where k.${sql(c.provider)} = l.provider and k.${sql(c.category)} = l.category and k.${sql(c.complete)}
      order by k.${sql(c.startedAt)} desc, k.${sql(c.runId)} desc
      limit 1
    ) k on true
    order by l.n`;
}
