import postgres from 'postgres';
import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import * as schema from './schema/index.js';

export type Sql = postgres.Sql;
export type Db = PostgresJsDatabase<typeof schema>;

/** A pool for SQL plus, on demand, a drizzle handle. Repositories take one of them as their first argument. */
export interface Database {
  /** postgres.js with its default type handling (Date in, Date out; numerics as strings). */
  sql: Sql;
  /**
   * drizzle over a pool of its own: drizzle rewires the date and json (de)serializers of the
   * client it wraps, which would break Date parameters in plain SQL on a shared pool.
   */
  readonly db: Db;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Pool size of `sql`. Default: 4 (writes go one transaction at a time; the rest serve locks and reads). */
  max?: number;
  /** `application_name`, visible in pg_stat_activity. Default: "prediction-ingest". */
  applicationName?: string;
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const clientOptions = {
    onnotice: () => {},
    connection: { application_name: options.applicationName ?? 'prediction-ingest' },
  };
  const sql = postgres(url, { ...clientOptions, max: options.max ?? 4 });
  let drizzleClient: postgres.Sql | undefined;
  let db: Db | undefined;
  return {
    sql,
    get db() {
      drizzleClient ??= postgres(url, { ...clientOptions, max: 2 });
      db ??= drizzle(drizzleClient, { schema });
      return db;
    },
    close: async () => {
      await Promise.all([sql.end({ timeout: 5 }), drizzleClient?.end({ timeout: 5 })]);
    },
  };
}
