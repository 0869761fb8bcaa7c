import type { CategoryCount } from '../../domain/types.js';
import { categoryCounts } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table, col: c } = sqlNames(categoryCounts);

/** The service's counts for one provider, as a run read them (a rerun of the same run replaces them). */
export async function recordCategoryCounts(
  sql: Queryable,
  at: { runId: number; provider: string; observedAt: Date },
  counts: readonly CategoryCount[],
): Promise<number> {
  if (counts.length === 0) return 0;
  // One row per category: the service should not list one twice, and if it does the last counts.
  const byCategory = new Map(counts.map((k) => [k.category, k]));
  const rows = [...byCategory.values()];
  const written = await sql`
    insert into ${sql(table)} (${sql(c.runId)}, ${sql(c.provider)}, ${sql(c.category)}, ${sql(c.eventCount)}, ${sql(c.subcategories)}, ${sql(c.observedAt)})
    select ${at.runId}, ${at.provider}, t.category, t.event_count, t.subcategories, ${at.observedAt}::timestamptz
    from unnest(${rows.map((k) => k.category)}::text[], ${rows.map((k) => k.eventCount)}::int[], ${rows.map((k) => JSON.stringify(k.subcategories))}::jsonb[])
      as t(category, event_count, subcategories)
    on conflict (${sql(c.runId)}, ${sql(c.provider)}, ${sql(c.category)}) do update set
      ${sql(c.eventCount)} = excluded.${sql(c.eventCount)}, ${sql(c.subcategories)} = excluded.${sql(c.subcategories)},
      ${sql(c.observedAt)} = excluded.${sql(c.observedAt)}`;
  return written.count;
}
