import { rejectedRecords } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: rejected, col: c } = sqlNames(rejectedRecords);

export interface QuarantineGroup {
  endpoint: string;
  reason: string;
  /** Distinct rejected records of this endpoint and reason received at or after `since`. */
  records: number;
  /** Of those, records first received then (the others had been quarantined before and keep arriving). */
  newRecords: number;
}

export interface QuarantineSince {
  /** Distinct rejected records received at or after `since` (a record repeated by every run is one). */
  records: number;
  newRecords: number;
  /** The largest endpoint × reason groups, most records first, at most `limit`. */
  groups: QuarantineGroup[];
  /** How many endpoint × reason groups there are in all. */
  groupCount: number;
}

/** The quarantine (prediction.rejected_records) as received at or after `since`: totals and the largest groups. */
export async function selectQuarantineSince(sql: Queryable, since: Date, limit: number): Promise<QuarantineSince> {
  const rows = await sql<(QuarantineGroup & { totalRecords: number; totalNew: number; groupCount: number })[]>`
    select ${sql(c.endpoint)} as endpoint, ${sql(c.reason)} as reason,
      count(*)::int as records,
      (count(*) filter (where ${sql(c.receivedAt)} >= ${since}::timestamptz))::int as "newRecords",
      (sum(count(*)) over ())::float8 as "totalRecords",
      (sum(count(*) filter (where ${sql(c.receivedAt)} >= ${since}::timestamptz)) over ())::float8 as "totalNew",
      (count(*) over ())::int as "groupCount"
    from ${sql(rejected)} where ${sql(c.lastReceivedAt)} >= ${since}::timestamptz
    group by 1, 2 order by 3 desc, 1, 2 limit ${limit}`;
  const first = rows[0];
  return {
    records: first?.totalRecords ?? 0,
    newRecords: first?.totalNew ?? 0,
    groups: rows.map(({ endpoint, reason, records, newRecords }) => ({ endpoint, reason, records, newRecords })),
    groupCount: first?.groupCount ?? 0,
  };
}
