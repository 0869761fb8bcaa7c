import type postgres from 'postgres';

import { openPool } from './openPool.js';
import { type DatabaseRole, ROLE_SETTINGS, type SessionSettings, writerSettings } from './sessionSettings.js';

export type Sql = postgres.Sql;

/**
 * A pool for SQL: the operations under src/sql take it (or a transaction of it) as their first
 * argument, with table and column names from the drizzle schema (src/sql/core/sqlNames.ts).
 */
export interface Database {
  /** postgres.js with its default type handling (Date in, Date out; numerics and int8 as strings). */
  sql: Sql;
  /** The timeouts and deadlines every session of the pool carries (see SessionSettings). */
  readonly settings: Readonly<SessionSettings>;
  /** Ends the pool; a query still running after 5 s is cut and its connection destroyed. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Pool size of `sql`. Default: 4 (writes go one transaction at a time; the rest serve locks and reads). */
  max?: number;
  /** `application_name`, visible in pg_stat_activity. Default: "prediction-ingest", plus " <role>" for a role other than writer. */
  applicationName?: string;
  /** What the sessions are for, which sets their timeouts (ROLE_SETTINGS). Default: "writer". */
  role?: DatabaseRole;
  /**
   * The writer role's statement_timeout, from which its lock timeout and deadlines follow
   * (writerSettings). Default 20 000 (PREDICTION_DB_STATEMENT_TIMEOUT_SEC). Ignored for other roles.
   */
  statementTimeoutMs?: number;
}

export function connect(url: string, options: ConnectOptions = {}): Database {
  const role = options.role ?? 'writer';
  const settings =
    role === 'writer' && options.statementTimeoutMs !== undefined ? writerSettings(options.statementTimeoutMs) : ROLE_SETTINGS[role];
  const applicationName = options.applicationName ?? (role === 'writer' ? 'prediction-ingest' : `prediction-ingest ${role}`);
  const main = openPool(url, settings, { max: options.max ?? 4, applicationName });
  return { sql: main.sql, settings, close: () => main.close(5) };
}
