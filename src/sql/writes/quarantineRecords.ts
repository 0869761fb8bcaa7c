import { createHash } from 'node:crypto';

import type { Rejection } from '../../domain/types.js';
import { sanitizeText } from '../../errors/sanitizeText.js';
import { rejectedRecords } from '../../schema/index.js';
import { jsonText, type Queryable } from '../core/queryable.js';
import { sqlNames, uniqueConstraintName } from '../core/sqlNames.js';

const { table: rejected, col } = sqlNames(rejectedRecords);
/** A record already quarantined: the same endpoint, entity and payload. */
const IDENTITY_KEY = uniqueConstraintName(rejectedRecords, ['endpoint', 'entityId', 'payloadHash']);

/** Longest reason stored: a reason names up to five issues, each quoting at most 40 characters of a value. */
const MAX_REASON_CHARS = 1000;

/** Largest payload kept whole; a bigger one (say a million-level book) keeps its head only. */
export const MAX_PAYLOAD_CHARS = 256 * 1024;

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
  const unique = new Map(
    records.map((r) => {
      const payload = storablePayload(r.payload);
      const hash = createHash('sha256').update(payload).digest('base64url');
      // The reason quotes upstream text: bounded and stripped of controls, so it can be stored and shown safely.
      return [
        `${r.endpoint}\u0001${r.entityId ?? ''}\u0001${hash}`,
        { ...r, reason: sanitizeText(r.reason, MAX_REASON_CHARS), payload, hash },
      ];
    }),
  );
  const rows = [...unique.values()];
  const result = await sql`
    insert into ${sql(rejected)} as r
      (${sql(col.runId)}, ${sql(col.lastRunId)}, ${sql(col.endpoint)}, ${sql(col.entityId)}, ${sql(col.reason)}, ${sql(col.payload)},
       ${sql(col.payloadHash)}, ${sql(col.receivedAt)}, ${sql(col.lastReceivedAt)})
    select ${runId}, ${runId}, endpoint, entity_id, reason, payload::jsonb, payload_hash, ${receivedAt}::timestamptz, ${receivedAt}::timestamptz
    from unnest(${rows.map((r) => r.endpoint)}::text[], ${rows.map((r) => r.entityId)}::text[],
                ${rows.map((r) => r.reason)}::text[], ${rows.map((r) => r.payload)}::text[], ${rows.map((r) => r.hash)}::text[])
      as t(endpoint, entity_id, reason, payload, payload_hash)
    on conflict on constraint ${sql(IDENTITY_KEY)} do update
      set ${sql(col.lastReceivedAt)} = excluded.${sql(col.lastReceivedAt)}, ${sql(col.lastRunId)} = excluded.${sql(col.lastRunId)},
          ${sql(col.reason)} = excluded.${sql(col.reason)}
      where r.${sql(col.lastReceivedAt)} < excluded.${sql(col.lastReceivedAt)}
    returning (xmax = 0) as inserted`;
  return result.filter((r) => r.inserted).length;
}

/**
 * The payload as jsonb-safe JSON text. A rejected record may be exactly what jsonb refuses (a NUL,
 * an unpaired surrogate) or absurdly large: such content is kept readable rather than lost or
 * allowed to fail the page's transaction. NUL becomes the visible text "\\u0000"; an unpaired
 * surrogate becomes U+FFFD.
 */
export function storablePayload(payload: unknown): string {
  const text = jsonText(jsonbSafe(payload, 0));
  if (text.length <= MAX_PAYLOAD_CHARS) return text;
  return JSON.stringify({ truncated: true, chars: text.length, head: text.slice(0, MAX_PAYLOAD_CHARS / 4) });
}

const MAX_DEPTH = 64;

function jsonbSafe(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return safeText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((v) => jsonbSafe(v, depth + 1));
  // Built with defineProperty semantics (fromEntries), so a "__proto__" key stays a plain key.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [safeText(k), jsonbSafe(v, depth + 1)]));
}

function safeText(s: string): string {
  const wellFormed = s.isWellFormed() ? s : s.toWellFormed();
  return wellFormed.includes('\0') ? wellFormed.replaceAll('\0', '\\u0000') : wellFormed;
}
