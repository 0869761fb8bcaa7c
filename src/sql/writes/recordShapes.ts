import type { ContractChange } from '../../domain/types.js';
import { upstreamShapes } from '../../schema/index.js';
import { jsonText, type Queryable } from '../core/queryable.js';
import { sqlNames } from '../core/sqlNames.js';
import { storablePayload } from './quarantineRecords.js';

const { table: shapes, col } = sqlNames(upstreamShapes);

/** Records of one shape received from one endpoint in a batch. */
export interface ShapeObservation {
  /** Endpoint label, e.g. "/events" or "/events#markets". */
  endpoint: string;
  /** Identifier of the shape, computed by the caller from `paths`. */
  fingerprint: string;
  /** Key paths with their JSON types, e.g. "pricing.volume:number" (sorted here before storing). */
  paths: readonly string[];
  /** One record of this shape as received; stored only when the shape is new. */
  example: unknown;
  /** How the shape differs from today's contract (empty: it matches); the fingerprint is computed from them. */
  changes: readonly ContractChange[];
  /** How many records of this shape the batch held (a positive integer). */
  count: number;
}

/**
 * Upserts the shapes seen in a batch into prediction.upstream_shapes, in one statement. A known
 * shape adds `count` to records_seen; its last_seen_at / last_run_id only move forward and its
 * first_seen_at / first_run_id only back, so an observation replayed out of order cannot rewind
 * them; its example is never replaced. Re-running a batch adds no rows (records_seen is a counter
 * and adds again). Safe inside the caller's transaction. Returns the number of new shapes.
 */
export async function recordShapes(
  sql: Queryable,
  runId: number | null,
  observations: readonly ShapeObservation[],
  observedAt: Date,
): Promise<number> {
  if (observations.length === 0) return 0;
  // ON CONFLICT cannot touch a row twice in one statement: one row per shape, counts summed.
  const byShape = new Map<string, Omit<ShapeObservation, 'count'> & { count: number }>();
  for (const o of observations) {
    if (!Number.isSafeInteger(o.count) || o.count < 1) {
      throw new RangeError(`recordShapes: count must be a positive integer, got ${o.count} for ${o.endpoint} ${o.fingerprint}`);
    }
    const key = `${o.endpoint}\u0001${o.fingerprint}`;
    const seen = byShape.get(key);
    if (seen) seen.count += o.count;
    else byShape.set(key, { ...o });
  }
  // In key order, so concurrent writers lock the rows they share in the same order (no deadlock).
  const rows = [...byShape.values()].sort((a, b) => compare(a.endpoint, b.endpoint) || compare(a.fingerprint, b.fingerprint));
  const result = await sql`
    insert into ${sql(shapes)} as s
      (${sql(col.endpoint)}, ${sql(col.fingerprint)}, ${sql(col.paths)}, ${sql(col.example)}, ${sql(col.changes)}, ${sql(col.recordsSeen)},
       ${sql(col.firstSeenAt)}, ${sql(col.lastSeenAt)}, ${sql(col.firstRunId)}, ${sql(col.lastRunId)})
    select t.endpoint, t.fingerprint,
           array(select p.path from jsonb_array_elements_text(t.paths::jsonb) with ordinality as p(path, ord) order by p.ord),
           t.example::jsonb, t.changes::jsonb, t.records_seen::bigint,
           ${observedAt}::timestamptz, ${observedAt}::timestamptz, ${runId}::bigint, ${runId}::bigint
    from unnest(${rows.map((r) => r.endpoint)}::text[], ${rows.map((r) => r.fingerprint)}::text[],
                ${rows.map((r) => jsonText(storablePaths(r.paths)))}::text[], ${rows.map((r) => storablePayload(r.example))}::text[],
                ${rows.map((r) => storablePayload(r.changes))}::text[], ${rows.map((r) => String(r.count))}::text[])
      as t(endpoint, fingerprint, paths, example, changes, records_seen)
    on conflict (${sql(col.endpoint)}, ${sql(col.fingerprint)}) do update set
      ${sql(col.changes)} = coalesce(s.${sql(col.changes)}, excluded.${sql(col.changes)}),
      ${sql(col.recordsSeen)} = s.${sql(col.recordsSeen)} + excluded.${sql(col.recordsSeen)},
      ${sql(col.lastRunId)} = case when excluded.${sql(col.lastSeenAt)} > s.${sql(col.lastSeenAt)}
        then excluded.${sql(col.lastRunId)} else s.${sql(col.lastRunId)} end,
      ${sql(col.lastSeenAt)} = greatest(s.${sql(col.lastSeenAt)}, excluded.${sql(col.lastSeenAt)}),
      ${sql(col.firstRunId)} = case when excluded.${sql(col.firstSeenAt)} < s.${sql(col.firstSeenAt)}
        then excluded.${sql(col.firstRunId)} else s.${sql(col.firstRunId)} end,
      ${sql(col.firstSeenAt)} = least(s.${sql(col.firstSeenAt)}, excluded.${sql(col.firstSeenAt)})
    returning (xmax = 0) as inserted`;
  return result.filter((r) => r.inserted).length;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Paths are built from upstream's keys, which may hold what text and jsonb refuse (a NUL, an
 * unpaired surrogate): made storable the way storablePayload treats strings, then sorted.
 */
function storablePaths(paths: readonly string[]): string[] {
  return paths.map((p) => (p.isWellFormed() ? p : p.toWellFormed()).replaceAll('\0', '\\u0000')).sort();
}
