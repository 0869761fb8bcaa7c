import { sql } from 'drizzle-orm';
import { jsonb, text } from 'drizzle-orm/pg-core';

import { timestampTz } from './timestampTz.js';

/**
 * The columns of a table that keeps the current state of upstream records (events, markets),
 * written by changeOnlyUpsert, which relies on the last four. A function: each table needs
 * column builders of its own.
 */
export const observedRecordColumns = () => ({
  /** The record as received (less what has a history table of its own). */
  raw: jsonb('raw').notNull(),
  /** Drift tags: what in the record differed from the spec's shape, e.g. `missing_series`. */
  drift: text('drift')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  firstSeenAt: timestampTz('first_seen_at').notNull(),
  lastSeenAt: timestampTz('last_seen_at').notNull(),
  /** Last time any stored value of the row changed (last_seen_at moves on every observation). */
  changedAt: timestampTz('changed_at').notNull(),
  /** Hash of the record's values as last received: an identical record is recognised without sending it whole. */
  contentHash: text('content_hash'),
});
