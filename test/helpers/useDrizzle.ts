import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll } from 'vitest';

import * as schema from '../../src/schema/index.js';

/**
 * drizzle over the database at `url`, for reading the declared views through the ORM; its pool is
 * closed after the file's tests. A pool of its own: drizzle rewires the date and json
 * (de)serializers of the postgres.js client it wraps, which would break Date parameters in the
 * plain SQL of a shared pool.
 */
export function useDrizzle(url: string): PostgresJsDatabase<typeof schema> {
  const client = postgres(url, { max: 2, onnotice: () => {} });
  afterAll(() => client.end({ timeout: 5 }));
  return drizzle(client, { schema });
}
