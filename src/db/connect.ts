import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema/index.js';

export type Sql = postgres.Sql;
export type Db = PostgresJsDatabase<typeof schema>;

/** A pool plus the drizzle handle over it. Repositories take this as their first argument. */
export interface Database {
  sql: Sql;
  db: Db;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Pool size. Default: 4 (the sync writes from one connection at a time; the rest serve locks and reads). */
  max?: number;
  /** `application_name`, visible in pg_stat_activity. Default: "prediction-ingest". */
  applicationName?: string;
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 4,
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'prediction-ingest' },
    // Big integers and numerics stay strings: money and sizes are never floats.
    types: { bigint: postgres.BigInt },
  });
  const db = drizzle(sql, { schema });
  return {
    sql,
    db,
    close: () => sql.end({ timeout: 5 }),
  };
}
