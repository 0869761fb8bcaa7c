import { events, marketResolutions, markets } from '../schema/index.js';
import { quoteIdentifier as quote, sqlNames } from '../sql/core/sqlNames.js';
import { viewNames } from '../sql/core/viewNames.js';
import { changedSince, dayText, mergeDays, retentionChangedSince, selectRowsByDay } from './daySql.js';
import { AMOUNT, SECONDS, tableColumns, viewColumns } from './exportColumns.js';
import type { ExportTable } from './ExportTable.js';

// The tables of one row per market or event, as they are now, partitioned by the UTC day the
// pipeline first saw the market or event. A history row may refer to any of them, so they are
// always exported whole, whatever --since and --until say.

const m = sqlNames(markets);
const e = sqlNames(events);
const resolutions = viewNames(marketResolutions);

/**
 * A table of one row per market or event, read from `relation` (quoted) under `alias` and
 * partitioned by its first_seen_at (`firstSeenAt`, the column's SQL name there): never ranged,
 * never retained, each day standing alone.
 */
function entityTable(spec: {
  name: string;
  source: string;
  columns: ExportTable['columns'];
  key: string;
  relation: string;
  alias: string;
  firstSeenAt: string;
  days: ExportTable['days'];
}): ExportTable {
  const { relation, alias, firstSeenAt } = spec;
  return {
    name: spec.name,
    source: spec.source,
    columns: spec.columns,
    partitionColumn: firstSeenAt,
    orderBy: [spec.key],
    ranged: false,
    changesCarryForward: false,
    optional: false,
    retainedIn: null,
    days: spec.days,
    select(selection) {
      return selectRowsByDay(this, { relation, alias, at: quote(firstSeenAt) }, selection);
    },
  };
}

/** A table's own rows: every column but the content hash (bookkeeping of the change-only upsert); raw as JSON text, drift as a list. */
function storedEntityTable(table: typeof markets | typeof events, key: string, columns: ExportTable['columns']): ExportTable {
  const names = sqlNames<typeof markets | typeof events>(table);
  return entityTable({
    name: names.name,
    source: names.table,
    columns,
    key,
    relation: names.quotedTable,
    alias: 't',
    firstSeenAt: names.col.firstSeenAt,
    async days(sql, query) {
      const rows = await sql<{ day: string; rows: string; changed: boolean }[]>`
        select ${sql.unsafe(dayText(`t.${names.quoted.firstSeenAt}`))} as day, count(*)::bigint as rows, bool_or(${changedSince(sql, 't', query.horizon)}) as changed
        from ${sql(names.table)} t group by 1`;
      return mergeDays(rows);
    },
  });
}

export const marketsTable: ExportTable = storedEntityTable(markets, m.col.marketId, tableColumns(markets, { omit: ['contentHash'] }));

export const eventsTable: ExportTable = storedEntityTable(
  events,
  e.col.eventId,
  tableColumns(events, { omit: ['contentHash'], decimals: { tvlUsd: AMOUNT, volumeUsd: AMOUNT } }),
);

export const marketResolutionsTable: ExportTable = entityTable({
  name: 'market_resolutions',
  source: resolutions.view,
  columns: viewColumns(marketResolutions, {
    settlementLagSeconds: SECONDS,
    observedSettlementLagMinSeconds: SECONDS,
    observedSettlementLagMaxSeconds: SECONDS,
  }),
  key: resolutions.col.marketId,
  relation: resolutions.view,
  alias: 'r',
  firstSeenAt: resolutions.col.firstSeenAt,
  // A resolution row reads its market, its event's category, and the market's state and price
  // history. Every observation of a market that writes any of those also moves the market row's
  // last_seen_at, so a new version of the market or event row covers them all. Retention does not:
  // a month it dropped may have held a row's earliest or latest pending observation.
  async days(sql, query) {
    // Retention's test reads a table of its own after the aggregate: Citus cannot push a subquery
    // there down to the shards, so it goes in the FROM clause, and its one row joins every group.
    const rows = await sql<{ day: string; rows: string; changed: boolean }[]>`
      select ${sql.unsafe(dayText(`m.${m.quoted.firstSeenAt}`))} as day, count(*)::bigint as rows,
             bool_or(${changedSince(sql, 'm', query.horizon)} or ${changedSince(sql, 'e', query.horizon)} or r.dropped) as changed
      from ${sql(m.table)} m join ${sql(e.table)} e on e.${sql(e.col.eventId)} = m.${sql(m.col.eventId)}
      cross join (select ${retentionChangedSince(sql, query.horizon)} as dropped) r
      group by 1`;
    return mergeDays(rows);
  },
});
