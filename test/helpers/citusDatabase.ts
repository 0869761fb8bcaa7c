import { readFileSync } from 'node:fs';

import postgres from 'postgres';

import { migrate } from '../../src/db/migrate.js';

/** The layout script, without its psql meta-commands (postgres.js runs the rest as one simple query). */
const LAYOUT = readFileSync(new URL('../../scripts/citus/distribute.sql', import.meta.url), 'utf8').replace(/^\\.*$/gm, '');

/**
 * Empties the Citus database at `url` and builds it as an operator would: `migrate`, then
 * scripts/citus/distribute.sql. One database serves the whole run, so test files take turns.
 */
export async function resetCitusDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe('drop schema if exists analytics, prediction, prediction_partitions, drizzle cascade');
    await migrate(url);
    await sql.unsafe(LAYOUT);
  } finally {
    await sql.end();
  }
}
