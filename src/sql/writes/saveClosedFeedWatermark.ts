import { closedFeedWatermarks } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(closedFeedWatermarks);

/**
 * Records a complete read of GET /events/closed for one provider. The watermark never moves back:
 * a read answered with an older `timestamp` (a clock step upstream, a replay) keeps the later one.
 */
export async function saveClosedFeedWatermark(
  sql: Queryable,
  mark: { provider: string; readThrough: Date; pages: number; eventsSeen: number; runId: number | null; now: Date },
): Promise<void> {
  await sql`
    insert into ${sql(table)} (${sql(c.provider)}, ${sql(c.readThrough)}, ${sql(c.pages)}, ${sql(c.eventsSeen)}, ${sql(c.runId)}, ${sql(c.updatedAt)})
    values (${mark.provider}, ${mark.readThrough}::timestamptz, ${mark.pages}, ${mark.eventsSeen}, ${mark.runId}, ${mark.now}::timestamptz)
    on conflict (${sql(c.provider)}) do update set
      ${sql(c.readThrough)} = greatest(${sql(table)}.${sql(c.readThrough)}, excluded.${sql(c.readThrough)}),
      ${sql(c.pages)} = excluded.${sql(c.pages)}, ${sql(c.eventsSeen)} = excluded.${sql(c.eventsSeen)},
      ${sql(c.runId)} = excluded.${sql(c.runId)}, ${sql(c.updatedAt)} = excluded.${sql(c.updatedAt)}`;
}
