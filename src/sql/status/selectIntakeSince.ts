import { ingestRuns } from '../../schema/index.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);

export interface EndpointIntake {
  /** Endpoint label, e.g. `/events`, `/events#markets`, `/orderbook/{marketId}`. */
  endpoint: string;
  /** Records stored without drift. */
  accepted: number;
  /** Records stored and tagged with drift (a field missing or unfamiliar, a value outside the spec's lists). */
  acceptedWithDrift: number;
  /** Records quarantined in rejected_records. */
  rejected: number;
}

/**
 * What the runs started at or after `since` read, per endpoint label, summed from
 * ingest_runs.records_by_endpoint (a running run adds its counts when it finishes).
 */
export async function selectIntakeSince(sql: Queryable, since: Date): Promise<EndpointIntake[]> {
  // The column's documented snake_case keys (COMMENT ON ingest_runs.records_by_endpoint).
  return sql<EndpointIntake[]>`
    select e.key as endpoint,
      coalesce(sum((e.value->>'accepted')::bigint), 0)::float8 as accepted,
      coalesce(sum((e.value->>'accepted_with_drift')::bigint), 0)::float8 as "acceptedWithDrift",
      coalesce(sum((e.value->>'rejected')::bigint), 0)::float8 as rejected
    from ${sql(runs)} r cross join lateral jsonb_each(r.${sql(c.recordsByEndpoint)}) e
    where r.${sql(c.startedAt)} >= ${since}::timestamptz
    group by e.key order by e.key`;
}
