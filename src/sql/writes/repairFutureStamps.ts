import {
  crawlCoverage,
  events,
  eventStateHistory,
  ingestRuns,
  markets,
  marketStateHistory,
  orderbookSnapshots,
  pricingSnapshots,
} from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { quoteIdentifier as quote, sqlNames } from '../core/sqlNames.js';

// Rows a clock ahead of the database's stamped in the future (before runs took the database's
// clock): every observation after them looked older than the stored one and was ignored. They are
// moved back to the time of the repair, which is when they were known to exist at the latest.

/** Whether a run was stamped after the database's clock plus `toleranceMs`: then rows written with it may be too. */
export async function hasFutureRuns(sql: Queryable, toleranceMs: number): Promise<boolean> {
  const { table, col } = sqlNames(ingestRuns);
  const [row] = await sql<{ found: boolean }[]>`
    select exists (
      select from ${sql(table)} where ${sql(col.startedAt)} > clock_timestamp() + make_interval(secs => ${toleranceMs / 1000})
    ) as found`;
  return row?.found ?? false;
}

/**
 * Moves every observation time later than the database's clock plus `toleranceMs` back to now:
 * bookkeeping times of markets, events, runs and crawl coverage are set to now; a history row
 * stamped in the future gets now less as many microseconds as future rows of its key follow it, so
 * that their order, and the chain of a state history (each valid_to the next valid_from), stays
 * as it was. Returns how many rows moved. Call it under the write lock.
 */
export async function repairFutureStamps(sql: Queryable, toleranceMs: number): Promise<number> {
  const future = `clock_timestamp() + make_interval(secs => ${Number(toleranceMs) / 1000})`;
  let moved = 0;
  const run = async (text: string) => {
    moved += (await sql.unsafe(text)).count;
  };

  const clamp = (table: string, columns: readonly string[]) =>
    run(
      `update ${table} set ${columns.map((c) => `${c} = case when ${c} > ${future} then now() else ${c} end`).join(', ')}
       where ${columns.map((c) => `${c} > ${future}`).join(' or ')}`,
    );
  const m = sqlNames(markets);
  await clamp(m.quotedTable, [m.quoted.firstSeenAt, m.quoted.lastSeenAt, m.quoted.changedAt, m.quoted.detailFetchedAt]);
  const e = sqlNames(events);
  await clamp(e.quotedTable, [e.quoted.firstSeenAt, e.quoted.lastSeenAt, e.quoted.changedAt]);
  const r = sqlNames(ingestRuns);
  await clamp(r.quotedTable, [r.quoted.startedAt, r.quoted.finishedAt]);
  const cc = sqlNames(crawlCoverage);
  await clamp(cc.quotedTable, [cc.quoted.startedAt, cc.quoted.finishedAt]);

  for (const snapshots of [sqlNames(pricingSnapshots), sqlNames(orderbookSnapshots)]) {
    const { quotedTable: t, quoted: q } = snapshots;
    await run(
      `with moved as (
         select ${q.marketId} as key, ${q.observedAt} as at,
                now() - (row_number() over (partition by ${q.marketId} order by ${q.observedAt} desc) - 1) * interval '1 microsecond' as to_at
         from ${t} where ${q.observedAt} > ${future}
       )
       update ${t} s set ${q.observedAt} = m.to_at, ${q.lastObservedAt} = m.to_at
       from moved m where s.${q.marketId} = m.key and s.${q.observedAt} = m.at`,
    );
    await clamp(t, [q.lastObservedAt]);
  }

  for (const [history, key] of [
    [sqlNames(marketStateHistory), quote(sqlNames(marketStateHistory).col.marketId)],
    [sqlNames(eventStateHistory), quote(sqlNames(eventStateHistory).col.eventId)],
  ] as const) {
    const { quotedTable: t, quoted: q } = history;
    // Both ends in one statement: the interval check holds for each row once both have moved.
    await run(
      `with moved as (
         select ${key} as key, ${q.validFrom} as at,
                now() - (row_number() over (partition by ${key} order by ${q.validFrom} desc) - 1) * interval '1 microsecond' as to_at
         from ${t} where ${q.validFrom} > ${future}
       )
       update ${t} h set
         ${q.validFrom} = coalesce((select m.to_at from moved m where m.key = h.${key} and m.at = h.${q.validFrom}), h.${q.validFrom}),
         ${q.validTo} = case when h.${q.validTo} > ${future}
                          then coalesce((select m.to_at from moved m where m.key = h.${key} and m.at = h.${q.validTo}), now())
                          else h.${q.validTo} end
       where h.${q.validFrom} > ${future} or h.${q.validTo} > ${future}`,
    );
  }
  return moved;
}
