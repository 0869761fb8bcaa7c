import { closedFeedBackfills } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(closedFeedBackfills);

/**
 * Records how far a backfill got: the next `start` to ask for, the service's `total`, the events
 * read so far and the earliest end among them (never moved later), and when it was paged to its end.
 */
export async function saveClosedFeedBackfill(
  sql: Queryable,
  state: {
    provider: string;
    since: Date;
    nextStart: number;
    total: number;
    eventsSeen: number;
    oldestEndedAt: Date | null;
    finished: boolean;
    now: Date;
  },
): Promise<void> {
  const finishedAt = state.finished ? state.now : null;
  await sql`
    insert into ${sql(table)} (${sql(c.provider)}, ${sql(c.since)}, ${sql(c.nextStart)}, ${sql(c.total)}, ${sql(c.eventsSeen)},
      ${sql(c.oldestEndedAt)}, ${sql(c.startedAt)}, ${sql(c.updatedAt)}, ${sql(c.finishedAt)})
    values (${state.provider}, ${state.since}::timestamptz, ${state.nextStart}, ${state.total}, ${state.eventsSeen},
      ${state.oldestEndedAt}::timestamptz, ${state.now}::timestamptz, ${state.now}::timestamptz, ${finishedAt}::timestamptz)
    on conflict (${sql(c.provider)}, ${sql(c.since)}) do update set
      ${sql(c.nextStart)} = excluded.${sql(c.nextStart)}, ${sql(c.total)} = excluded.${sql(c.total)},
      ${sql(c.eventsSeen)} = excluded.${sql(c.eventsSeen)},
      ${sql(c.oldestEndedAt)} = least(${sql(table)}.${sql(c.oldestEndedAt)}, excluded.${sql(c.oldestEndedAt)}),
      ${sql(c.updatedAt)} = excluded.${sql(c.updatedAt)}, ${sql(c.finishedAt)} = excluded.${sql(c.finishedAt)}`;
}
