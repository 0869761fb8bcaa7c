import { applyRetention } from '../../src/partitions/applyRetention.js';
import type { DroppedPartition } from '../../src/sql/upkeep/dropMonthPartition.js';
import { onClone, type ScratchDb, withDb } from './scratchDb.js';

export interface RetentionDrop {
  dropped: DroppedPartition[];
  /** Retention as the pipeline applies it: each partition counted, then dropped in a transaction of its own (the files are unlinked at commit). */
  seconds: number;
  /** Making the copy it ran on. */
  cloneSeconds: number;
}

/**
 * Times retention with `horizon` as the pipeline applies it (applyRetention), on a file copy of `template` that is dropped afterwards: the template keeps its
 * data for the next run. The template must have no open connection.
 */
export async function timeRetentionDrop(
  serverUrl: string,
  template: ScratchDb,
  horizon: Date,
  retentionMonths: number,
): Promise<RetentionDrop> {
  const { result, cloneSeconds } = await onClone(serverUrl, template, 'retention', (clone) =>
    withDb(clone, async (sql) => {
      // Warm the catalog of the new database, so the timing is the drop's own.
      await sql`select count(*) from pg_partition_tree('prediction.pricing_snapshots')`;
      const started = performance.now();
      const { dropped, postponed } = await applyRetention(sql, { horizon, retentionMonths });
      if (postponed !== null) throw new Error(`retention was postponed: ${postponed}`);
      return { dropped, seconds: (performance.now() - started) / 1000 };
    }),
  );
  return { ...result, cloneSeconds };
}
