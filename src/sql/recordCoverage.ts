import type { Queryable } from './queryable.js';

/**
 * Progress of one provider × category listing within a run, for analytics.data_coverage: opened
 * when its crawl starts, advanced per committed page, marked complete when the listing is exhausted.
 * A crawl killed midway stays incomplete, which is what the coverage view should show.
 */
export async function recordCoverage(
  sql: Queryable,
  at: { runId: number; provider: string; category: string },
  update: { now: Date; pages: number; eventsSeen: number; complete: boolean },
): Promise<void> {
  await sql`
    insert into prediction.crawl_coverage (run_id, provider, category, started_at, finished_at, pages, events_seen, complete)
    values (${at.runId}, ${at.provider}, ${at.category}, ${update.now}::timestamptz,
            ${update.complete ? update.now : null}::timestamptz, ${update.pages}, ${update.eventsSeen}, ${update.complete})
    on conflict (run_id, provider, category) do update set
      pages = excluded.pages, events_seen = excluded.events_seen,
      finished_at = excluded.finished_at, complete = excluded.complete`;
}
