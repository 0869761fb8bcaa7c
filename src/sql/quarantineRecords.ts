import { createHash } from 'node:crypto';
import type { Rejection } from '../domain/types.js';
import { jsonText, type Queryable } from './queryable.js';

export interface QuarantinedRecord extends Rejection {
  /** Route template of the endpoint that returned the record, e.g. "/events". */
  endpoint: string;
}

/**
 * Stores records that failed validation. A record that keeps arriving unchanged stays one row
 * whose last_received_at / last_run_id move, so a bad record upstream doesn't grow the table
 * every cycle. Returns the number of new rows.
 */
export async function quarantineRecords(
  sql: Queryable,
  runId: number | null,
  records: readonly QuarantinedRecord[],
  receivedAt: Date,
): Promise<number> {
  if (records.length === 0) return 0;
  // The same record twice in one batch would make ON CONFLICT touch a row twice.
  const unique = new Map(records.map((r) => {
    const payload = jsonText(r.payload);
    const hash = createHash('sha256').update(payload).digest('base64url');
    return [`${r.endpoint}\u0001${r.entityId ?? ''}\u0001${hash}`, { ...r, payload, hash }];
  }));
  const rows = [...unique.values()];
  const result = await sql`
    insert into prediction.rejected_records as r
      (run_id, last_run_id, endpoint, entity_id, reason, payload, payload_hash, received_at, last_received_at)
    select ${runId}, ${runId}, endpoint, entity_id, reason, payload::jsonb, payload_hash, ${receivedAt}::timestamptz, ${receivedAt}::timestamptz
    from unnest(${rows.map((r) => r.endpoint)}::text[], ${rows.map((r) => r.entityId)}::text[],
                ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.payload)}::text[], ${rows.map((r) => r.hash)}::text[])
      as t(endpoint, entity_id, reason, payload, payload_hash)
    on conflict on constraint rejected_records_identity_key do update
      set last_received_at = excluded.last_received_at, last_run_id = excluded.last_run_id, reason = excluded.reason
      where r.last_received_at < excluded.last_received_at
    returning (xmax = 0) as inserted`;
  return result.filter((r) => r.inserted).length;
}
