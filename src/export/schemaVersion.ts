import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MIGRATIONS_FOLDER } from '../db/migrate.js';
import type { Queryable } from '../sql/core/queryable.js';
import { selectAppliedMigrations } from '../sql/export/selectAppliedMigrations.js';

export interface SchemaVersion {
  /** Migrations applied to the database. */
  migrations: number;
  /** Tag of the latest one (e.g. 0012_export_state), from the journal; null if this build does not know it. */
  latestMigration: string | null;
}

/** The database's schema version: what the exported columns were read under. */
export async function readSchemaVersion(sql: Queryable): Promise<SchemaVersion> {
  const applied = await selectAppliedMigrations(sql).catch((error: unknown) => {
    // Never migrated: drizzle's own table is missing too.
    if ((error as { code?: unknown }).code === '42P01') return { count: 0, latestCreatedAt: null };
    throw error;
  });
  const latest = journalEntries().find((e) => e.when === applied.latestCreatedAt);
  return { migrations: applied.count, latestMigration: latest?.tag ?? null };
}

/** Whether the database has every migration this build ships (it may have later ones). */
export function isMigrated(schema: SchemaVersion): boolean {
  return schema.migrations >= journalEntries().length;
}

/** The migrations this build ships (its journal), read once. */
let journal: { when: number; tag: string }[] | undefined;
function journalEntries(): { when: number; tag: string }[] {
  journal ??= (
    JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number; tag: string }[] }
  ).entries;
  return journal;
}
