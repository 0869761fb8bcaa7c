import { crawlCoverage } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: coverage, col: c } = sqlNames(crawlCoverage);

/** One provider × category listing's progress within a run. */
export interface CoverageUpdate {
  category: string;
  pages: number;
  eventsSeen: number;
}

/**
 * Progress of listing crawls within a run, for analytics.data_coverage: a row per provider ×
 * category opened when first seen, advanced per committed page, marked complete when the crawl
 * that covered it is exhausted. A crawl killed midway stays incomplete, which is what the coverage
 * view should show. An unfiltered crawl (category `all`) reports a row for every category its
 * events carried, so categories nobody configured are covered too.
 */
export async function recordCoverage(
  sql: Queryable,
  at: { runId: number; provider: string },
  update: { now: Date; complete: boolean; listings: readonly CoverageUpdate[] },
): Promise<void> {
  if (update.listings.length === 0) return;
  const { listings, now, complete } = update;
  await sql`
    insert into ${sql(coverage)}
      (${sql(c.runId)}, ${sql(c.provider)}, ${sql(c.category)}, ${sql(c.startedAt)}, ${sql(c.finishedAt)}, ${sql(c.pages)},
       ${sql(c.eventsSeen)}, ${sql(c.complete)})
    select ${at.runId}, ${at.provider}, category, ${now}::timestamptz, ${complete ? now : null}::timestamptz, pages, events_seen, ${complete}
    from unnest(${listings.map((l) => l.category)}::text[], ${listings.map((l) => l.pages)}::int[], ${listings.map((l) => l.eventsSeen)}::int[])
      as t(category, pages, events_seen)
    on conflict (${sql(c.runId)}, ${sql(c.provider)}, ${sql(c.category)}) do update set
      ${sql(c.pages)} = excluded.${sql(c.pages)}, ${sql(c.eventsSeen)} = excluded.${sql(c.eventsSeen)},
      ${sql(c.finishedAt)} = excluded.${sql(c.finishedAt)}, ${sql(c.complete)} = excluded.${sql(c.complete)}`;
}
