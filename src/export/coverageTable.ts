import { crawlCoverage, dataCoverage, ingestRuns } from '../schema/index.js';
import { sqlNames } from '../sql/core/sqlNames.js';
import { viewNames } from '../sql/core/viewNames.js';
import { changedSince, dayText, mergeDays, retentionChangedSince, selectRowsByDay } from './daySql.js';
import { SECONDS, viewColumns } from './exportColumns.js';
import type { ExportTable } from './ExportTable.js';

const c = sqlNames(crawlCoverage);
const r = sqlNames(ingestRuns);
const coverage = viewNames(dataCoverage);

/** analytics.data_coverage: one row per provider × category crawl of a sync run, by the day it started. */
export const dataCoverageTable: ExportTable = {
  name: 'data_coverage',
  source: coverage.view,
  columns: viewColumns(dataCoverage, { durationSeconds: SECONDS, sincePreviousCompleteSeconds: SECONDS }),
  partitionColumn: 'started_at',
  orderBy: ['started_at', 'run_id', 'provider', 'category'],
  ranged: true,
  // A crawl that completes becomes the previous complete crawl of the later crawls of its listing.
  changesCarryForward: true,
  optional: false,
  retainedIn: null,
  // A row reads its crawl and its run (run_status): a new version of either changes it, and so does
  // a drop by retention (history_absent). Every day, not only the range's: a change before the
  // range carries into it (planPartitions cuts the range).
  async days(sql, query) {
    const rows = await sql<{ day: string; rows: string; changed: boolean }[]>`
      select ${sql.unsafe(dayText(`c.${c.quoted.startedAt}`))} as day, count(*)::bigint as rows,
             bool_or(${changedSince(sql, 'c', query.horizon)} or ${changedSince(sql, 'r', query.horizon)})
               or ${retentionChangedSince(sql, query.horizon)} as changed
      from ${sql(c.table)} c join ${sql(r.table)} r on r.${sql(r.col.runId)} = c.${sql(c.col.runId)}
      group by 1`;
    return mergeDays(rows);
  },
  select(selection) {
    return selectRowsByDay(this, { relation: coverage.view, alias: 'v', at: coverage.quoted.startedAt }, selection);
  },
};
