import { ingestRuns } from '../../schema/index.js';
import type { ServerRateLimit } from '../core/ingestRuns.js';
import type { Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';

const { table: runs, col: c } = sqlNames(ingestRuns);

/** The gateway's window as the latest run that saw its headers recorded it (ingest_runs.server_rate_limit), or null. */
export async function selectServerRateLimit(sql: Queryable): Promise<ServerRateLimit | null> {
  // The column's documented snake_case keys (COMMENT ON ingest_runs.server_rate_limit).
  const [row] = await sql<{ requests: number; windowSeconds: number | null; requestsPerMinute: number | null; observedAt: Date }[]>`
    select (l->>'requests')::float8 as requests, (l->>'window_seconds')::float8 as "windowSeconds",
      (l->>'requests_per_minute')::float8 as "requestsPerMinute", (l->>'observed_at')::timestamptz as "observedAt"
    from (select ${sql(c.serverRateLimit)} as l from ${sql(runs)}
          where ${sql(c.serverRateLimit)} is not null order by ${sql(c.finishedAt)} desc nulls last, ${sql(c.runId)} desc limit 1) r`;
  return row ?? null;
}
